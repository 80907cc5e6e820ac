package io.tasklane.chaos.internal;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.examples.orders.LaneHandlers;
import io.tasklane.examples.orders.ScenarioHandlers;
import io.tasklane.harness.Database;
import io.tasklane.harness.TopicReader;
import io.tasklane.scheduler.TaskStoreRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Where a lost task was last seen, hop by hop, for the report of a failed run: its outbox row, its
 * record in the tasks topic, the states the scheduler's task store changelog went through, its
 * attempts in the handler topics, its results and its lane runs. Reads each topic once after the
 * drain, for at most {@value #MOST} tasks; runs on the caller's thread.
 */
public final class LostTrail {
  static final int MOST = 5;
  private static final List<String> HANDLERS =
      List.of(LaneHandlers.EVENT, ScenarioHandlers.REMINDER, ScenarioHandlers.PARTNER);

  private LostTrail() {}

  /** One line per task in {@code ids} (at most {@value #MOST}). */
  public static List<String> of(
      String bootstrap, Topics topics, String taskStoreChangelog, Database db, List<String> ids) {
    Map<String, List<String>> seen = new LinkedHashMap<>();
    ids.stream().limit(MOST).forEach(id -> seen.put(id, new ArrayList<>()));
    if (seen.isEmpty()) {
      return List.of();
    }
    Set<String> wanted = seen.keySet();
    for (String id : wanted) {
      long rows = db.count("SELECT COUNT(*) FROM tasklane_outbox WHERE task_id = '" + id + "'");
      seen.get(id).add("outbox rows " + rows);
      db.forEach(
          "SELECT attempt, outcome, started_us FROM demo_lane_runs WHERE task_id = '"
              + id
              + "' ORDER BY started_us",
          rs ->
              seen.get(id)
                  .add(
                      "lane run attempt "
                          + rs.getInt(1)
                          + " "
                          + rs.getString(2)
                          + " at "
                          + Instant.ofEpochMilli(rs.getLong(3) / 1000)));
    }
    read(
        bootstrap,
        topics.tasks(),
        r -> {
          if (WireCodec.decodeTaskRecord(r.value()) instanceof TaskEnvelope e
              && wanted.contains(e.id())) {
            seen.get(e.id()).add(where("tasks topic", r) + " orderingKey " + e.orderingKey());
          }
        });
    read(
        bootstrap,
        taskStoreChangelog,
        r -> {
          String id = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
          if (id != null && wanted.contains(id)) {
            TaskState state = r.value() == null ? null : TaskStoreRecords.state(r.value());
            seen.get(id).add(where("store", r) + " " + (r.value() == null ? "forgotten" : state));
          }
        });
    for (String handler : HANDLERS) {
      read(
          bootstrap,
          topics.handler(handler),
          r -> {
            Dispatch d = WireCodec.decodeDispatch(r.value());
            if (d.task() != null && wanted.contains(d.task().id())) {
              seen.get(d.task().id()).add(where("dispatch", r) + " attempt " + d.attempt());
            }
          });
    }
    read(
        bootstrap,
        topics.results(),
        r -> {
          TaskResult t = WireCodec.decodeResult(r.value());
          if (wanted.contains(t.id())) {
            seen.get(t.id())
                .add(where("result", r) + " attempt " + t.attempt() + " " + t.outcome());
          }
        });
    List<String> dlts = new ArrayList<>(List.of(topics.schedulerDlt(), topics.relayDlt()));
    HANDLERS.forEach(h -> dlts.add(topics.handlerDlt(h)));
    for (String dlt : dlts) {
      read(
          bootstrap,
          dlt,
          r -> {
            String text = new String(r.value(), StandardCharsets.UTF_8);
            for (String id : wanted) {
              if (text.contains(id)) {
                String cut = text.length() > 400 ? text.substring(0, 400) + "…" : text;
                seen.get(id).add(where(dlt, r) + " " + cut);
              }
            }
          });
    }
    List<String> out = new ArrayList<>();
    seen.forEach((id, trail) -> out.add("trail of " + id + ": " + trail));
    return out;
  }

  private static String where(String what, ConsumerRecord<byte[], byte[]> r) {
    return what
        + " p"
        + r.partition()
        + "@"
        + r.offset()
        + " "
        + Instant.ofEpochMilli(r.timestamp());
  }

  private static void read(
      String bootstrap,
      String topic,
      java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
    new TopicReader(bootstrap, "chaos-trail-")
        .setting(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000)
        .timeouts(Duration.ofSeconds(30), Duration.ofSeconds(120), Duration.ofMillis(500))
        .readAll(
            topic,
            r -> {
              if (r.value() == null && !topic.endsWith("-changelog")) {
                return;
              }
              try {
                each.accept(r);
              } catch (RuntimeException e) {
                // not a record of the kind this topic carries (a batch row, a later version)
              }
            });
  }
}
