package io.tasklane.scheduler.internal.api;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;

/**
 * The HTTP API's error answers, each an {@link ErrorResponse}: {@code
 * {"error":"<code>","message":"<what, naming the field and its limit>"}}.
 */
final class ApiErrors {
  private ApiErrors() {}

  static <T> MutableHttpResponse<T> json(int status, String code, String message) {
    @SuppressWarnings("unchecked")
    MutableHttpResponse<T> r =
        (MutableHttpResponse<T>)
            HttpResponse.status(HttpStatus.valueOf(status))
                .contentType(MediaType.APPLICATION_JSON_TYPE)
                .body(new ErrorResponse(code, message).json());
    return r;
  }

  /** The error with the code {@link ErrorResponse#code} gives {@code status}. */
  static <T> MutableHttpResponse<T> json(int status, String message) {
    return json(status, ErrorResponse.code(status), message);
  }

  /** 400 {@code bad-request} with {@code message} naming the field and its limit. */
  static <T> MutableHttpResponse<T> badRequest(String message) {
    return json(400, "bad-request", message);
  }

  /** The error as the answer of a read ({@link StatusQuery.Answer}). */
  static StatusQuery.Answer answer(int status, String code, String message) {
    return new StatusQuery.Answer(status, new ErrorResponse(code, message).json());
  }
}
