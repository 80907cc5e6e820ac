package io.tasklane.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import jakarta.inject.Singleton;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The benchmark's lane handlers ({@code bin/bench lanes}): {@value #NAME} (ordered lanes and the
 * fairness measure) and {@value #LIMITED} (the limit per concurrency key). The payload names the
 * task's group ({@code g}), key ({@code k}) and place in its key ({@code s}); {@code f}: the first
 * attempt fails, {@code ms}: the call sleeps that long, {@code r} false: nothing is recorded.
 *
 * <p>When the system property {@value #EVENTS_PROPERTY} names a file, every call appends a line
 * when it starts ({@code S}) and one when it ends ({@code E}, or {@code F} for a failed attempt):
 * {@code <event> <System.nanoTime()> <handler> <group> <key> <place> <attempt>}. Each line is
 * written through to the file at once, so that a worker killed with {@code kill -9} leaves every
 * event it had; the bench merges the files of its workers by the time (the monotonic clock every
 * process of the machine shares). Called on the worker's handler pool threads, no transaction.
 */
@Singleton
public class LaneHandler {
  /** The handler of the ordered lanes and the fairness measure. */
  public static final String NAME = "lane";

  /** The handler of the limit per concurrency key. */
  public static final String LIMITED = "lane-limit";

  /** The system property naming the events file; none: nothing is recorded. */
  public static final String EVENTS_PROPERTY = "tasklane.bench.lane-events";

  private final BufferedWriter out;

  public LaneHandler() {
    String file = System.getProperty(EVENTS_PROPERTY);
    try {
      out =
          file == null || file.isBlank()
              ? null
              : Files.newBufferedWriter(
                  Path.of(file),
                  StandardCharsets.UTF_8,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open " + file, e);
    }
  }

  @TaskHandler(NAME)
  public void run(JsonNode payload, TaskContext ctx) throws InterruptedException {
    handle(NAME, payload, ctx);
  }

  @TaskHandler(LIMITED)
  public void limited(JsonNode payload, TaskContext ctx) throws InterruptedException {
    handle(LIMITED, payload, ctx);
  }

  private void handle(String handler, JsonNode p, TaskContext ctx) throws InterruptedException {
    boolean record = out != null && p.path("r").asBoolean(true);
    String tail =
        record
            ? " "
                + handler
                + " "
                + p.path("g").asText("-")
                + " "
                + p.path("k").asText("-")
                + " "
                + p.path("s").asInt()
                + " "
                + ctx.attempt()
            : null;
    if (record) {
      event('S', tail);
    }
    boolean ok = false;
    try {
      long ms = p.path("ms").asLong(0);
      if (ms > 0) {
        Thread.sleep(ms);
      }
      if (p.path("f").asBoolean(false) && ctx.attempt() == 1) {
        throw new IllegalStateException("this task fails its first attempt by design");
      }
      ok = true;
    } finally {
      if (record) {
        event(ok ? 'E' : 'F', tail);
      }
    }
  }

  private synchronized void event(char kind, String tail) {
    try {
      out.write(kind + " " + System.nanoTime() + tail + "\n");
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
