/**
 * Tasklane's fault suite: {@link io.tasklane.chaos.ChaosRun} starts a private stack and the apps as
 * processes, offers load, kills and restarts them, restarts the broker and MariaDB, purges the
 * binlog under a stopped relay, and verifies every committed task against the database.
 */
package io.tasklane.chaos;
