package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /api/openapi.yml} (viewer): the hand-written OpenAPI 3 document of every endpoint
 * ({@link #RESOURCE}), with each operation's least role ({@code x-tasklane-role}, as {@link
 * ApiRoles} decides it). A test fails when a route of the app is missing from it. Read once at
 * start; answered on the event loop.
 */
@Controller("/api/openapi.yml")
@Internal
public class OpenApiController {
  /** The document on the classpath. */
  static final String RESOURCE = "/io/tasklane/scheduler/openapi.yml";

  static final String MEDIA_TYPE = "application/yaml";

  private final String document;

  OpenApiController() {
    this.document = read();
  }

  @Get(produces = MEDIA_TYPE)
  HttpResponse<String> get() {
    return HttpResponse.ok(document).contentType(MEDIA_TYPE + "; charset=utf-8");
  }

  static String read() {
    try (InputStream in = OpenApiController.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
