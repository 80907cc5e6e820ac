package io.tasklane.scheduler.internal.ops;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * One record of {@code <ns>.audit}: who did what to which target with which outcome. Never holds a
 * payload or a token; every field is bounded and free of control characters ({@link #of}).
 *
 * @param at epoch millis of the action
 * @param actor the token's name ({@code ops-alice}), or {@code anonymous} for a refused sign-in
 * @param action what was asked: {@code cancel}, {@code retry-dead}, {@code trigger}, {@code
 *     session-sign-in}, {@code POST /api/...} for a refused request, ...
 * @param target what it acted on: {@code task/<id>}, {@code schedule/<name>}, {@code session}, a
 *     path
 * @param outcome {@code accepted}, {@code refused}, {@code forbidden} or {@code failed}
 * @param detail why, or the routing key; never a payload (may be null)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AuditEntry(
    long at, String actor, String action, String target, String outcome, String detail) {
  static final int MAX_FIELD = 200;
  static final int MAX_DETAIL = 500;

  /** An entry with every text cut to its bound and its control characters replaced by '?'. */
  static AuditEntry of(
      long at, String actor, String action, String target, String outcome, String detail) {
    return new AuditEntry(
        at,
        clean(actor, MAX_FIELD),
        clean(action, MAX_FIELD),
        clean(target, MAX_FIELD),
        clean(outcome, MAX_FIELD),
        clean(detail, MAX_DETAIL));
  }

  private static String clean(String s, int max) {
    if (s == null) {
      return null;
    }
    String cut = s.length() <= max ? s : s.substring(0, max) + "…";
    StringBuilder b = new StringBuilder(cut.length());
    cut.codePoints().forEach(c -> b.appendCodePoint(Character.isISOControl(c) ? '?' : c));
    return b.toString();
  }
}
