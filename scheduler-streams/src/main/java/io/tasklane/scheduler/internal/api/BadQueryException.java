package io.tasklane.scheduler.internal.api;

/**
 * A search, counts or bulk request with a parameter out of its limits: answered 400 {@code
 * {"error":"bad-request","message":...}}, the message naming the parameter and its limit; or, made
 * by {@link #forbidden}, a filter the caller may not use: 403 {@code {"error":"forbidden",...}}.
 */
final class BadQueryException extends IllegalArgumentException {
  /** The HTTP status of the answer: 400, or 403 for {@link #forbidden}. */
  final int status;

  /** The answer's {@code error} code. */
  final String code;

  BadQueryException(String field, String problem) {
    this(400, "bad-request", field, problem);
  }

  private BadQueryException(int status, String code, String field, String problem) {
    super(field + ": " + problem);
    this.status = status;
    this.code = code;
  }

  /** A filter the caller's role may not use (a payload field it cannot see): 403. */
  static BadQueryException forbidden(String field, String problem) {
    return new BadQueryException(403, "forbidden", field, problem);
  }
}
