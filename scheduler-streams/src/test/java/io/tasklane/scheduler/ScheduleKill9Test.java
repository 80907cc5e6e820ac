package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskIds;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 1-second schedule while its scheduler process is killed with SIGKILL and started again on the
 * same state: every fire instant makes exactly one task (the derived id), no task is dispatched
 * before its instant, and the fires that passed during the outage follow the default misfire policy
 * ({@code FIRE_ONCE_IF_LATE_BY_AT_MOST(5s)}): the outage is longer than 5 s, so they are skipped
 * except the latest, which is on time when the restarted scheduler's timer finds it.
 */
@TasklaneStack
class ScheduleKill9Test {
  static final String HANDLER = "sched.kill";
  static final String NAME = "kill.tick";

  @TempDir Path dir;

  @Test
  void aOneSecondScheduleMakesOneTaskPerFireAcrossAKill9AndFollowsItsMisfirePolicy(LocalStack stack)
      throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 4));
    int port = SchedulerProcess.freePort();
    try (FakeWorker worker = new FakeWorker(stack.bootstrapServers(), topics, HANDLER);
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      long killedAt;
      try (JavaProcess a = SchedulerProcess.start(stack, topics, dir, "a", port, Map.of())) {
        SchedulerProcess.awaitUp(a, port);
        ScheduleDefinition d =
            ScheduleDefinition.builder().name(NAME).version(1).handler(HANDLER).every("1s").build();
        producer
            .send(new ProducerRecord<>(topics.tasks(), NAME, WireCodec.encode(d)))
            .get(10, TimeUnit.SECONDS);
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> assertThat(worker.received).as(a.logTail(30)).hasSizeGreaterThan(5));
        a.kill9();
        killedAt = System.currentTimeMillis();
      }
      // the outage lasts until the killed member's session (6 s) expired: longer than the 5 s
      // the misfire policy allows, so the fires it spans are misfires
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
        String group = topics.namespace() + "-scheduler";
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    admin
                        .describeConsumerGroups(List.of(group))
                        .all()
                        .get(10, TimeUnit.SECONDS)
                        .get(group)
                        .members()
                        .isEmpty());
      }
      assertThat(System.currentTimeMillis() - killedAt).isGreaterThan(5_000);
      try (JavaProcess b = SchedulerProcess.start(stack, topics, dir, "a", port, Map.of())) {
        SchedulerProcess.awaitUp(b, port);
        int before = worker.received.size();
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> assertThat(worker.received).as(b.logTail(30)).hasSizeGreaterThan(before + 8));

        TreeMap<Long, Set<String>> idsByFire = new TreeMap<>();
        for (Dispatch x : worker.received) {
          long fireAt = Long.parseLong(x.task().headers().get("tasklane.fire-time"));
          assertThat(x.task().dueAt()).isEqualTo(fireAt);
          assertThat(x.dispatchedAt())
              .as("dispatched before its fire instant")
              .isGreaterThanOrEqualTo(fireAt);
          assertThat(x.id())
              .as("derived from the fire, placed in the schedule's partition of 4")
              .isEqualTo(TaskIds.inPartitionOf(TaskIds.forScheduleFire(NAME, fireAt, -1), NAME, 4));
          idsByFire.computeIfAbsent(fireAt, k -> new TreeSet<>()).add(x.id());
        }
        assertThat(idsByFire.values()).allSatisfy(ids -> assertThat(ids).hasSize(1));
        // the fire instants made: one second apart but for one gap, the outage
        List<Long> fires = new ArrayList<>(idsByFire.keySet());
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < fires.size(); i++) {
          long step = fires.get(i) - fires.get(i - 1);
          if (step != 1_000) {
            gaps.add(fires.get(i - 1));
            gaps.add(fires.get(i));
          }
        }
        assertThat(gaps).as("fires made " + fires).hasSize(2);
        long lastBefore = gaps.get(0);
        long firstAfter = gaps.get(1);
        // at least one instant of the outage was skipped: found more than 5 s late (how many
        // depends on how long the restart took; every fire late by at most 5 s is made)
        assertThat(firstAfter - lastBefore).isGreaterThanOrEqualTo(2_000);
        // fires are made schedule-lead ahead: those made before the kill still run after it
        assertThat(lastBefore)
            .isLessThanOrEqualTo(killedAt + SchedulerConfig.DEFAULT_SCHEDULE_LEAD.toMillis());

        // the scheduler's history: the fire after the outage was made within 5 s of its instant;
        // an instant of the outage is there only as the policy's skip (when the timer that found
        // the missed fires was the first missed one: a fire made but not committed before the
        // kill makes the timer wait for that one, whose task already went out)
        JsonNode view =
            WireCodec.readTree(StackSupport.get(port, "/api/schedules/" + NAME, VIEWER).body());
        boolean afterSeen = false;
        for (JsonNode f : view.get("fires")) {
          long at = f.get("fireAt").asLong();
          if (at == firstAfter) {
            afterSeen = true;
            assertThat(f.get("latenessMs").asLong()).isBetween(0L, 5_000L);
          } else if (at > lastBefore && at < firstAfter) {
            assertThat(f.get("outcome").asText()).isEqualTo("MISFIRED");
            assertThat(f.get("reason").asText()).contains("FIRE_ONCE_IF_LATE_BY_AT_MOST(5s)");
          }
        }
        assertThat(afterSeen).as(view.toString()).isTrue();
      }
    }
  }
}
