package io.tasklane.scheduler.internal;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Filter;
import io.micronaut.http.filter.HttpServerFilter;
import io.micronaut.http.filter.ServerFilterChain;
import io.tasklane.scheduler.SchedulerConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import org.reactivestreams.Publisher;

/**
 * Bearer tokens on every endpoint but {@code /health}: a viewer token may read, an operator token
 * may also send commands (any method but GET and HEAD).
 */
@Filter("/**")
@Internal
public final class TokenFilter implements HttpServerFilter {
  private final Map<String, SchedulerConfig.Role> tokens;

  TokenFilter(SchedulerRuntime runtime) {
    this.tokens = runtime.config.apiTokens();
  }

  @Override
  public Publisher<MutableHttpResponse<?>> doFilter(
      HttpRequest<?> request, ServerFilterChain chain) {
    String path = request.getPath();
    if (path.equals("/health") || path.startsWith("/health/")) {
      return chain.proceed(request);
    }
    SchedulerConfig.Role role = roleOf(request.getHeaders().getAuthorization().orElse(null));
    if (role == null) {
      return Publishers.just(
          HttpResponse.status(HttpStatus.UNAUTHORIZED).header("WWW-Authenticate", "Bearer"));
    }
    boolean read = request.getMethod() == HttpMethod.GET || request.getMethod() == HttpMethod.HEAD;
    if (!read && role != SchedulerConfig.Role.OPERATOR) {
      return Publishers.just(HttpResponse.status(HttpStatus.FORBIDDEN));
    }
    return chain.proceed(request);
  }

  private SchedulerConfig.Role roleOf(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    byte[] given = authorization.substring(7).trim().getBytes(StandardCharsets.UTF_8);
    SchedulerConfig.Role found = null;
    for (Map.Entry<String, SchedulerConfig.Role> e : tokens.entrySet()) {
      if (MessageDigest.isEqual(given, e.getKey().getBytes(StandardCharsets.UTF_8))) {
        found = e.getValue();
      }
    }
    return found;
  }
}
