package io.tasklane.scheduler.internal;

/**
 * A search, counts or bulk request with a parameter out of its limits: answered 400 {@code
 * {"error":"bad-request","message":...}}, the message naming the parameter and its limit.
 */
final class BadQueryException extends IllegalArgumentException {
  BadQueryException(String field, String problem) {
    super(field + ": " + problem);
  }
}
