package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * A task's optional settings, as one typed value: the {@code options} JSON column of an outbox row
 * and the {@code options} field of a {@link TaskEnvelope} (left out when {@link #isEmpty()}). An
 * unset option is {@code null} and means "not wanted", so an empty value changes nothing.
 * Immutable; build it with {@link #builder()}; safe to share between threads.
 *
 * <p><b>Evolution.</b> The JSON is read leniently: a field a reader does not know is ignored, and a
 * field the writer did not write is unset. So an older reader accepts options written by a newer
 * writer (it does not apply the options it does not know), and a newer reader accepts an older
 * writer's. Adding an option is adding a component (a new JSON field name) and its rule in {@link
 * #validate()}; it does not change {@link #VERSION}. A field's meaning never changes under the same
 * name. {@code v} is raised only for a change an older reader must not apply silently; {@link
 * #validate()} refuses a {@code v} above this reader's {@link #VERSION} (the relay dead-letters
 * such a row naming the version).
 *
 * @param v the format version; 0 (absent from the JSON) reads as {@link #VERSION}
 * @param waitTimeoutMs how long the task may wait, counted from its due time, for its first attempt
 *     to be dispatched before the scheduler raises a {@code wait-timeout} alert (the task keeps
 *     waiting; nothing is cancelled), {@link #MIN_WAIT_TIMEOUT_MS} to {@link #MAX_WAIT_TIMEOUT_MS};
 *     or null for no alert
 * @param concurrencyKey the task's key for per-key concurrency and fairness between keys: the
 *     scheduler runs at most the handler's {@code max-per-key} tasks of one key at once across
 *     every worker, and releases a saturated handler's waiting tasks in turn across their keys
 *     (docs/lanes.md); 1 to {@link TaskLimits#MAX_KEY_CHARS} characters without control characters,
 *     routed like an ordering key (every task of the key on one partition); or null
 * @param priority the task's priority, {@link #MIN_PRIORITY} (lowest) to {@link #MAX_PRIORITY}
 *     (highest): a saturated handler releases its waiting tasks highest priority first, aged so
 *     that none waits more than the scheduler's {@code priority-aging} longer than it would in
 *     arrival order (docs/priorities.md); or null for {@link #DEFAULT_PRIORITY}
 * @param uniqueUntil when the task's unique window ends early ({@link UniqueUntil#wireName()}):
 *     {@code success} when it succeeds, {@code end} when it ends in any way; or null for a window
 *     that lasts its whole length
 * @param rateLimit the name of the rate limit the task's starts count against, defined in the
 *     scheduler's configuration ({@code limits.<name>.rate}, docs/rate-limits.md): the scheduler
 *     starts at most the limit's rate of the tasks that name it, across every instance and
 *     partition; or null for the handler's own rate, if it has one
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record TaskOptions(
    int v,
    Long waitTimeoutMs,
    String concurrencyKey,
    Integer priority,
    String uniqueUntil,
    String rateLimit) {
  /** The format version this reader and writer speak. */
  public static final int VERSION = 1;

  /** The shortest wait timeout: 1 s. */
  public static final long MIN_WAIT_TIMEOUT_MS = Duration.ofSeconds(1).toMillis();

  /** The longest wait timeout: 7 days. */
  public static final long MAX_WAIT_TIMEOUT_MS = Duration.ofDays(7).toMillis();

  /** The lowest priority. */
  public static final int MIN_PRIORITY = 0;

  /** The highest priority. */
  public static final int MAX_PRIORITY = 9;

  /** The priority of a task that sets none. */
  public static final int DEFAULT_PRIORITY = 5;

  private static final TaskOptions NONE = new TaskOptions(VERSION, null, null, null, null, null);

  /**
   * The rules, one per component: each names its field (as {@link InvalidTaskException#field()})
   * and says what is wrong with a set value, or null when it is fine. Unset options are not
   * checked.
   */
  private static final List<Rule<?>> RULES =
      List.of(
          new Rule<>(
              "waitTimeout",
              TaskOptions::waitTimeoutMs,
              ms ->
                  ms >= MIN_WAIT_TIMEOUT_MS && ms <= MAX_WAIT_TIMEOUT_MS
                      ? null
                      : ms
                          + " ms is outside 1 s to 7 d ("
                          + MIN_WAIT_TIMEOUT_MS
                          + " to "
                          + MAX_WAIT_TIMEOUT_MS
                          + " ms)"),
          new Rule<>("concurrencyKey", TaskOptions::concurrencyKey, TaskOptions::laneKeyProblem),
          new Rule<>("priority", TaskOptions::priority, TaskOptions::priorityProblem),
          new Rule<>("uniqueUntil", TaskOptions::uniqueUntil, UniqueUntil::problem),
          new Rule<>("rateLimit", TaskOptions::rateLimit, TaskOptions::limitNameProblem));

  /**
   * What is wrong with {@code name} as the name of a rate limit, or null: the rule of handler names
   * ({@link HandlerNames#PATTERN}).
   */
  public static String limitNameProblem(String name) {
    return HandlerNames.isValid(name)
        ? null
        : "'"
            + LogText.escape(name, 120)
            + "' must match "
            + HandlerNames.PATTERN.pattern()
            + " (1 to 100 characters)";
  }

  /**
   * What is wrong with {@code p} as a priority, or null: {@value #MIN_PRIORITY} to {@value
   * #MAX_PRIORITY}.
   */
  public static String priorityProblem(Integer p) {
    return p >= MIN_PRIORITY && p <= MAX_PRIORITY
        ? null
        : "must be " + MIN_PRIORITY + " to " + MAX_PRIORITY + " (is " + p + ")";
  }

  /**
   * What is wrong with {@code key} as a lane key (an ordering or concurrency key), or null: 1 to
   * {@link TaskLimits#MAX_KEY_CHARS} characters, no control character.
   */
  public static String laneKeyProblem(String key) {
    if (key.isEmpty() || key.length() > TaskLimits.MAX_KEY_CHARS) {
      return "must be 1 to " + TaskLimits.MAX_KEY_CHARS + " characters (is " + key.length() + ")";
    }
    for (int i = 0; i < key.length(); i++) {
      if (Character.isISOControl(key.charAt(i))) {
        return "must not hold a control character (at index " + i + ")";
      }
    }
    return null;
  }

  public TaskOptions {
    v = v == 0 ? VERSION : v;
  }

  /** No option set. */
  public static TaskOptions none() {
    return NONE;
  }

  /** A builder with no option set. */
  public static Builder builder() {
    return new Builder(NONE);
  }

  /** A builder holding these options. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Whether no option is set (the version aside): such options are not written anywhere. */
  @JsonIgnore
  public boolean isEmpty() {
    return equals(NONE);
  }

  /** {@link #priority()}, or {@link #DEFAULT_PRIORITY} when unset. */
  @JsonIgnore
  public int priorityOrDefault() {
    return priority == null ? DEFAULT_PRIORITY : priority;
  }

  /** {@link #uniqueUntil()} as a value, or null when unset or unknown to this reader. */
  @JsonIgnore
  public UniqueUntil uniqueUntilOrNull() {
    return uniqueUntil == null ? null : UniqueUntil.ofWireName(uniqueUntil);
  }

  /** {@link #waitTimeoutMs()}, or -1 when unset. */
  @JsonIgnore
  public long waitTimeoutMsOrNone() {
    return waitTimeoutMs == null ? -1 : waitTimeoutMs;
  }

  /**
   * Checks every set option against its rule, and the version.
   *
   * @return these options
   * @throws InvalidTaskException naming the option and its limits
   */
  public TaskOptions validate() {
    if (v < 0 || v > VERSION) {
      throw new InvalidTaskException(
          "options",
          "version "
              + v
              + " is not one this reader knows (1 to "
              + VERSION
              + "): written by a newer Tasklane?");
    }
    for (Rule<?> rule : RULES) {
      rule.check(this);
    }
    return this;
  }

  /** One option's rule: its field name, its value, and what is wrong with a set value. */
  private record Rule<T>(
      String field, Function<TaskOptions, T> value, Function<T, String> problem) {
    void check(TaskOptions o) {
      T set = value.apply(o);
      String wrong = set == null ? null : problem.apply(set);
      if (wrong != null) {
        throw new InvalidTaskException(field, wrong);
      }
    }
  }

  /** Mutable, single-threaded builder of {@link TaskOptions}; nothing is checked when building. */
  public static final class Builder {
    private Long waitTimeoutMs;
    private String concurrencyKey;
    private Integer priority;
    private String uniqueUntil;
    private String rateLimit;

    private Builder(TaskOptions o) {
      waitTimeoutMs = o.waitTimeoutMs;
      concurrencyKey = o.concurrencyKey;
      priority = o.priority;
      uniqueUntil = o.uniqueUntil;
      rateLimit = o.rateLimit;
    }

    /**
     * The rate limit the task's starts count against (checked by {@link TaskOptions#validate()});
     * null unsets it.
     */
    public Builder rateLimit(String name) {
      rateLimit = name;
      return this;
    }

    /**
     * When the task's unique window ends early (the outbox library's {@code unique(window,
     * until)}); null unsets it (the window lasts its whole length).
     */
    public Builder uniqueUntil(UniqueUntil value) {
      uniqueUntil = value == null ? null : value.wireName();
      return this;
    }

    /**
     * The task's priority, 0 (lowest) to 9 (highest; checked by {@link TaskOptions#validate()});
     * null, or {@value TaskOptions#DEFAULT_PRIORITY}, unsets it.
     */
    public Builder priority(Integer value) {
      priority = value != null && value == DEFAULT_PRIORITY ? null : value;
      return this;
    }

    /**
     * The task's concurrency key (checked by {@link TaskOptions#validate()}); null unsets it. The
     * handler's {@code max-per-key} limits how many tasks of one key run at once; a saturated
     * handler releases waiting tasks in turn across keys.
     */
    public Builder concurrencyKey(String value) {
      concurrencyKey = value;
      return this;
    }

    /**
     * Raise a {@code wait-timeout} alert when no attempt was dispatched within {@code value} of the
     * task's due time (1 s to 7 d, checked by {@link TaskOptions#validate()}); null unsets it.
     */
    public Builder waitTimeout(Duration value) {
      if (value == null) {
        waitTimeoutMs = null;
        return this;
      }
      try {
        waitTimeoutMs = value.toMillis();
      } catch (ArithmeticException e) {
        waitTimeoutMs = value.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
      }
      return this;
    }

    /** As {@link #waitTimeout(Duration)}, in milliseconds; null unsets it. */
    public Builder waitTimeoutMs(Long value) {
      waitTimeoutMs = value;
      return this;
    }

    public TaskOptions build() {
      TaskOptions o =
          new TaskOptions(VERSION, waitTimeoutMs, concurrencyKey, priority, uniqueUntil, rateLimit);
      return o.equals(NONE) ? NONE : o;
    }
  }
}
