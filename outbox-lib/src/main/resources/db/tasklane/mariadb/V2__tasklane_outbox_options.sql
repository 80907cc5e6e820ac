-- Tasklane outbox table, schema version 2 (MySQL 8, MariaDB 10.6+): the column options holds a
-- task's optional settings (TaskOptions) as JSON, NULL for none. Rows written before it read as
-- having no options; the relay reads a table with or without it.
ALTER TABLE tasklane_outbox
  ADD COLUMN options TEXT NULL;
