package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The control commands besides cancel. Each is keyed by the routing key of {@code id}. The operator
 * commands carry an optional {@code actor}: who sent them (the API token's name), absent from the
 * JSON when null, so records without it read and write as before.
 */
public final class ControlCommand {
  private ControlCommand() {}

  /** DEAD → PENDING with a fresh attempt budget. */
  public record RetryDead(
      @JsonProperty(required = true) int v,
      String id,
      long requestedAt,
      @JsonInclude(JsonInclude.Include.NON_NULL) String actor)
      implements ControlRecord {
    public static RetryDead of(String id, long requestedAt) {
      return of(id, requestedAt, null);
    }

    /** As {@link #of(String, long)}, naming who sent it ({@code actor}, may be null). */
    public static RetryDead of(String id, long requestedAt, String actor) {
      return new RetryDead(Wire.VERSION, id, requestedAt, actor);
    }
  }

  /** Run a PENDING, RETRYING or NO_HANDLER task now instead of at its due time. */
  public record Trigger(
      @JsonProperty(required = true) int v,
      String id,
      long requestedAt,
      @JsonInclude(JsonInclude.Include.NON_NULL) String actor)
      implements ControlRecord {
    public static Trigger of(String id, long requestedAt) {
      return of(id, requestedAt, null);
    }

    /** As {@link #of(String, long)}, naming who sent it ({@code actor}, may be null). */
    public static Trigger of(String id, long requestedAt, String actor) {
      return new Trigger(Wire.VERSION, id, requestedAt, actor);
    }
  }

  /** Forget a DEAD task (it is purged instead of waiting for the retention window). */
  public record Discard(
      @JsonProperty(required = true) int v,
      String id,
      long requestedAt,
      @JsonInclude(JsonInclude.Include.NON_NULL) String actor)
      implements ControlRecord {
    public static Discard of(String id, long requestedAt) {
      return of(id, requestedAt, null);
    }

    /** As {@link #of(String, long)}, naming who sent it ({@code actor}, may be null). */
    public static Discard of(String id, long requestedAt, String actor) {
      return new Discard(Wire.VERSION, id, requestedAt, actor);
    }
  }

  /**
   * Dependency protocol, first leg: task {@code waiterId} waits for task {@code id}. Keyed by
   * {@code id} so it reaches the partition that owns the dependency.
   *
   * <p>The same record is the cycle-detection probe: {@code path} holds the ids of the tasks that
   * transitively wait on {@code waiterId} (outermost first). It is empty for the await a task sends
   * when it is admitted and is omitted from JSON then, so the record reads and writes as before.
   *
   * @param path at most {@link #MAX_PROBE_PATH} ids; null is read as empty
   */
  public record Await(
      @JsonProperty(required = true) int v,
      String id,
      String waiterId,
      String waiterRoutingKey,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> path)
      implements ControlRecord {
    /** The longest probe path; a cycle with more members than this is not detected. */
    public static final int MAX_PROBE_PATH = 64;

    public Await {
      path = path == null ? List.of() : List.copyOf(path);
      if (path.size() > MAX_PROBE_PATH) {
        throw new WireFormatException(
            "await path has " + path.size() + " ids; the limit is " + MAX_PROBE_PATH);
      }
    }

    /** The await a task sends for one of its dependencies when it is admitted. */
    public static Await of(String dependencyId, String waiterId, String waiterRoutingKey) {
      return new Await(Wire.VERSION, dependencyId, waiterId, waiterRoutingKey, List.of());
    }

    /**
     * A forwarded probe: {@code waiterId} (itself waiting) passes on an await it received; {@code
     * path} is the received path plus the received await's waiter.
     */
    public static Await probe(
        String dependencyId, String waiterId, String waiterRoutingKey, List<String> path) {
      return new Await(Wire.VERSION, dependencyId, waiterId, waiterRoutingKey, path);
    }
  }

  /**
   * Dependency protocol, answer: dependency {@code dependencyId} reached terminal {@code state}.
   * Keyed by the waiter's routing key; {@code id} is the waiter.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record DependencyDone(
      @JsonProperty(required = true) int v,
      String id,
      String dependencyId,
      TaskState state,
      String reason)
      implements ControlRecord {
    public static DependencyDone of(
        String waiterId, String dependencyId, TaskState state, String reason) {
      return new DependencyDone(Wire.VERSION, waiterId, dependencyId, state, reason);
    }
  }

  /**
   * Rate-limit protocol, first leg: task {@code id} asks the owner of rate limit {@code limit} for
   * a start slot. Keyed by {@link #key(String)} of the limit, so that every ask of one limit
   * reaches the same partition, whose stream task alone grants that limit's slots. Written and read
   * by the scheduler only, on {@code <ns>.dependencies}.
   *
   * @param id the asking task
   * @param routingKey the asking task's routing key: the answer's key
   * @param limit the limit's key: a limit's name, or {@link #HANDLER_LIMIT} and a handler's name
   * @param ask the asking task's token for this ask (its timer's time): the answer echoes it, and a
   *     task takes only the answer to its current ask
   * @param turn 0 for a first ask; the time the owner named in its last answer for an ask that
   *     comes back when told to, or the slot of a grant that came too late (it goes before the asks
   *     that did not wait)
   * @param late how many milliseconds after its slot the task's last grant arrived (0: not late):
   *     the owner then grants its slots that much further ahead
   */
  public record RateAsk(
      @JsonProperty(required = true) int v,
      String id,
      String routingKey,
      String limit,
      long ask,
      long turn,
      long late)
      implements ControlRecord {
    /** How the key of a handler's own limit starts: {@code handler/} and the handler's name. */
    public static final String HANDLER_LIMIT = "handler/";

    public static RateAsk of(
        String id, String routingKey, String limit, long ask, long turn, long late) {
      return new RateAsk(Wire.VERSION, id, routingKey, limit, ask, turn, late);
    }

    /** The record key of every ask of {@code limit}. */
    public static String key(String limit) {
      return "limit:" + limit;
    }

    /** Whether {@code limit} is a limit's key: a limit name, or a handler's limit. */
    public static boolean isLimitKey(String limit) {
      if (limit != null && limit.startsWith(HANDLER_LIMIT)) {
        return HandlerNames.isValid(limit.substring(HANDLER_LIMIT.length()));
      }
      return HandlerNames.isValid(limit);
    }
  }

  /**
   * Rate-limit protocol, answer to a {@link RateAsk}: a start slot ({@code slot} above 0, epoch
   * millis: the task starts then and not before) or, when the limit has no slot within the owner's
   * horizon, the time to ask again ({@code retryAt}). Keyed by the task's routing key.
   */
  public record RateAnswer(
      @JsonProperty(required = true) int v,
      String id,
      String limit,
      long ask,
      long slot,
      long retryAt)
      implements ControlRecord {
    public static RateAnswer granted(String id, String limit, long ask, long slot) {
      return new RateAnswer(Wire.VERSION, id, limit, ask, slot, 0);
    }

    public static RateAnswer later(String id, String limit, long ask, long retryAt) {
      return new RateAnswer(Wire.VERSION, id, limit, ask, 0, retryAt);
    }

    /** Whether a slot was granted. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean granted() {
      return slot > 0;
    }
  }
}
