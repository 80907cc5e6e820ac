package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through a running scheduler on the real broker: the record of an attempt released from a
 * flow-control queue and its search entry are held in memory until a commit. An attempt answered
 * before then leaves two task records (queued, SUCCEEDED) and three search-entry records on the
 * changelogs, not the DISPATCHED ones in between (three and five before); a task admitted straight
 * to a dispatch is stored at once, so the API, which reads the stores, shows it DISPATCHED, and its
 * result then settles it.
 */
@TasklaneStack
class HeldDispatchPipelineTest {
  static final String FAST = "held.fast";
  static final String SLOW = "held.slow";
  static final int TASKS = 200;

  @TempDir Path stateDir;

  private static String state(int port, String id) throws Exception {
    var r = StackSupport.get(port, "/api/tasks/" + id, VIEWER);
    return r.statusCode() == 200 ? WireCodec.readTree(r.body()).path("state").asText() : "";
  }

  /** Every record of the search index's changelog about {@code ids}, deletions included. */
  private static long entries(List<ConsumerRecord<String, byte[]>> log, Set<String> ids) {
    return log.stream().filter(r -> ids.stream().anyMatch(id -> r.key().endsWith(id))).count();
  }

  private static long recordsOf(List<ConsumerRecord<String, byte[]>> log, Set<String> ids) {
    return log.stream()
        .filter(r -> r.value() != null)
        .filter(r -> ids.stream().anyMatch(id -> r.key().endsWith(id)))
        .count();
  }

  @Test
  void anAttemptAnsweredBeforeTheCommitLeavesNoDispatchedRecordOnTheChangelogs(LocalStack stack)
      throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    String bootstrap = stack.bootstrapServers();
    StackSupport.createTopics(bootstrap, Map.of(topics.handler(FAST), 1, topics.handler(SLOW), 1));
    Map<String, Object> config = StackSupport.instanceConfig(stack, topics, stateDir, "a", 2);
    config.put("tasklane.scheduler.api.tokens", "viewer-bob:" + VIEWER + ":viewer");
    config.put("tasklane.scheduler.commit-interval", "2s");
    config.put("tasklane.scheduler.max-dispatched", 20); // most fast tasks wait in the queue
    try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, config);
        FakeWorker fast = new FakeWorker(bootstrap, topics, FAST);
        KafkaProducer<String, byte[]> producer = StackSupport.producer(bootstrap)) {
      int port = server.getPort();
      long now = System.currentTimeMillis();
      Set<String> fastIds = new HashSet<>();
      for (int i = 0; i < TASKS; i++) {
        TaskEnvelope t = StackSupport.task(FAST, now);
        fastIds.add(t.id());
        StackSupport.send(producer, topics, t);
      }
      List<TaskEnvelope> slow = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        slow.add(StackSupport.task(SLOW, now).toBuilder().timeoutMs(600_000).build());
        StackSupport.send(producer, topics, slow.get(i));
      }
      Set<String> open = new HashSet<>(fastIds);
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(500))
          .until(
              () -> {
                for (String id : List.copyOf(open)) {
                  if (state(port, id).equals("SUCCEEDED")) {
                    open.remove(id);
                  }
                }
                return open.isEmpty();
              });
      // Unanswered, the slow attempts are written at the next commit: the API sees them.
      for (TaskEnvelope t : slow) {
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> state(port, t.id()).equals("DISPATCHED"));
      }

      String app = topics.namespace() + "-scheduler-";
      var records = StackSupport.readAll(bootstrap, app + "tasklane-tasks-changelog", TASKS);
      var entries = StackSupport.readAll(bootstrap, app + "tasklane-task-index-changelog", TASKS);
      Set<String> slowIds = new HashSet<>();
      slow.forEach(t -> slowIds.add(t.id()));
      // A fast task: its queued (or admitted) and SUCCEEDED records, its queued entry's put and
      // delete and its SUCCEEDED entry (an admitted one: its DISPATCHED put and delete instead);
      // before, a queued task also wrote its DISPATCHED record and entry (3 and 5 per task).
      assertThat(recordsOf(records, fastIds)).isBetween(TASKS * 2L, TASKS * 12L / 5);
      assertThat(entries(entries, fastIds)).isBetween(TASKS * 3L, TASKS * 18L / 5);
      assertThat(recordsOf(records, slowIds)).isEqualTo(3);

      long done = System.currentTimeMillis();
      for (var d : StackSupport.readAll(bootstrap, topics.handler(SLOW), 3)) {
        var dispatch = WireCodec.decodeDispatch(d.value());
        producer.send(
            new org.apache.kafka.clients.producer.ProducerRecord<>(
                topics.results(),
                dispatch.task().routingKey(),
                WireCodec.encode(
                    io.tasklane.core.TaskResult.succeeded(
                            dispatch.id(), dispatch.attempt(), done, done, "slow")
                        .answering(dispatch))));
      }
      producer.flush();
      for (TaskEnvelope t : slow) {
        await().atMost(Duration.ofSeconds(30)).until(() -> state(port, t.id()).equals("SUCCEEDED"));
      }
    }
  }
}
