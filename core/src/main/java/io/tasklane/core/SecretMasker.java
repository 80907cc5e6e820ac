package io.tasklane.core;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Masks secrets in configuration before it is logged or shown. A key is secret when its name
 * mentions a password, passphrase, secret, token, credential, JAAS config, API/private/access key,
 * or ends in {@code key}/{@code keys} ({@code ssl.keystore.key}, {@code api.key}); {@code
 * key.serializer}, {@code ssl.keymanager.algorithm}, {@code ssl.keystore.location} and the like are
 * not. In every other value, URL credentials ({@code user:pass@}) and secret-named parameters
 * ({@code ?password=x}, {@code ;pwd=x}, {@code password="x"}) are masked, and so are the secret
 * parts of {@code http(s)} URLs: the whole query string and fragment, a Slack-style path after
 * {@code /services/}, a Discord-style path after {@code /webhooks/}, and any path segment that
 * looks like a token (20 or more characters with both letters and digits). Stateless, thread-safe.
 */
public final class SecretMasker {
  /** What a secret is replaced with. */
  public static final String MASK = "***";

  private static final Pattern SECRET_WORD =
      Pattern.compile(
          "password|passwd|passphrase|secret|token|credential|jaas|apikey|api[._-]key|privatekey"
              + "|private[._-]key|accesskey|access[._-]key|user[._-]?info");
  private static final Set<String> SECRET_SEGMENTS = Set.of("pwd", "key", "keys");
  private static final Set<String> URL_SEGMENTS = Set.of("url", "uri", "urls", "uris");
  private static final Pattern CAMEL = Pattern.compile("(?<=[a-z0-9])(?=[A-Z])");
  private static final Pattern SEPARATORS = Pattern.compile("[._\\-\\s]+");
  private static final Pattern USER_INFO = Pattern.compile("(://[^/@:\\s?#;]+):[^@/\\s]*@");
  private static final Pattern SECRET_PARAM =
      Pattern.compile(
          "(?i)(^|[?&;(,\\s])([A-Za-z0-9_.\\-]*(?:password|passwd|pwd|passphrase|secret|token"
              + "|credential|apikey|api[._-]key)[A-Za-z0-9_.\\-]*\\s*=\\s*)(\"[^\"]*\"|'[^']*'"
              + "|[^&;),\\s]*)");

  private static final Pattern HTTP_URL =
      Pattern.compile(
          "(?i)\\b(https?://)([^\\s/?#'\"<>]+)([^\\s?#'\"<>,]*)(\\?[^\\s#'\"<>]*)?(#[^\\s'\"<>]*)?");
  private static final Pattern WEBHOOK_PATH =
      Pattern.compile("(?i)^(/services/|/api(?:/v\\d+)?/webhooks/)(.+)$");
  private static final Pattern TOKEN_SEGMENT =
      Pattern.compile("(?<=/)(?=[^/]*[0-9])(?=[^/]*[A-Za-z])[A-Za-z0-9_\\-.~%+=]{20,}(?=/|$)");

  private SecretMasker() {}

  /** True when the value of {@code key} is a secret and must never be shown. */
  public static boolean isSecretKey(String key) {
    if (key == null) {
      return false;
    }
    String[] segments =
        SEPARATORS.split(CAMEL.matcher(key).replaceAll(".").toLowerCase(Locale.ROOT));
    String last = segments.length == 0 ? "" : segments[segments.length - 1];
    if (URL_SEGMENTS.contains(last)) {
      return false; // a URL: its credentials are masked by maskText
    }
    if (SECRET_WORD.matcher(key.toLowerCase(Locale.ROOT)).find()) {
      return true;
    }
    for (String s : segments) {
      if (s.equals("pwd")) {
        return true;
      }
    }
    return SECRET_SEGMENTS.contains(last);
  }

  /** Credentials inside {@code text} (URL user info, secret-named parameters) masked. */
  public static String maskText(String text) {
    if (text == null) {
      return null;
    }
    String s = USER_INFO.matcher(text).replaceAll("$1:" + MASK + "@");
    s = HTTP_URL.matcher(s).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(maskUrl(m)));
    return SECRET_PARAM
        .matcher(s)
        .replaceAll(
            m -> {
              String v = m.group(3);
              String masked =
                  v.startsWith("\"")
                      ? "\"" + MASK + "\""
                      : v.startsWith("'") ? "'" + MASK + "'" : MASK;
              return java.util.regex.Matcher.quoteReplacement(m.group(1) + m.group(2) + masked);
            });
  }

  private static String maskUrl(java.util.regex.MatchResult m) {
    String path = m.group(3);
    java.util.regex.Matcher hook = WEBHOOK_PATH.matcher(path);
    if (hook.matches()) {
      path = hook.group(1) + MASK; // Slack, Discord and the like: the path is the credential
    } else {
      path = TOKEN_SEGMENT.matcher(path).replaceAll(MASK);
    }
    return m.group(1)
        + m.group(2)
        + path
        + (m.group(4) == null ? "" : "?" + MASK)
        + (m.group(5) == null ? "" : "#" + MASK);
  }

  /** {@link #MASK} for a secret key, else the value with {@link #maskText} applied. */
  public static String maskValue(String key, Object value) {
    if (value == null) {
      return null;
    }
    return isSecretKey(key) ? MASK : maskText(String.valueOf(value));
  }

  /** A sorted copy of {@code config} with every value passed through {@link #maskValue}. */
  public static Map<String, String> mask(Map<String, ?> config) {
    Map<String, String> out = new TreeMap<>();
    config.forEach((k, v) -> out.put(k, maskValue(k, v)));
    return out;
  }
}
