package io.tasklane.scheduler.internal.api;

import io.micronaut.http.HttpMethod;
import io.tasklane.scheduler.SchedulerConfig.Role;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one table of which role each request of the HTTP API needs, applied by {@link TokenFilter}
 * before any controller runs. The first rule matching the method and the path wins:
 *
 * <pre>
 * method        path                                  role
 * any           /api/config, /api/config/**           admin
 * any           /api/tasks/bulk, /api/tasks/bulk/**   admin
 * GET, HEAD     /api/audit, /api/audit/**             operator
 * GET, HEAD     anything else                         viewer
 * other         /api/session                          viewer (sign-out; sign-in needs none)
 * other         /api/handlers/**                      admin
 * other         /api/limits, /api/limits/**           admin
 * other         /api/schedules/{name}/trigger         operator
 * other         /api/schedules, /api/schedules/**     admin
 * other         anything else                         operator
 * </pre>
 *
 * Roles are ordered (viewer &lt; operator &lt; admin): a token of a higher role passes every rule
 * of a lower one. Paths are compared after percent-decoding, with repeated and trailing slashes
 * removed and case ignored, so that no spelling of an admin path reaches its controller with a
 * lower role; a path with a {@code .} or {@code ..} segment is refused ({@link #normalize}).
 * Stateless and thread-safe.
 */
final class ApiRoles {
  /** One line of the table: methods (null: any) matching a path pattern need a role. */
  record Rule(List<HttpMethod> methods, Pattern path, Role role) {
    boolean matches(HttpMethod method, String normalizedPath) {
      return (methods == null || methods.contains(method))
          && path.matcher(normalizedPath).matches();
    }
  }

  private static final List<HttpMethod> READ = List.of(HttpMethod.GET, HttpMethod.HEAD);
  private static final List<HttpMethod> WRITE =
      List.of(
          HttpMethod.POST,
          HttpMethod.PUT,
          HttpMethod.PATCH,
          HttpMethod.DELETE,
          HttpMethod.OPTIONS,
          HttpMethod.TRACE,
          HttpMethod.CONNECT,
          HttpMethod.CUSTOM);

  /** The table, in order; the first match wins. */
  static final List<Rule> RULES =
      List.of(
          rule(null, "/api/config(/.*)?", Role.ADMIN),
          rule(null, "/api/tasks/bulk(/.*)?", Role.ADMIN),
          rule(READ, "/api/audit(/.*)?", Role.OPERATOR),
          rule(READ, ".*", Role.VIEWER),
          rule(WRITE, "/api/session", Role.VIEWER),
          rule(WRITE, "/api/handlers(/.*)?", Role.ADMIN),
          rule(WRITE, "/api/limits(/.*)?", Role.ADMIN),
          rule(WRITE, "/api/schedules/[^/]+/trigger", Role.OPERATOR),
          rule(WRITE, "/api/schedules(/.*)?", Role.ADMIN),
          rule(WRITE, ".*", Role.OPERATOR));

  private ApiRoles() {}

  private static Rule rule(List<HttpMethod> methods, String path, Role role) {
    return new Rule(methods, Pattern.compile(path), role);
  }

  /**
   * The role {@code method} on {@code path} needs.
   *
   * @param path the request path as received (percent-encoded, without the query)
   * @throws IllegalArgumentException when the path has a {@code .} or {@code ..} segment or a bad
   *     percent-escape
   */
  static Role required(HttpMethod method, String path) {
    String p = normalize(path);
    for (Rule r : RULES) {
      if (r.matches(method, p)) {
        return r.role();
      }
    }
    return Role.ADMIN; // unreachable: the last rules match every path
  }

  /**
   * {@code path} percent-decoded, lower-cased, repeated slashes collapsed and the trailing slash
   * removed.
   *
   * @throws IllegalArgumentException for a {@code .} or {@code ..} segment or a bad escape
   */
  static String normalize(String path) {
    String decoded = decode(path == null ? "/" : path).toLowerCase(Locale.ROOT);
    StringBuilder out = new StringBuilder();
    for (String segment : decoded.split("/")) {
      if (segment.isEmpty()) {
        continue;
      }
      if (segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException(
            "the path has a '" + segment + "' segment; send the path without it");
      }
      out.append('/').append(segment);
    }
    return out.isEmpty() ? "/" : out.toString();
  }

  /** Percent-decoding of a path ({@code +} stays a plus, as in a path). */
  private static String decode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[bytes.length];
    int n = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '%') {
        if (i + 2 >= bytes.length) {
          throw new IllegalArgumentException("the path has a truncated %-escape");
        }
        int hi = Character.digit(bytes[i + 1], 16);
        int lo = Character.digit(bytes[i + 2], 16);
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("the path has a bad %-escape");
        }
        out[n++] = (byte) (hi * 16 + lo);
        i += 2;
      } else {
        out[n++] = bytes[i];
      }
    }
    return new String(out, 0, n, StandardCharsets.UTF_8);
  }
}
