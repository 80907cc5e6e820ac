package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A rate limit set at run time through the scheduler's API, on the compacted {@code
 * <ns>.rate-limits} keyed by {@link #limit}; it takes the place of the scheduler's configured
 * {@code limits.<name>} or {@code handlers.<name>.rate} until a tombstone removes it. Written by
 * the scheduler's API, read by every scheduler instance, whose limit owners space the next slots by
 * it.
 *
 * @param v wire version
 * @param limit the limit's name, or {@link ControlCommand.RateAsk#HANDLER_LIMIT} and a handler's
 *     name for the handler's own rate
 * @param rate starts per period as the configuration writes it: {@code 50/s}, {@code 600/min},
 *     {@code 1000/h}
 * @param burst starts that may go together after an idle spell, at least 1
 * @param updatedAt epoch millis of the change
 * @param actor the name of the API token that made it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RateLimitSetting(
    @JsonProperty(required = true) int v,
    @JsonProperty(required = true) String limit,
    @JsonProperty(required = true) String rate,
    int burst,
    long updatedAt,
    String actor)
    implements Versioned {

  /** A setting of the current wire version. */
  public static RateLimitSetting of(String limit, String rate, int burst, long at, String actor) {
    return new RateLimitSetting(Wire.VERSION, limit, rate, burst, at, actor);
  }
}
