package io.tasklane.scheduler;

import io.micronaut.runtime.Micronaut;

/**
 * Starts the scheduler: a Micronaut HTTP server (status API, health, Prometheus metrics) with the
 * Kafka Streams topology running inside. Configure it under {@code tasklane.scheduler.*} through
 * {@code application.yml}, system properties ({@code -Dtasklane.scheduler.bootstrap-servers=..}) or
 * environment variables ({@code TASKLANE_SCHEDULER_BOOTSTRAP_SERVERS}); see {@link
 * SchedulerConfig}. The process exits with status 1 when the configuration or the topics are wrong.
 */
public final class SchedulerApp {
  private SchedulerApp() {}

  public static void main(String[] args) {
    try {
      Micronaut.build(args).mainClass(SchedulerApp.class).banner(false).start();
    } catch (Throwable t) {
      System.err.println("tasklane scheduler failed to start: " + t.getMessage());
      t.printStackTrace();
      System.exit(1);
    }
  }
}
