package io.tasklane.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import jakarta.inject.Singleton;

/**
 * The benchmark's slow handler: sleeps {@value #MILLIS} ms, so that a worker killed under load has
 * tasks in flight (the worker failover measure). Called on the worker's handler pool threads, no
 * transaction; an interrupt (the attempt's timeout) ends it early.
 */
@Singleton
public class SleepHandler {
  /** The handler name of the worker failover tasks. */
  public static final String NAME = "sleep";

  /** How long each call takes. */
  public static final long MILLIS = 1_000;

  @TaskHandler(NAME)
  public void run(JsonNode payload, TaskContext ctx) throws InterruptedException {
    Thread.sleep(MILLIS);
  }
}
