package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tasklane.scheduler.SchedulerConfig.Role;
import java.time.Instant;

/**
 * {@code GET/POST /api/session}: who the session is (schema {@code Session} in {@code
 * openapi.yml}).
 *
 * @param name the token's name
 * @param role its role ({@code viewer}, {@code operator}, {@code admin}), null when none
 * @param csrf the token a cookie write must send in {@code X-CSRF-Token}, null for a bearer caller
 * @param expiresAt when the session ends, absent for a bearer caller
 * @param expiresAtIso the same instant in ISO-8601 UTC
 */
public record SessionResponse(
    String name,
    String role,
    String csrf,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long expiresAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) String expiresAtIso) {

  /** The answer for {@code name} of {@code role}; {@code until} 0 or less: no end. */
  static SessionResponse of(String name, Role role, String csrf, long until) {
    return new SessionResponse(
        name,
        role == null ? null : role.label(),
        csrf,
        until > 0 ? until : null,
        until > 0 ? Instant.ofEpochMilli(until).toString() : null);
  }
}
