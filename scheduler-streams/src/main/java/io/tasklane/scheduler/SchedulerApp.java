package io.tasklane.scheduler;

import io.micronaut.context.env.Environment;
import io.micronaut.runtime.Micronaut;

/**
 * Starts the scheduler: a Micronaut HTTP server (status API, health, Prometheus metrics) with the
 * Kafka Streams topology running inside. Configure it under {@code tasklane.scheduler.*} through
 * environment variables ({@code TASKLANE_SCHEDULER_BOOTSTRAP_SERVERS}), which win over system
 * properties ({@code -Dtasklane.scheduler.bootstrap-servers=..}), which win over {@code
 * application.yml}; see {@link SchedulerConfig}. The process exits with status 1 when the
 * configuration or the topics are wrong.
 */
public final class SchedulerApp {
  private SchedulerApp() {}

  public static void main(String[] args) {
    try {
      new Micronaut() {
        /** No log line of its own: main prints the cause as the first line, then the trace. */
        @Override
        protected void handleStartupException(Environment environment, Throwable exception) {
          throw exception instanceof RuntimeException r
              ? r
              : new SchedulerException(String.valueOf(exception), exception);
        }
      }.args(args).mainClass(SchedulerApp.class).banner(false).start();
    } catch (Throwable t) {
      // The cause in one line first (a refused token says how to make one), then the trace.
      System.err.println("tasklane scheduler failed to start: " + rootMessage(t));
      t.printStackTrace();
      System.exit(1);
    }
  }

  /** The message of the first {@link SchedulerException} among the causes, else of {@code t}. */
  static String rootMessage(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SchedulerException) {
        return c.getMessage();
      }
    }
    return t.getMessage();
  }
}
