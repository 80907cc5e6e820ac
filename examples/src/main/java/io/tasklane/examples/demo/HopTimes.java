package io.tasklane.examples.demo;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.examples.orders.OrderService;
import io.tasklane.examples.orders.ScheduleHandlers;
import io.tasklane.harness.Database;
import io.tasklane.harness.TopicReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Splits the demo's two latencies into their hops, from the record timestamps the apps wrote: the
 * relay's send time of a task on {@code <ns>.tasks} (the producer stamps it), the scheduler's
 * dispatch time (the dispatch record's timestamp, taken on the stream thread when it forwards the
 * dispatch), and the handler's start (the effect row). For the e-mails the first hop starts at the
 * order's commit; for the 1-second sweep at its fire instant, and its first hop is the fire's task
 * written to {@code <ns>.tasks} by the scheduler's punctuator and read back by its admission. A
 * fire's task, and often its dispatch too, are sent ahead of its instant ({@code schedule-lead};
 * the worker holds such a dispatch until then). No hop starts before the instant: the hops that
 * ended before it are 0, and the worker's is then the instant → handler start. The task of a
 * one-task fire (the sweep) is admitted in the partition that makes it and has no record on {@code
 * <ns>.tasks}: its first hop is 0 too. First attempts only. Used on the demo's thread, after the
 * run.
 */
final class HopTimes {
  private final Database db;
  private final Topics topics;
  private final String bootstrap;

  private final StringBuilder csv = new StringBuilder("kind,task,start,tasks,dispatch,started\n");

  HopTimes(Database db, Topics topics, String bootstrap) {
    this.db = db;
    this.topics = topics;
    this.bootstrap = bootstrap;
  }

  /**
   * Prints one line per latency: p50 / p99 of each hop; writes every measured task's four instants
   * to {@code csv} (null: not written).
   */
  void print(PrintStream out, Path csvFile) {
    Map<String, Long> tasksAt = new HashMap<>();
    reader()
        .readAll(
            topics.tasks(),
            r -> {
              TaskTopicRecord v = decodeTask(r);
              if (v instanceof TaskEnvelope t) {
                tasksAt.putIfAbsent(t.id(), r.timestamp());
              }
            });
    Map<String, Long> emails = dispatches(OrderService.EMAIL);
    Map<String, Long> sweeps = dispatches(ScheduleHandlers.SWEEP);
    Histogram[] mail = {histogram(), histogram(), histogram()};
    db.forEach(
        "SELECT e.task_id, o.created_at, e.started_at FROM demo_effects e JOIN demo_orders o"
            + " ON e.ref = o.id WHERE e.kind='"
            + OrderService.EMAIL
            + "' AND e.attempt=1",
        rs ->
            record(
                "email",
                rs.getString(1),
                mail,
                rs.getLong(2),
                tasksAt.get(rs.getString(1)),
                emails.get(rs.getString(1)),
                rs.getLong(3)));
    Histogram[] sweep = {histogram(), histogram(), histogram()};
    db.forEach(
        "SELECT task_id, ref, started_at FROM demo_effects WHERE kind='"
            + ScheduleHandlers.SWEEP
            + "' AND attempt=1",
        rs ->
            record(
                "sweep",
                rs.getString(1),
                sweep,
                rs.getLong(2),
                tasksAt.getOrDefault(rs.getString(1), rs.getLong(2)),
                sweeps.get(rs.getString(1)),
                rs.getLong(3)));
    line(out, "commit → handler start (e-mails)", "relay", mail);
    line(out, "fire instant → handler start (sweep)", "fire task", sweep);
    if (csvFile != null) {
      try {
        Files.createDirectories(csvFile.getParent());
        Files.writeString(csvFile, csv);
      } catch (IOException e) {
        out.println("  (hop times not written to " + csvFile + ": " + e + ")");
      }
    }
  }

  private Map<String, Long> dispatches(String handler) {
    Map<String, Long> at = new HashMap<>();
    reader()
        .readAll(
            topics.handler(handler),
            r -> {
              try {
                Dispatch d = WireCodec.decodeDispatch(r.value());
                if (d.attempt() == 1) {
                  at.putIfAbsent(d.id(), r.timestamp());
                }
              } catch (RuntimeException e) {
                // not a dispatch: not measured
              }
            });
    return at;
  }

  private void record(
      String kind, String id, Histogram[] h, long start, Long tasks, Long dispatch, long started) {
    if (tasks == null || dispatch == null) {
      return;
    }
    csv.append(kind).append(',').append(id).append(',').append(start).append(',');
    csv.append(tasks).append(',').append(dispatch).append(',').append(started).append('\n');
    h[0].recordValue(Math.max(0, tasks - start));
    h[1].recordValue(Math.max(0, dispatch - Math.max(tasks, start)));
    h[2].recordValue(Math.max(0, started - Math.max(dispatch, start)));
  }

  private static void line(PrintStream out, String what, String first, Histogram[] h) {
    out.printf(
        "  hops of %s (p50/p99 ms, %d tasks): %s %d/%d, scheduler %d/%d, worker %d/%d%n",
        what,
        h[0].getTotalCount(),
        first,
        h[0].getValueAtPercentile(50),
        h[0].getValueAtPercentile(99),
        h[1].getValueAtPercentile(50),
        h[1].getValueAtPercentile(99),
        h[2].getValueAtPercentile(50),
        h[2].getValueAtPercentile(99));
  }

  private TopicReader reader() {
    return new TopicReader(bootstrap, "demo-hops-");
  }

  private static TaskTopicRecord decodeTask(ConsumerRecord<byte[], byte[]> r) {
    try {
      return r.value() == null ? null : WireCodec.decodeTaskRecord(r.value());
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static Histogram histogram() {
    return new Histogram(3_600_000L, 3);
  }
}
