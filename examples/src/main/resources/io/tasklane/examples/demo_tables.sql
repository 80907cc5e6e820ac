-- The demo's tables; DemoSchema runs this file and compose mounts it.
CREATE TABLE IF NOT EXISTS demo_orders (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  state VARCHAR(16) NOT NULL,
  created_at BIGINT NOT NULL,
  cancel_due_at BIGINT NOT NULL
) ENGINE=InnoDB;

CREATE TABLE IF NOT EXISTS demo_effects (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  task_id CHAR(36) NOT NULL,
  kind VARCHAR(40) NOT NULL,
  ref BIGINT NOT NULL,
  attempt INT NOT NULL,
  started_at BIGINT NOT NULL,
  KEY demo_effects_kind (kind, ref),
  KEY demo_effects_task (task_id)
) ENGINE=InnoDB;

-- One row per run of an ordered-lane handler (LaneHandlers): start before its work, end with its
-- effect (or its failure), times in microseconds of the worker's clock.
CREATE TABLE IF NOT EXISTS demo_lane_runs (
  run_id CHAR(36) NOT NULL PRIMARY KEY,
  task_id CHAR(36) NOT NULL,
  lane VARCHAR(64) NOT NULL,
  seq BIGINT NOT NULL,
  attempt INT NOT NULL,
  pid BIGINT NOT NULL,
  started_us BIGINT NOT NULL,
  ended_us BIGINT NULL,
  outcome VARCHAR(16) NULL,
  KEY demo_lane_runs_lane (lane, seq)
) ENGINE=InnoDB;

CREATE TABLE IF NOT EXISTS demo_audit (
  order_id BIGINT NOT NULL PRIMARY KEY,
  recorded_at BIGINT NOT NULL
) ENGINE=InnoDB;
