/**
 * The Tasklane scheduler: a Kafka Streams app that keeps every task's state in RocksDB stores and
 * dispatches tasks to their handler topics when they are due. {@link
 * io.tasklane.scheduler.SchedulerApp} is the main class; {@link
 * io.tasklane.scheduler.SchedulerConfig} its configuration under {@code tasklane.scheduler.*}.
 */
package io.tasklane.scheduler;
