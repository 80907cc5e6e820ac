package io.tasklane.core;

import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static org.apache.kafka.common.resource.PatternType.LITERAL;
import static org.apache.kafka.common.resource.PatternType.PREFIXED;
import static org.apache.kafka.common.resource.ResourceType.GROUP;
import static org.apache.kafka.common.resource.ResourceType.TOPIC;
import static org.apache.kafka.common.resource.ResourceType.TRANSACTIONAL_ID;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The minimal Kafka ACLs of each Tasklane app principal on a broker with an authorizer (see
 * docs/security.md; {@code bin/kafka-acls-tasklane} applies them through {@link AclTool}). Every
 * binding is an ALLOW from any host; nothing is granted on the cluster (idempotent producers need
 * only WRITE on a topic since Kafka 3.0). Stateless; any thread.
 */
public final class TasklaneAcls {

  /** An app principal's job. */
  public enum Role {
    /** cdc-relay: writes tasks, its DLT, offsets and schema history. */
    RELAY,
    /**
     * scheduler-streams: reads tasks/control/results, dispatches to handler topics, writes the
     * fires of recurring schedules to tasks.
     */
    SCHEDULER,
    /**
     * worker-runtime: reads its handlers' topics, writes results, logs and its handlers' DLTs; with
     * {@code @Recurring} also writes schedule definitions to tasks.
     */
    WORKER,
    /**
     * an operator or CLI: reads every Tasklane topic, writes control (cancel, retry-dead, trigger,
     * discard); never the scheduler's dependency protocol ({@code <ns>.dependencies}).
     */
    OPERATOR
  }

  /**
   * What a principal needs beyond its role and namespace.
   *
   * @param name relay: its {@code name} (default {@code tasklane_relay_<database>}); scheduler: its
   *     {@code application-id} (default {@code <ns>-scheduler}); worker: its {@code group-id}
   *     (default {@code <ns>-worker}); operator: the prefix of its consumer groups
   * @param handlers worker: the handlers it runs (ignored for other roles)
   * @param exactlyOnce scheduler: {@code processing-guarantee=exactly_once_v2} (transactional ids)
   * @param recurring worker: it defines schedules in code ({@code @Recurring}), so it writes
   *     definitions to {@code <ns>.tasks} and its manifest to {@code <ns>.recurring}; off by
   *     default because WRITE on tasks lets the principal enqueue any task
   */
  public record Grant(String name, List<String> handlers, boolean exactlyOnce, boolean recurring) {

    /** A grant without {@code recurring}. */
    public Grant(String name, List<String> handlers, boolean exactlyOnce) {
      this(name, handlers, exactlyOnce, false);
    }

    public Grant {
      Objects.requireNonNull(name, "TasklaneAcls.Grant.name must not be null");
      handlers = List.copyOf(handlers == null ? List.of() : handlers);
      for (String h : handlers) {
        if (!HandlerNames.isValid(h)) {
          throw new IllegalArgumentException("TasklaneAcls.Grant.handlers: invalid handler " + h);
        }
      }
    }
  }

  private TasklaneAcls() {}

  /** The bindings of {@code principal} (e.g. {@code User:relay}) in {@code role}. */
  public static List<AclBinding> bindings(Role role, Topics topics, String principal, Grant grant) {
    if (principal == null || !principal.contains(":")) {
      throw new IllegalArgumentException("principal must look like User:<name>, got " + principal);
    }
    Builder b = new Builder(principal);
    String ns = topics.namespace();
    switch (role) {
      case RELAY -> {
        b.ensured(topics.tasks(), WRITE);
        b.ensured(topics.relayDlt(), WRITE);
        // Kafka Connect's offset store also creates and checks its topic (compaction).
        b.ensured(topics.relayOffsets(), READ, WRITE);
        b.ensured(topics.relayHistory(), READ, WRITE);
        b.group(grant.name() + "-schemahistory", LITERAL, READ);
        // The ends of tasks whose unique window ends with them: the relay frees the windows.
        b.ensured(topics.uniqueReleases(), READ);
        b.group(ns + ".relay-unique-releases", LITERAL, READ);
      }
      case SCHEDULER -> {
        String app = grant.name();
        // Writes tasks too: each fire of a recurring schedule is a task on tasks.
        b.ensured(topics.tasks(), READ, WRITE);
        b.ensured(topics.results(), READ);
        b.ensured(topics.control(), READ, WRITE);
        // The dependency protocol (await, dependency-done): the scheduler is its only writer.
        b.ensured(topics.dependencies(), READ, WRITE);
        b.ensured(topics.logs(), READ); // kept per task for GET /api/tasks/{id}/logs
        b.ensured(topics.schedulerDlt(), WRITE);
        // The API's audit trail: written per action, read (assigned, no group) by GET /api/audit.
        b.ensured(topics.audit(), READ, WRITE);
        // Operator API: interrupts of cancelled attempts, the workers registry, handler settings.
        b.ensured(topics.interrupts(), WRITE);
        b.ensured(topics.uniqueReleases(), WRITE); // ends of tasks whose unique window ends early
        b.ensured(topics.workers(), READ);
        b.ensured(topics.handlerSettings(), READ, WRITE);
        b.ensured(topics.rateLimits(), READ, WRITE); // rate limits set through the API
        // Dispatches to every handler topic and creates missing DLTs.
        b.add(TOPIC, ns + ".handler.", PREFIXED, WRITE, DESCRIBE, CREATE, DESCRIBE_CONFIGS);
        // Kafka Streams: its changelog/repartition topics and its consumer group.
        b.add(TOPIC, app + "-", PREFIXED, READ, WRITE, DESCRIBE, CREATE, DELETE, DESCRIBE_CONFIGS);
        b.group(app, LITERAL, READ);
        if (grant.exactlyOnce()) {
          b.add(TRANSACTIONAL_ID, app + "-", PREFIXED, WRITE, DESCRIBE);
        }
      }
      case WORKER -> {
        if (grant.handlers().isEmpty()) {
          throw new IllegalArgumentException("a WORKER grant needs its handlers");
        }
        b.ensured(topics.results(), WRITE);
        b.ensured(topics.logs(), WRITE);
        // Read without a group: interrupts from their end, handler settings from the beginning.
        b.ensured(topics.interrupts(), READ);
        b.ensured(topics.workers(), WRITE);
        b.ensured(topics.handlerSettings(), READ);
        for (String h : grant.handlers()) {
          b.ensured(topics.handler(h), READ);
          b.ensured(topics.handlerDlt(h), WRITE);
          b.group(grant.name() + "." + h, LITERAL, READ);
        }
        if (grant.recurring()) {
          // @Recurring: definitions keyed by name on tasks (DESCRIBE, implied by WRITE, lets the
          // worker check that tasks exists), and the app's manifest, read without a group.
          b.topic(topics.tasks(), WRITE);
          b.ensured(topics.recurring(), READ, WRITE);
        }
      }
      case OPERATOR -> {
        b.add(TOPIC, ns + ".", PREFIXED, READ, DESCRIBE);
        b.topic(topics.control(), WRITE);
        b.group(grant.name(), PREFIXED, READ);
      }
    }
    return b.bindings;
  }

  private static final class Builder {
    private final String principal;
    private final List<AclBinding> bindings = new ArrayList<>();

    Builder(String principal) {
      this.principal = principal;
    }

    void topic(String name, AclOperation... ops) {
      add(TOPIC, name, LITERAL, ops);
    }

    /**
     * A topic the app ensures at start (TopicAdmin): it creates it when missing and reads its
     * max.message.bytes when it exists, plus {@code ops}.
     */
    void ensured(String name, AclOperation... ops) {
      add(TOPIC, name, LITERAL, ops);
      add(TOPIC, name, LITERAL, DESCRIBE, CREATE, DESCRIBE_CONFIGS);
    }

    void group(String name, PatternType pattern, AclOperation... ops) {
      add(GROUP, name, pattern, ops);
    }

    void add(ResourceType type, String name, PatternType pattern, AclOperation... ops) {
      for (AclOperation op : ops) {
        bindings.add(
            new AclBinding(
                new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW)));
      }
    }
  }
}
