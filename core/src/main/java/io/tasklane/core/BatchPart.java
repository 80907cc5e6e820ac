package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Members added to batch {@code batch}, or the batch sealed with its callbacks: written by the
 * outbox in the application's transaction (one {@code BATCH_PART} row), published by the relay to
 * {@code <ns>.tasks} keyed by {@link #key(String)}, {@code type} {@code batch-part}, so that every
 * part of a batch reaches the one partition that keeps its counts, in the order the transactions
 * committed. The members themselves are ordinary tasks carrying the task header {@link
 * ReservedHeaders#BATCH}. Immutable and thread-safe.
 *
 * @param v wire version
 * @param batch the batch's id ({@link #ID})
 * @param part this part's id: a part published twice (a relay restart) counts once
 * @param members the ids of the tasks this part adds (at most {@link #MAX_MEMBERS})
 * @param seal true when this part seals the batch: no member may be added after it
 * @param onSuccess the task to create once when every member SUCCEEDED, or null
 * @param onComplete the task to create once when every member is terminal, or null
 * @param createdAt epoch millis of the request
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchPart(
    @JsonProperty(required = true) int v,
    String batch,
    String part,
    List<String> members,
    boolean seal,
    TaskEnvelope onSuccess,
    TaskEnvelope onComplete,
    long createdAt)
    implements TaskTopicRecord {

  /**
   * What a batch id may be: 1–128 letters, digits, {@code . _ : -}, starting with one of the first
   * two.
   */
  public static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

  /** Most members one part carries; the outbox splits a larger {@code enqueueAll} into parts. */
  public static final int MAX_MEMBERS = 5_000;

  public BatchPart {
    members = members == null ? List.of() : List.copyOf(members);
  }

  /** A part adding {@code members}. */
  public static BatchPart members(String batch, String part, List<String> members, long now) {
    return new BatchPart(Wire.VERSION, batch, part, members, false, null, null, now);
  }

  /** The part sealing {@code batch} with its callbacks (either may be null). */
  public static BatchPart seal(
      String batch, String part, TaskEnvelope onSuccess, TaskEnvelope onComplete, long now) {
    return new BatchPart(Wire.VERSION, batch, part, List.of(), true, onSuccess, onComplete, now);
  }

  /** The key of batch {@code batch}'s records on {@code <ns>.tasks}: {@code batch:<id>}. */
  public static String key(String batch) {
    return "batch:" + batch;
  }

  /**
   * Checks a batch id.
   *
   * @throws InvalidTaskException naming {@code batch} and the rule
   */
  public static String checkId(String batch) {
    if (batch == null || !ID.matcher(batch).matches()) {
      throw new InvalidTaskException(
          "batch",
          "'"
              + LogText.escape(String.valueOf(batch), 200)
              + "' is not a batch id: 1-128 characters of "
              + ID.pattern());
    }
    return batch;
  }

  /**
   * Checks this part: its id, its part id, its members (task ids, at most {@link #MAX_MEMBERS}) and
   * that only a seal carries callbacks.
   *
   * @throws InvalidTaskException naming the field and the limit
   */
  public BatchPart validate() {
    checkId(batch);
    TaskIds.check("part", part);
    if (members.size() > MAX_MEMBERS) {
      throw new InvalidTaskException(
          "members", "has " + members.size() + " task ids; the limit is " + MAX_MEMBERS);
    }
    for (String m : members) {
      TaskIds.check("members", m);
    }
    if (!seal && (onSuccess != null || onComplete != null)) {
      throw new InvalidTaskException("onSuccess", "callbacks are given when the batch is sealed");
    }
    checkCallback("onSuccess", onSuccess);
    checkCallback("onComplete", onComplete);
    return this;
  }

  /**
   * Headers a callback template may have: the callback task gets {@link
   * ReservedHeaders#BATCH_CALLBACK}, {@link ReservedHeaders#BATCH_EVENT} and {@link
   * ReservedHeaders#BATCH_COUNTS} on top.
   */
  public static final int MAX_CALLBACK_HEADERS = TaskLimits.MAX_HEADERS - 3;

  private static void checkCallback(String field, TaskEnvelope template) {
    if (template != null && template.headers().size() > MAX_CALLBACK_HEADERS) {
      throw new InvalidTaskException(
          field,
          "has "
              + template.headers().size()
              + " headers; the limit for a batch callback is "
              + MAX_CALLBACK_HEADERS
              + " (the callback gets 3 of its own)");
    }
  }
}
