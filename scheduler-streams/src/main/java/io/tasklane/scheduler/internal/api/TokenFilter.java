package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.http.HttpAttributes;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Filter;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.filter.HttpServerFilter;
import io.micronaut.http.filter.ServerFilterChain;
import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.internal.ops.AuditLog;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.Principal;
import java.util.List;
import org.reactivestreams.Publisher;

/**
 * Authenticates every request but {@code /health} (status for everyone, details for a caller with a
 * token or session: {@link #health}), {@code POST /api/session} (the sign-in, which checks the
 * token in its body) and the web console's static assets ({@link #consoleAsset}), then lets it
 * through only when the caller's role covers the role {@link ApiRoles} asks for the method and
 * path. A caller is a bearer token ({@code Authorization: Bearer <token>}, wins when present) or a
 * browser session cookie ({@link Sessions}); a cookie-authenticated request other than GET and HEAD
 * must also send {@code X-CSRF-Token} equal to its session's, else 403 {@code csrf}. The token's
 * name is the request's actor ({@link #ACTOR}), its role {@link #ROLE}. The inter-instance token is
 * accepted only on a GET or HEAD marked {@code forwarded=true} of a path instances forward to each
 * other ({@link InterInstance#forwardable}); it acts as an admin read of that path only. A refused
 * write (403) is audited. Runs on the event loop; never blocks.
 */
@Filter("/**")
@Internal
public final class TokenFilter implements HttpServerFilter {
  /** The request attribute holding the caller's token name. */
  static final String ACTOR = "tasklane.actor";

  /** The request attribute holding the caller's {@link Role}. */
  static final String ROLE = "tasklane.role";

  /** The header a cookie-authenticated write carries: its session's CSRF token. */
  static final String CSRF_HEADER = "X-CSRF-Token";

  private final List<ApiToken> tokens;
  private final byte[] interInstance;
  private final Sessions sessions;
  private final AuditLog audit;
  private final AuthFailures failures;

  TokenFilter(
      SchedulerConfig config,
      InterInstanceClient interInstanceClient,
      Sessions sessions,
      AuditLog audit,
      AuthFailures failures) {
    this.tokens = config.apiTokens();
    this.interInstance = interInstanceClient.token().getBytes(StandardCharsets.UTF_8);
    this.sessions = sessions;
    this.audit = audit;
    this.failures = failures;
  }

  @Override
  public Publisher<MutableHttpResponse<?>> doFilter(
      HttpRequest<?> request, ServerFilterChain chain) {
    String path = request.getPath();
    HttpMethod method = request.getMethod();
    if (path.equals("/health") || path.startsWith("/health/")) {
      return health(request, chain, method + " " + path, path);
    }
    if (consoleAsset(method, path)) {
      return chain.proceed(request); // static files of the web console: no data, no token
    }
    if (method == HttpMethod.POST && path.equals(SessionController.PATH)) {
      return chain.proceed(request); // the sign-in checks the token of its body
    }
    Role needed;
    try {
      needed = ApiRoles.required(method, path);
    } catch (IllegalArgumentException e) {
      return Publishers.just(ApiErrors.badRequest(e.getMessage()));
    }
    boolean read = method == HttpMethod.GET || method == HttpMethod.HEAD;
    byte[] given = bearer(request.getHeaders().getAuthorization().orElse(null));
    String client = given == null ? null : AuthFailures.client(request);
    if (given != null) {
      AuthFailures.Block block = failures.blocked(client);
      if (block != null) {
        return Publishers.just(tooManyFailures(audit, block, client, method + " " + path, path));
      }
    }
    if (given != null && read && InterInstance.forwardedRead(request, path, given, interInstance)) {
      return proceed(request, chain, InterInstance.ACTOR, Role.ADMIN);
    }
    String name;
    Role role;
    String kind;
    if (given != null) {
      ApiToken token = match(tokens, given);
      if (token == null) {
        failures.failed(client);
        audit.record(
            AuditLog.ANONYMOUS,
            method + " " + path,
            path,
            AuditLog.REFUSED,
            "client " + client + ": a bearer token that is not one of the api tokens");
        return Publishers.just(
            unauthorized(
                "the bearer token is not one of tasklane.scheduler.api.tokens; send"
                    + " Authorization: Bearer <token> with a configured token"));
      }
      name = token.name();
      role = token.role();
      kind = "token";
    } else {
      String id =
          request.getCookies().findCookie(Sessions.COOKIE).map(Cookie::getValue).orElse(null);
      if (id == null) {
        return Publishers.just(
            unauthorized(
                "send Authorization: Bearer <token>, a token of tasklane.scheduler.api.tokens"
                    + " (name:token:role)"));
      }
      Sessions.Session s = sessions.find(id);
      if (s == null) {
        return Publishers.just(
            unauthorized(
                "the session has expired or was signed out; sign in again with POST "
                    + SessionController.PATH
                    + " or send Authorization: Bearer <token>"));
      }
      if (!read && !Sessions.csrfMatches(s, request.getHeaders().get(CSRF_HEADER))) {
        audit.record(s.name(), method + " " + path, path, AuditLog.FORBIDDEN, "no CSRF token");
        return Publishers.just(
            ApiErrors.json(
                403,
                "csrf",
                method
                    + " "
                    + path
                    + " with a session cookie needs header "
                    + CSRF_HEADER
                    + " equal to the csrf value of POST or GET "
                    + SessionController.PATH));
      }
      name = s.name();
      role = s.role();
      kind = "session";
    }
    if (!role.includes(needed)) {
      if (!read) {
        audit.record(name, method + " " + path, path, AuditLog.FORBIDDEN, "role " + role.label());
      }
      return Publishers.just(
          ApiErrors.json(
              403,
              "forbidden",
              method
                  + " "
                  + path
                  + " needs a token with role "
                  + needed.label()
                  + "; "
                  + kind
                  + " '"
                  + name
                  + "' has role "
                  + role.label()
                  + (role == Role.VIEWER ? " (it may only read)" : "")));
    }
    return proceed(request, chain, name, role);
  }

  /**
   * Whether the request reads a static asset of the web console ({@link ConsoleController}): GET or
   * HEAD of {@code /}, {@code /console} or {@code /console/...} spelled without {@code ..}, {@code
   * %} or {@code //}, so no other route can hide behind the prefix.
   */
  static boolean consoleAsset(HttpMethod method, String path) {
    if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
      return false;
    }
    if (path.contains("..") || path.contains("%") || path.contains("//")) {
      return false;
    }
    return path.equals("/") || path.equals("/console") || path.startsWith("/console/");
  }

  /**
   * {@code /health} answers everyone with its status; its details (topics, Kafka state, errors) go
   * only to a caller with a valid token or session of any role ({@code
   * endpoints.health.details-visible: AUTHENTICATED}), who is made the request's principal here. A
   * bearer token that is not one of the api tokens is refused (401) and counted like any other.
   */
  private Publisher<MutableHttpResponse<?>> health(
      HttpRequest<?> request, ServerFilterChain chain, String action, String path) {
    byte[] given = bearer(request.getHeaders().getAuthorization().orElse(null));
    String name = null;
    if (given != null) {
      String client = AuthFailures.client(request);
      AuthFailures.Block block = failures.blocked(client);
      if (block != null) {
        return Publishers.just(tooManyFailures(audit, block, client, action, path));
      }
      ApiToken token = match(tokens, given);
      if (token == null) {
        failures.failed(client);
        audit.record(
            AuditLog.ANONYMOUS,
            action,
            path,
            AuditLog.REFUSED,
            "client " + client + ": a bearer token that is not one of the api tokens");
        return Publishers.just(
            unauthorized(
                "the bearer token is not one of tasklane.scheduler.api.tokens; send none for the"
                    + " status only, or a configured token for the details"));
      }
      name = token.name();
    } else {
      String id =
          request.getCookies().findCookie(Sessions.COOKIE).map(Cookie::getValue).orElse(null);
      Sessions.Session s = id == null ? null : sessions.find(id);
      name = s == null ? null : s.name();
    }
    if (name != null) {
      String caller = name;
      request.setAttribute(HttpAttributes.PRINCIPAL, (Principal) () -> caller);
    }
    return chain.proceed(request);
  }

  private static Publisher<MutableHttpResponse<?>> proceed(
      HttpRequest<?> request, ServerFilterChain chain, String actor, Role role) {
    request.setAttribute(ACTOR, actor);
    request.setAttribute(ROLE, role);
    return chain.proceed(request);
  }

  /**
   * 429 with {@code Retry-After} for a client whose failed authentications used up its bucket
   * ({@link AuthFailures}); audited once each time the bucket runs empty.
   */
  static <T> MutableHttpResponse<T> tooManyFailures(
      AuditLog audit, AuthFailures.Block block, String client, String action, String target) {
    if (block.first()) {
      audit.record(
          AuditLog.ANONYMOUS,
          action,
          target,
          AuditLog.REFUSED,
          "client "
              + client
              + ": too many failed authentications, refused for "
              + block.retryAfterSeconds()
              + " s (the refusals until then are not audited)");
    }
    MutableHttpResponse<T> r =
        ApiErrors.json(
            429,
            "too-many-failures",
            "too many failed authentications from "
                + client
                + "; retry in "
                + block.retryAfterSeconds()
                + " s with a token of tasklane.scheduler.api.tokens");
    return r.header("Retry-After", String.valueOf(block.retryAfterSeconds()));
  }

  private static MutableHttpResponse<?> unauthorized(String message) {
    return ApiErrors.json(HttpStatus.UNAUTHORIZED.getCode(), "unauthorized", message)
        .header("WWW-Authenticate", "Bearer");
  }

  private static byte[] bearer(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    return authorization.substring(7).trim().getBytes(StandardCharsets.UTF_8);
  }

  /** The token equal to {@code given}, compared in constant time against every token. */
  static ApiToken match(List<ApiToken> tokens, byte[] given) {
    ApiToken found = null;
    for (ApiToken t : tokens) {
      if (MessageDigest.isEqual(given, t.token().getBytes(StandardCharsets.UTF_8))) {
        found = t;
      }
    }
    return found;
  }
}
