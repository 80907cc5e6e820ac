package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.cookie.SameSite;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.internal.ops.AuditLog;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * {@code /api/session}: browser sign-in for the web console. {@code POST} with {@code
 * {"token":"<api token>"}} opens a {@link Sessions} session and sets the cookie {@value
 * Sessions#COOKIE} (HttpOnly, SameSite=Strict, Path=/, Secure when the request came over TLS or
 * through a proxy saying {@code X-Forwarded-Proto: https}) holding the session id, never the token;
 * the answer is {@code {"name","role","csrf","expiresAt","expiresAtIso"}}. {@code GET} answers the
 * same for the caller (a bearer caller gets no csrf); {@code DELETE} signs out and clears the
 * cookie. Sign-ins, refused sign-ins (with the client address) and sign-outs are audited; a refused
 * sign-in counts as a failed authentication of its client address ({@link AuthFailures}), and an
 * address past its limit is answered 429 with {@code Retry-After} before its token is checked;
 * other addresses sign in as before. Runs on the event loop (memory only).
 */
@Controller(SessionController.PATH)
@Internal
public class SessionController {
  static final String PATH = "/api/session";

  private final SchedulerConfig config;
  private final Sessions sessions;
  private final AuditLog audit;
  private final AuthFailures failures;

  SessionController(
      SchedulerConfig config, Sessions sessions, AuditLog audit, AuthFailures failures) {
    this.config = config;
    this.sessions = sessions;
    this.audit = audit;
    this.failures = failures;
  }

  @Post(consumes = MediaType.APPLICATION_JSON, produces = MediaType.APPLICATION_JSON)
  MutableHttpResponse<String> signIn(HttpRequest<?> request, @Nullable @Body String body) {
    String client = AuthFailures.client(request);
    AuthFailures.Block block = failures.blocked(client);
    if (block != null) {
      return TokenFilter.tooManyFailures(audit, block, client, "session-sign-in", "session");
    }
    JsonNode tree;
    try {
      tree = body == null ? null : WireCodec.readTree(body);
    } catch (RuntimeException e) {
      tree = null;
    }
    JsonNode token = tree == null ? null : tree.get("token");
    if (token == null || !token.isTextual() || token.asText().length() > 1_000) {
      return ApiErrors.badRequest(
          "token: send {\"token\":\"<api token>\"}, a token of tasklane.scheduler.api.tokens of at"
              + " most 1000 characters");
    }
    var match =
        TokenFilter.match(config.apiTokens(), token.asText().getBytes(StandardCharsets.UTF_8));
    if (match == null) {
      failures.failed(client);
      audit.record(
          AuditLog.ANONYMOUS,
          "session-sign-in",
          "session",
          AuditLog.REFUSED,
          "client " + client + ": a token that is not one of the api tokens");
      return ApiErrors.json(401, "unauthorized", "token: not one of tasklane.scheduler.api.tokens");
    }
    Sessions.Created created;
    try {
      created = sessions.create(match);
    } catch (Sessions.Full e) {
      audit.record(match.name(), "session-sign-in", "session", AuditLog.REFUSED, e.getMessage());
      return ApiErrors.json(503, "too-many-sessions", e.getMessage());
    }
    audit.record(match.name(), "session-sign-in", "session", AuditLog.ACCEPTED, null);
    Sessions.Session s = created.session();
    Cookie cookie =
        Cookie.of(Sessions.COOKIE, created.id())
            .httpOnly(true)
            .sameSite(SameSite.Strict)
            .path("/")
            .secure(tls(request))
            .maxAge(Duration.ofMillis(Math.max(0, s.expiresAt() - System.currentTimeMillis())));
    return ok(s.name(), s.role(), s.csrf(), s.expiresAt()).cookie(cookie);
  }

  @Get(produces = MediaType.APPLICATION_JSON)
  MutableHttpResponse<String> whoAmI(
      HttpRequest<?> request,
      @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor,
      @Nullable @RequestAttribute(TokenFilter.ROLE) Role role) {
    Sessions.Session s = session(request);
    return s != null ? ok(s.name(), s.role(), s.csrf(), s.expiresAt()) : ok(actor, role, null, 0);
  }

  @Delete(produces = MediaType.APPLICATION_JSON)
  MutableHttpResponse<String> signOut(
      HttpRequest<?> request, @Nullable @RequestAttribute(TokenFilter.ACTOR) String actor) {
    boolean had =
        sessions.remove(
            request.getCookies().findCookie(Sessions.COOKIE).map(Cookie::getValue).orElse(null));
    audit.record(
        actor, "session-sign-out", "session", had ? AuditLog.ACCEPTED : AuditLog.REFUSED, null);
    Cookie gone =
        Cookie.of(Sessions.COOKIE, "")
            .httpOnly(true)
            .sameSite(SameSite.Strict)
            .path("/")
            .secure(tls(request))
            .maxAge(0);
    return HttpResponse.ok(WireCodec.encodeToString(new SignOutResponse(had)))
        .contentType(MediaType.APPLICATION_JSON_TYPE)
        .cookie(gone);
  }

  private Sessions.Session session(HttpRequest<?> request) {
    if (request.getHeaders().getAuthorization().isPresent()) {
      return null; // a bearer caller, even with a cookie
    }
    return request
        .getCookies()
        .findCookie(Sessions.COOKIE)
        .map(c -> sessions.find(c.getValue()))
        .orElse(null);
  }

  private static boolean tls(HttpRequest<?> request) {
    return request.isSecure()
        || "https".equalsIgnoreCase(request.getHeaders().get("X-Forwarded-Proto"));
  }

  private static MutableHttpResponse<String> ok(String name, Role role, String csrf, long until) {
    SessionResponse body = SessionResponse.of(name, role, csrf, until);
    return HttpResponse.ok(WireCodec.encodeToString(body))
        .contentType(MediaType.APPLICATION_JSON_TYPE);
  }
}
