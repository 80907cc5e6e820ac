CREATE TABLE IF NOT EXISTS tasklane_processed (
  task_id CHAR(36) NOT NULL PRIMARY KEY,
  handler VARCHAR(100) NOT NULL,
  processed_at BIGINT NOT NULL
)
