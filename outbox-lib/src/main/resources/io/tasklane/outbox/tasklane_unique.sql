-- Tasklane unique windows (MySQL 8, MariaDB 10.6+): one row per (handler, key) of a task enqueued
-- with TaskRequest.unique(window), naming the task holding the window and when the window ends.
-- Written by the outbox library in the enqueuing transaction; rows whose window has ended are
-- replaced by the next enqueue of their key and deleted by the relay's purge. key_id is
-- TaskIds.forKey(handler, key), so keys compare exactly whatever the collation.
CREATE TABLE IF NOT EXISTS tasklane_unique (
  key_id        CHAR(36)      NOT NULL,
  handler       VARCHAR(100)  NOT NULL,
  unique_key    VARCHAR(255)  NOT NULL,
  task_id       CHAR(36)      NOT NULL,
  expires_at    BIGINT        NOT NULL,
  PRIMARY KEY (key_id),
  KEY tasklane_unique_expires_at (expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
