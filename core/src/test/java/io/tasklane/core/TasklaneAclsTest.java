package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.TasklaneAcls.Grant;
import io.tasklane.core.TasklaneAcls.Role;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.junit.jupiter.api.Test;

class TasklaneAclsTest {
  private final Topics topics = new Topics("shop");

  @Test
  void workerMayNeverWriteTasksControlOrHandlerTopics() {
    List<AclBinding> acls =
        TasklaneAcls.bindings(
            Role.WORKER, topics, "User:worker", new Grant("shop-worker", List.of("email"), false));
    assertThat(writes(acls))
        .containsExactlyInAnyOrder(
            "shop.results", "shop.logs", "shop.handler.email.dlt", "shop.workers");
  }

  @Test
  void workerReadsInterruptsAndHandlerSettingsAndSchedulerWritesThem() {
    List<AclBinding> worker =
        TasklaneAcls.bindings(
            Role.WORKER, topics, "User:worker", new Grant("shop-worker", List.of("email"), false));
    assertThat(worker)
        .anyMatch(b -> isRead(b, "shop.interrupts"))
        .anyMatch(b -> isRead(b, "shop.handler-settings"));
    assertThat(writes(scheduler(false)))
        .contains("shop.interrupts", "shop.handler-settings")
        .doesNotContain("shop.workers");
    assertThat(scheduler(false))
        .anyMatch(b -> isRead(b, "shop.workers"))
        .anyMatch(b -> isRead(b, "shop.logs"));
  }

  private static boolean isRead(AclBinding b, String topic) {
    return b.pattern().name().equals(topic)
        && b.entry().operation() == org.apache.kafka.common.acl.AclOperation.READ;
  }

  @Test
  void aWorkerWithRecurringSchedulesAlsoWritesTasksAndItsManifest() {
    List<AclBinding> acls =
        TasklaneAcls.bindings(
            Role.WORKER,
            topics,
            "User:worker",
            new Grant("shop-worker", List.of("email"), false, true));
    assertThat(writes(acls))
        .containsExactlyInAnyOrder(
            "shop.results",
            "shop.logs",
            "shop.handler.email.dlt",
            "shop.workers",
            "shop.tasks",
            "shop.recurring");
    assertThat(acls)
        .anyMatch(
            b ->
                b.pattern().name().equals("shop.recurring")
                    && b.entry().operation() == org.apache.kafka.common.acl.AclOperation.READ);
  }

  @Test
  void relayWritesOnlyItsOwnTopics() {
    List<AclBinding> acls =
        TasklaneAcls.bindings(Role.RELAY, topics, "User:relay", new Grant("r", List.of(), false));
    assertThat(writes(acls))
        .containsExactlyInAnyOrder(
            "shop.tasks", "shop.relay.dlt", "shop.relay.offsets", "shop.relay.history");
  }

  @Test
  void schedulerWritesItsDeadLetterTopicNamedByTopics() {
    assertThat(writes(scheduler(false)))
        .contains(topics.schedulerDlt(), topics.control())
        .doesNotContain(topics.results());
  }

  @Test
  void onlyTheSchedulerMayWriteTheDependencyProtocol() {
    Grant any = new Grant("shop-x", List.of("email"), true, true);
    assertThat(mayWrite(scheduler(false), topics.dependencies())).isTrue();
    assertThat(scheduler(false)).anyMatch(b -> isRead(b, topics.dependencies()));
    for (Role role : List.of(Role.OPERATOR, Role.WORKER, Role.RELAY)) {
      List<AclBinding> acls = TasklaneAcls.bindings(role, topics, "User:x", any);
      assertThat(mayWrite(acls, topics.dependencies())).as(role.name()).isFalse();
    }
    List<AclBinding> operator = TasklaneAcls.bindings(Role.OPERATOR, topics, "User:ops", any);
    assertThat(writes(operator)).containsExactly(topics.control());
  }

  /** Whether a WRITE binding (literal or prefixed) covers {@code topic}. */
  private static boolean mayWrite(List<AclBinding> acls, String topic) {
    return acls.stream()
        .filter(b -> b.entry().operation() == AclOperation.WRITE)
        .filter(b -> b.pattern().resourceType().name().equals("TOPIC"))
        .anyMatch(
            b ->
                b.pattern().patternType().name().equals("PREFIXED")
                    ? topic.startsWith(b.pattern().name())
                    : topic.equals(b.pattern().name()));
  }

  @Test
  void schedulerWritesAndReadsItsAuditTopic() {
    assertThat(writes(scheduler(false))).contains(topics.audit());
  }

  @Test
  void schedulerWritesTasksForTheFiresOfRecurringSchedules() {
    assertThat(writes(scheduler(false))).contains(topics.tasks());
  }

  @Test
  void transactionalIdsOnlyForExactlyOnce() {
    assertThat(scheduler(false))
        .noneMatch(b -> b.pattern().resourceType().name().equals("TRANSACTIONAL_ID"));
    assertThat(scheduler(true))
        .anyMatch(b -> b.pattern().resourceType().name().equals("TRANSACTIONAL_ID"));
  }

  @Test
  void toolRefusesAnUnknownRoleNamingTheChoices() {
    assertThatThrownBy(
            () -> AclTool.run(new String[] {"--role", "boss", "--principal", "User:x"}, System.out))
        .hasMessageContaining("relay, scheduler, worker or operator");
  }

  @Test
  void dryRunPrintsTheBindings() {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    AclTool.run(
        new String[] {"--role", "scheduler", "--principal", "User:s", "--dry-run"},
        new PrintStream(buffer, true, StandardCharsets.UTF_8));
    assertThat(buffer.toString(StandardCharsets.UTF_8)).contains("tasklane-scheduler", "User:s");
  }

  private List<AclBinding> scheduler(boolean eos) {
    return TasklaneAcls.bindings(
        Role.SCHEDULER, topics, "User:s", new Grant("shop-scheduler", List.of(), eos));
  }

  private static List<String> writes(List<AclBinding> acls) {
    return acls.stream()
        .filter(b -> b.entry().operation() == AclOperation.WRITE)
        .map(b -> b.pattern().name())
        .toList();
  }
}
