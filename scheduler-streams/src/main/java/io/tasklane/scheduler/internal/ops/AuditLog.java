package io.tasklane.scheduler.internal.ops;

import io.micronaut.context.annotation.Context;
import io.micronaut.core.annotation.Internal;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import java.time.Clock;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way an action of the HTTP API is recorded: a line on the logger {@code
 * io.tasklane.scheduler.audit} ({@code actor=ops-alice action=cancel target=task/<id> accepted
 * (routingKey=<key>)}) and an {@link AuditEntry} on {@code <ns>.audit}, keyed by the actor. The
 * record is sent without waiting for the broker, so an action never stalls on the audit; a record
 * the broker refuses is logged at WARN with the entry; the topic's metadata is fetched at start, so
 * a send does not wait for it. Never pass a payload or a token (a refused credential is recorded as
 * the client address and the reason). Thread-safe; called on Micronaut's event-loop and blocking
 * threads.
 */
@Context
@Internal
public final class AuditLog {
  private static final Logger AUDIT = LoggerFactory.getLogger("io.tasklane.scheduler.audit");

  /** Outcomes. */
  public static final String ACCEPTED = "accepted";

  public static final String REFUSED = "refused";
  public static final String FORBIDDEN = "forbidden";
  public static final String FAILED = "failed";

  /** The actor of a call that presented no valid credential. */
  public static final String ANONYMOUS = "anonymous";

  private final RecordSender sender;
  private final String topic;
  private final Clock clock;

  AuditLog(RecordSender sender, Topics topics) {
    this.sender = sender;
    this.topic = topics.audit();
    this.clock = Clock.systemUTC();
    try {
      sender.partitionsFor(topic); // metadata now, not on a request
    } catch (RuntimeException e) {
      AUDIT.warn("the audit topic {} is not available yet: {}", topic, e.toString());
    }
  }

  /**
   * Records one action.
   *
   * @param outcome {@link #ACCEPTED}, {@link #REFUSED}, {@link #FORBIDDEN} or {@link #FAILED}
   * @param detail why, or the routing key; null for none
   */
  public void record(String actor, String action, String target, String outcome, String detail) {
    AuditEntry e = AuditEntry.of(clock.millis(), actor, action, target, outcome, detail);
    String line = "actor={} action={} target={} {}" + (e.detail() == null ? "" : " ({})");
    Object[] args = {e.actor(), e.action(), e.target(), e.outcome(), e.detail()};
    if (FAILED.equals(e.outcome())) {
      AUDIT.warn(line, args);
    } else {
      AUDIT.info(line, args);
    }
    try {
      sender.send(
          new ProducerRecord<>(topic, String.valueOf(e.actor()), WireCodec.encode(e)),
          (meta, error) -> {
            if (error != null) {
              AUDIT.warn("could not write the audit record {}: {}", e, error.toString());
            }
          });
    } catch (RuntimeException ex) {
      AUDIT.warn("could not write the audit record {}: {}", e, ex.toString());
    }
  }
}
