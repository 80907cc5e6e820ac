package io.tasklane.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import jakarta.inject.Singleton;

/** The benchmark's no-op handler; called on the worker's handler pool threads, no transaction. */
@Singleton
public class NoopHandler {
  /** The handler name every benchmark task uses. */
  public static final String NAME = "noop";

  @TaskHandler(NAME)
  public void run(JsonNode payload, TaskContext ctx) {
    // Nothing: the worker's TaskResult carries the start time the benchmark measures.
  }
}
