package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.HANDLER;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.scheduler.internal.Driver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report stores' RocksDB segments open at the stream task's first tick, before any figure
 * (Kafka Streams would open them in the first commit that flushes figures), with nothing to read
 * and nothing logged: the figures read as the report API reads them are those of a store whose
 * segments the figures opened.
 */
class ReportSegmentsTest {
  @TempDir Path ahead;
  @TempDir Path late;

  @Test
  void segmentsOpenAtTheFirstTickHoldingNothing() throws IOException {
    try (Driver d = new Driver(ahead)) {
      for (ReportGrain g : ReportGrain.values()) {
        assertThat(segments(ahead, g)).as(g.store).isEmpty();
      }
      d.advance(100);
      for (ReportGrain g : ReportGrain.values()) {
        assertThat(segments(ahead, g)).as(g.store).containsExactly(segment(g, d.now));
        assertThat(entries(d, g)).as(g.store).isEmpty();
        assertThat(d.read(changelog(g))).as(g.store).isEmpty();
      }
    }
  }

  @Test
  void figuresReadTheSameAsWhenTheirWritesOpenTheSegments() throws IOException {
    List<String> ahead;
    List<String> asBefore;
    try (Driver d = new Driver(this.ahead)) {
      d.advance(100); // the first tick opens the segments: the figures land in open ones
      ahead = scenario(d);
      for (ReportGrain g : ReportGrain.values()) {
        assertThat(segments(this.ahead, g)).as(g.store).containsExactly(segment(g, d.now));
        assertThat(entries(d, g)).as(g.store).extracting(kv -> kv.key.key()).containsOnly(HANDLER);
      }
    }
    try (Driver d = new Driver(late)) {
      d.advance(100);
      // 15 days on, every grain's figures land in a segment no tick opened: their first write
      // (the commit's cache flush) opens it, as before segments were opened ahead.
      d.advance(LATER);
      for (ReportGrain g : ReportGrain.values()) {
        assertThat(segments(late, g)).as(g.store).doesNotContain(segment(g, d.now));
      }
      long later = d.now;
      asBefore = scenario(d);
      for (ReportGrain g : ReportGrain.values()) {
        assertThat(segments(late, g)).as(g.store).contains(segment(g, later));
        assertThat(entries(d, g)).as(g.store).extracting(kv -> kv.key.key()).containsOnly(HANDLER);
      }
    }
    assertThat(ahead)
        .anyMatch(l -> l.startsWith("minute@0 succeeded=2 dead=1 failed=1 "))
        .anyMatch(l -> l.startsWith("day@0 succeeded=2 dead=1 failed=1 "))
        .isEqualTo(asBefore);
  }

  private static final long LATER = java.time.Duration.ofDays(15).toMillis();

  /**
   * Two tasks succeed, one fails for good (DEAD); returns each grain's buckets of the handler as
   * {@code ReportQuery} reads them, their starts counted from the scenario's start.
   */
  private static List<String> scenario(Driver d) {
    long base = d.now;
    for (int i = 0; i < 3; i++) {
      d.send(Driver.task(d.now));
    }
    d.advance(100);
    List<Dispatch> sent = d.dispatches();
    assertThat(sent).hasSize(3);
    for (int i = 0; i < sent.size(); i++) {
      Dispatch x = sent.get(i);
      d.advance(100);
      d.sendResult(
          x,
          i < 2
              ? TaskResult.succeeded(x.id(), x.attempt(), d.now - 50, d.now, "w1")
              : TaskResult.failed(
                  x.id(),
                  x.attempt(),
                  Outcome.PERMANENT_FAILURE,
                  new ErrorInfo("E", "boom", null),
                  null,
                  d.now - 50,
                  d.now,
                  "w1"));
    }
    d.runTo(d.now + 3_000);
    List<String> out = new ArrayList<>();
    for (ReportGrain g : ReportGrain.values()) {
      WindowStore<String, byte[]> s = d.driver.getWindowStore(g.store);
      Instant from = Instant.ofEpochMilli(base - g.maxSpan.toMillis());
      try (WindowStoreIterator<byte[]> it = s.fetch(HANDLER, from, Instant.ofEpochMilli(d.now))) {
        while (it.hasNext()) {
          KeyValue<Long, byte[]> kv = it.next();
          ReportBucket b = ReportBucket.decode(kv.value);
          out.add(
              g.label()
                  + "@"
                  + (kv.key - g.start(base))
                  + " succeeded="
                  + b.succeeded
                  + " dead="
                  + b.dead
                  + " failed="
                  + b.failed
                  + " "
                  + java.util.HexFormat.of().formatHex(kv.value));
        }
      }
    }
    return out;
  }

  private static List<KeyValue<Windowed<String>, byte[]>> entries(Driver d, ReportGrain g) {
    WindowStore<String, byte[]> s = d.driver.getWindowStore(g.store);
    List<KeyValue<Windowed<String>, byte[]>> out = new ArrayList<>();
    try (KeyValueIterator<Windowed<String>, byte[]> it = s.all()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  /** The directory name of {@code g}'s segment holding {@code at}. */
  private static String segment(ReportGrain g, long at) {
    return g.store + "." + g.segmentStart(at);
  }

  private static String changelog(ReportGrain g) {
    return "scheduler-test-" + g.store + "-changelog";
  }

  /** The segment directories of {@code g}'s store of stream task 0_0. */
  private static List<String> segments(Path stateDir, ReportGrain g) throws IOException {
    Path dir = stateDir.resolve("scheduler-test").resolve("0_0").resolve(g.store);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
