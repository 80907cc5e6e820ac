package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The first record of a task id wins; a later one with other content is refused visibly. */
class DuplicateConflictTest {
  @TempDir Path dir;
  Driver d;
  ListAppender<ILoggingEvent> log = new ListAppender<>();
  Logger logger = (Logger) LoggerFactory.getLogger(Admissions.class);

  @BeforeEach
  void start() {
    d = new Driver(dir);
    log.start();
    logger.addAppender(log);
  }

  @AfterEach
  void stop() {
    logger.detachAppender(log);
    d.close();
  }

  static TaskEnvelope copy(TaskEnvelope t, String payload, long dueAt, long createdAt, Source src) {
    return t.toBuilder()
        .payload(WireCodec.readTree(payload))
        .dueAt(dueAt)
        .headers(Map.of("traceparent", "00-" + createdAt))
        .createdAt(createdAt)
        .source(src)
        .build();
  }

  private long warnings() {
    return log.list.stream().filter(e -> e.getLevel() == Level.WARN).count();
  }

  @Test
  void aDuplicateWithOtherContentIsRefusedCountedShownAndWarnedOncePerTask() {
    TaskEnvelope first = Driver.task(T0 + 60_000).withSource(new Source("tasklane_outbox", 1));
    d.send(first);
    TaskEnvelope changed =
        copy(first, "{\"to\":\"x@y.z\"}", T0 + 120_000, T0 + 5, new Source("tasklane_outbox", 2));
    TaskEnvelope later =
        copy(first, "{\"to\":\"q@y.z\"}", T0, T0 + 9, new Source("tasklane_outbox", 3));

    d.send(changed);
    d.advance(1_000);
    d.send(later);

    TaskRecord r = d.record(first.id());
    assertThat(r.task()).isEqualTo(first);
    assertThat(r.dueAt()).isEqualTo(T0 + 60_000);
    assertThat(r.duplicatesRefused()).isEqualTo(2);
    assertThat(r.lastRefusedDuplicate())
        .isEqualTo(
            new RefusedDuplicate(
                T0 + 1_000, T0 + 9, new Source("tasklane_outbox", 3), first.handler(), T0));
    assertThat(d.metrics.get("duplicate")).isEqualTo(2);
    assertThat(d.metrics.get(SchedulerEvent.DUPLICATE_CONFLICT)).isEqualTo(2);
    assertThat(warnings()).isEqualTo(1);
    assertThat(log.list.get(0).getFormattedMessage())
        .contains(first.id())
        .contains("first record of an id wins");
    // The stored record's JSON (the status API's view) carries the count and the last one.
    assertThat(WireCodec.encodeToString(r))
        .contains("\"duplicatesRefused\":2")
        .contains("\"lastRefusedDuplicate\":{\"refusedAt\":" + (T0 + 1_000) + ",\"createdAt\":");

    d.advanceTo(T0 + 60_000);
    assertThat(d.dispatches()).singleElement().extracting(Dispatch::task).isEqualTo(first);
  }

  @Test
  void anIdenticalDuplicateIsOnlyCounted() {
    TaskEnvelope first = Driver.task(T0 + 60_000).withSource(new Source("tasklane_outbox", 1));
    d.send(first);
    d.send(first); // a relay replay
    // The same keyed task enqueued again with the same data: another row, time and trace.
    d.send(copy(first, "{\"to\":\"a@b.c\"}", first.dueAt(), T0 + 7, new Source("o", 2)));

    TaskRecord r = d.record(first.id());
    assertThat(d.metrics.get("duplicate")).isEqualTo(2);
    assertThat(d.metrics.get(SchedulerEvent.DUPLICATE_CONFLICT)).isZero();
    assertThat(r.duplicatesRefused()).isZero();
    assertThat(r.lastRefusedDuplicate()).isNull();
    assertThat(WireCodec.encodeToString(r)).doesNotContain("duplicatesRefused");
    assertThat(warnings()).isZero();
  }
}
