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

CREATE TABLE IF NOT EXISTS demo_audit (
  order_id BIGINT NOT NULL PRIMARY KEY,
  recorded_at BIGINT NOT NULL
) ENGINE=InnoDB;
