package io.tasklane.scheduler.internal.api;

import io.tasklane.scheduler.RateLimit;
import io.tasklane.scheduler.internal.ops.RateLimitStore;
import java.util.List;

/**
 * {@code GET /api/limits}: every rate limit, configured or set at run time (schema {@code
 * RateLimits} in {@code openapi.yml}).
 *
 * @param limits the limits, named ones and handlers' own, by key
 */
public record RateLimitsResponse(List<Limit> limits) {

  /**
   * One rate limit (schema {@code RateLimit}).
   *
   * @param name the limit's name; for a handler's own rate, {@code handler/<name>}
   * @param handler the handler whose own rate this is, null for a named limit
   * @param rate the rate that applies now ({@code 50/s}), null when none (removed and never
   *     configured)
   * @param burst the burst that applies now, null with {@code rate}
   * @param source {@code api} (set at run time) or {@code configuration}; null with {@code rate}
   * @param configuredRate the scheduler's configured rate, null when none
   * @param configuredBurst the configured burst, null when none
   * @param updatedAt when it was set at run time, null when it was not
   * @param updatedAtIso the same in ISO-8601 UTC
   * @param updatedBy the API token that set it
   */
  public record Limit(
      String name,
      String handler,
      String rate,
      Integer burst,
      String source,
      String configuredRate,
      Integer configuredBurst,
      Long updatedAt,
      String updatedAtIso,
      String updatedBy) {

    static Limit of(RateLimitStore.View v) {
      RateLimit now = v.current();
      RateLimit conf = v.configured();
      long at = v.set() == null ? 0 : v.set().updatedAt();
      return new Limit(
          v.key(),
          v.handler(),
          now == null ? null : now.rate(),
          now == null ? null : now.burst(),
          now == null ? null : v.set() != null ? "api" : "configuration",
          conf == null ? null : conf.rate(),
          conf == null ? null : conf.burst(),
          HandlerResponse.time(at),
          HandlerResponse.iso(at),
          v.set() == null ? null : v.set().actor());
    }
  }
}
