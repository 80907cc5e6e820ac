package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Filter;
import io.micronaut.http.filter.HttpServerFilter;
import io.micronaut.http.filter.ServerFilterChain;
import org.reactivestreams.Publisher;

/**
 * Browser-hardening headers on every response, errors and refusals included (it runs before {@link
 * TokenFilter}): a Content-Security-Policy allowing only the console's own scripts and styles (no
 * inline script, no framing), {@code X-Content-Type-Options: nosniff}, {@code X-Frame-Options:
 * DENY}, {@code Referrer-Policy: no-referrer}, {@code Cross-Origin-Opener-Policy: same-origin}, a
 * {@code Permissions-Policy} denying camera, microphone and geolocation, and {@code Cache-Control:
 * no-store} on {@code /api/**}. Runs on the event loop.
 */
@Filter("/**")
@Internal
public final class SecurityHeaders implements HttpServerFilter {
  static final String CSP =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 100;
  }

  @Override
  public Publisher<MutableHttpResponse<?>> doFilter(
      HttpRequest<?> request, ServerFilterChain chain) {
    boolean api = request.getPath().startsWith("/api/") || request.getPath().equals("/api");
    return Publishers.map(
        chain.proceed(request),
        response -> {
          response.header("Content-Security-Policy", CSP);
          response.header("X-Content-Type-Options", "nosniff");
          response.header("X-Frame-Options", "DENY");
          response.header("Referrer-Policy", "no-referrer");
          response.header("Cross-Origin-Opener-Policy", "same-origin");
          response.header("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
          if (api) {
            response.header("Cache-Control", "no-store");
          }
          return response;
        });
  }
}
