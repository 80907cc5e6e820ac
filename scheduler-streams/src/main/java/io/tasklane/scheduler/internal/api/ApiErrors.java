package io.tasklane.scheduler.internal.api;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.tasklane.core.WireCodec;
import java.util.Map;

/**
 * The HTTP API's error answers: {@code {"error":"<code>","message":"<what, naming the field>"}}.
 */
final class ApiErrors {
  private ApiErrors() {}

  static <T> MutableHttpResponse<T> json(int status, String code, String message) {
    @SuppressWarnings("unchecked")
    MutableHttpResponse<T> r =
        (MutableHttpResponse<T>)
            HttpResponse.status(HttpStatus.valueOf(status))
                .contentType(MediaType.APPLICATION_JSON_TYPE)
                .body(WireCodec.encodeToString(Map.of("error", code, "message", message)));
    return r;
  }

  /** 400 {@code bad_request} with {@code message} naming the field and its limit. */
  static <T> MutableHttpResponse<T> badRequest(String message) {
    return json(400, "bad_request", message);
  }
}
