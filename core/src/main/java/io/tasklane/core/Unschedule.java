package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Delete recurring schedule {@code name}: its definition and its next-fire timer go; fires already
 * made into tasks are not touched. On {@code <ns>.tasks} keyed by {@code name}, {@code type} {@code
 * unschedule}. It applies when {@code version} is at least the stored definition's, and the name
 * then remembers the version, so a definition of a version up to it (a replay) does not bring the
 * schedule back: define it again with a higher version.
 *
 * @param v wire version
 * @param name the schedule
 * @param version the definition version this delete supersedes (≥ 0)
 * @param requestedAt epoch millis of the request
 */
public record Unschedule(
    @JsonProperty(required = true) int v, String name, long version, long requestedAt)
    implements TaskTopicRecord {

  public static Unschedule of(String name, long version, long requestedAt) {
    return new Unschedule(Wire.VERSION, name, version, requestedAt);
  }
}
