-- Tasklane outbox table (MySQL 8, MariaDB 10.6+). Insert-only: the relay reads INSERT events
-- from the binlog; updates and deletes by applications are ignored. Purging is the relay's job.
-- The primary key is the only index: the relay purges by id range and created_at.
CREATE TABLE IF NOT EXISTS tasklane_outbox (
  id            BIGINT        NOT NULL AUTO_INCREMENT,
  task_id       CHAR(36)      NOT NULL,
  routing_key   VARCHAR(255)  NOT NULL,
  kind          VARCHAR(16)   NOT NULL,
  handler       VARCHAR(100)  NULL,
  task_key      VARCHAR(255)  NULL,
  payload       LONGTEXT      NULL,
  due_at        BIGINT        NOT NULL,
  max_attempts  INT           NOT NULL,
  timeout_ms    BIGINT        NOT NULL,
  backoff       VARCHAR(4000) NULL,
  depends_on    TEXT          NULL,
  headers       TEXT          NULL,
  created_at    BIGINT        NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
