package io.tasklane.scheduler;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One bearer token of the status API. Its {@code name} is the actor in the audit log and on the
 * control records it sends; the token itself is never logged ({@link #toString()} masks it).
 *
 * @param name {@code [a-zA-Z0-9._@-]{1,64}}; for the old {@code token:role} syntax {@code
 *     token-<first 8 hex digits of the token's SHA-256>}
 * @param token the secret: at least 24 characters, about 64 bits of entropy, no placeholder (see
 *     {@code TokenStrength}), no whitespace, control character, {@code :} or {@code ,}; make one
 *     with {@code openssl rand -base64 32}
 * @param role what it may do
 */
public record ApiToken(String name, String token, SchedulerConfig.Role role) {
  static final String KEY = SchedulerConfig.PREFIX + ".api.tokens";

  public ApiToken {
    if (name == null || !name.matches("[a-zA-Z0-9._@-]{1,64}")) {
      throw new SchedulerException(
          KEY
              + ": a token name must match [a-zA-Z0-9._@-]{1,64}; this one has "
              + (name == null ? 0 : name.length())
              + " characters (not shown: it may be a token in the wrong place; the syntax is"
              + " name:token:role)");
    }
    if (role == null) {
      throw new SchedulerException(
          KEY + ": token " + label(name) + " needs a role (viewer|operator|admin)");
    }
    String weak = token == null || token.isEmpty() ? "is empty" : weakness(token);
    if (weak != null) {
      throw new SchedulerException(
          KEY
              + ": token "
              + label(name)
              + " is refused, "
              + TokenStrength.HOW
              + " (it "
              + weak
              + "; the syntax is name:token:role)");
    }
  }

  /**
   * How a message names the token called {@code name}: quoted, unless the name itself looks like a
   * strong secret (a token put where the name goes), then without it. Never the token.
   */
  public static String label(String name) {
    return name != null && TokenStrength.weakness(name) == null
        ? "(its name is not shown: it looks like a token)"
        : "'" + name + "'";
  }

  /**
   * Why {@code token} cannot be an API token, or null: too weak ({@link TokenStrength}), or holding
   * whitespace, a control character, {@code :} or {@code ,} (which the {@code name:token:role,...}
   * syntax and the {@code Authorization} header cannot carry unambiguously). Never the token.
   */
  private static String weakness(String token) {
    if (token.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
      return "holds whitespace or a control character";
    }
    if (token.indexOf(':') >= 0 || token.indexOf(',') >= 0) {
      return "holds ':' or ',', which separate the fields and entries of the list";
    }
    return TokenStrength.weakness(token);
  }

  /** A token of the old {@code token:role} syntax, named after a hash of the token. */
  public static ApiToken unnamed(String token, SchedulerConfig.Role role) {
    return new ApiToken(derivedName(token), token, role);
  }

  static String derivedName(String token) {
    try {
      byte[] sha =
          MessageDigest.getInstance("SHA-256")
              .digest(String.valueOf(token).getBytes(StandardCharsets.UTF_8));
      return "token-" + HexFormat.of().formatHex(sha, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return name + ":***:" + role.label();
  }
}
