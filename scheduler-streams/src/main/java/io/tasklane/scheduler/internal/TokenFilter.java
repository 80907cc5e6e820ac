package io.tasklane.scheduler.internal;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Filter;
import io.micronaut.http.filter.HttpServerFilter;
import io.micronaut.http.filter.ServerFilterChain;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.SchedulerConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import org.reactivestreams.Publisher;

/**
 * Bearer tokens on every endpoint but {@code /health}: a viewer token may read, an operator token
 * may also send commands (any method but GET and HEAD). The matching token's name is the request's
 * actor ({@link #ACTOR} attribute). The inter-instance token is accepted only on a GET marked
 * {@code forwarded=true} (a status read another instance passes on).
 */
@Filter("/**")
@Internal
public final class TokenFilter implements HttpServerFilter {
  /** The request attribute holding the caller's token name. */
  static final String ACTOR = "tasklane.actor";

  private final List<ApiToken> tokens;
  private final byte[] interInstance;

  TokenFilter(SchedulerRuntime runtime) {
    this.tokens = runtime.config.apiTokens();
    this.interInstance = runtime.interInstanceToken.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public Publisher<MutableHttpResponse<?>> doFilter(
      HttpRequest<?> request, ServerFilterChain chain) {
    String path = request.getPath();
    if (path.equals("/health") || path.startsWith("/health/")) {
      return chain.proceed(request);
    }
    byte[] given = bearer(request.getHeaders().getAuthorization().orElse(null));
    boolean read = request.getMethod() == HttpMethod.GET || request.getMethod() == HttpMethod.HEAD;
    if (given != null
        && read
        && "true".equals(request.getParameters().get(InterInstance.FORWARDED))
        && MessageDigest.isEqual(given, interInstance)) {
      request.setAttribute(ACTOR, InterInstance.ACTOR);
      return chain.proceed(request);
    }
    ApiToken token = given == null ? null : match(given);
    if (token == null) {
      String message =
          given == null
              ? "send Authorization: Bearer <token>, a token of tasklane.scheduler.api.tokens"
                  + " (name:token:role)"
              : "the bearer token is not one of tasklane.scheduler.api.tokens; send"
                  + " Authorization: Bearer <token> with a configured token";
      return Publishers.just(
          error(HttpStatus.UNAUTHORIZED, "unauthorized", message)
              .header("WWW-Authenticate", "Bearer"));
    }
    if (!read && token.role() != SchedulerConfig.Role.OPERATOR) {
      return Publishers.just(
          error(
              HttpStatus.FORBIDDEN,
              "forbidden",
              request.getMethod()
                  + " "
                  + path
                  + " needs a token with role operator; token '"
                  + token.name()
                  + "' has role viewer (it may only read)"));
    }
    request.setAttribute(ACTOR, token.name());
    return chain.proceed(request);
  }

  /** A JSON error body: {@code {"error":"<code>","message":"<what is missing>"}}. */
  private static MutableHttpResponse<?> error(HttpStatus status, String code, String message) {
    return HttpResponse.status(status)
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .body(WireCodec.encodeToString(Map.of("error", code, "message", message)));
  }

  private static byte[] bearer(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    return authorization.substring(7).trim().getBytes(StandardCharsets.UTF_8);
  }

  /** The token equal to {@code given}, compared in constant time against every token. */
  private ApiToken match(byte[] given) {
    ApiToken found = null;
    for (ApiToken t : tokens) {
      if (MessageDigest.isEqual(given, t.token().getBytes(StandardCharsets.UTF_8))) {
        found = t;
      }
    }
    return found;
  }
}
