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
 *     {@code TokenStrength}); make one with {@code openssl rand -base64 32}
 * @param role what it may do
 */
public record ApiToken(String name, String token, SchedulerConfig.Role role) {
  static final String KEY = SchedulerConfig.PREFIX + ".api.tokens";

  public ApiToken {
    if (name == null || !name.matches("[a-zA-Z0-9._@-]{1,64}")) {
      throw new SchedulerException(
          KEY + ": token name '" + name + "' must match [a-zA-Z0-9._@-]{1,64}");
    }
    if (role == null) {
      throw new SchedulerException(
          KEY + ": token '" + name + "' needs a role (viewer|operator|admin)");
    }
    String weak = token == null ? "is empty" : TokenStrength.weakness(token);
    if (weak != null) {
      throw new SchedulerException(
          KEY
              + ": token '"
              + name
              + "' is refused, "
              + TokenStrength.HOW
              + " (it "
              + weak
              + "; the syntax is name:token:role)");
    }
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
