package io.tasklane.scheduler;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Refuses secrets that look like placeholders or are too easy to guess: shorter than {@link
 * #MIN_LENGTH}, containing a placeholder word ({@code change-me}, {@code secret}, {@code password},
 * {@code token}, {@code test}, {@code example}, ...) unless the rest of it is random enough on its
 * own, a run of {@link #MAX_RUN} repeated or sequential characters ({@code aaaaaa}, {@code 123456},
 * {@code abcdef}), or with an estimated entropy below {@link #MIN_BITS} bits (length × the Shannon
 * entropy of its characters). A token from {@code openssl rand -base64 32} passes. Stateless.
 */
final class TokenStrength {
  static final int MIN_LENGTH = 24;
  static final int MIN_BITS = 64;
  static final int MAX_RUN = 6;

  /** What the rest of a secret holding a placeholder word must carry to count as random. */
  static final int RANDOM_BITS = 128;

  static final String HOW = "make one with: openssl rand -base64 32";

  /** Matched anywhere: five letters or more never show up by chance in a random token. */
  private static final List<String> PLACEHOLDERS =
      List.of(
          "changeme",
          "change-me",
          "change_me",
          "secret",
          "password",
          "passwd",
          "token",
          "example",
          "placeholder",
          "default",
          "letmein",
          "qwerty",
          "admin");

  /** Short words, matched only when no letter touches them. */
  private static final Pattern SHORT_WORDS =
      Pattern.compile("(?<![a-z])(test|demo|pass|todo)(?![a-z])");

  private TokenStrength() {}

  /** Null when {@code secret} is strong enough, else why not (never the secret itself). */
  static String weakness(String secret) {
    if (secret.length() < MIN_LENGTH) {
      return secret.length() + " characters, at least " + MIN_LENGTH + " are needed";
    }
    String word = placeholder(secret);
    if (word != null) {
      return "looks like a placeholder (contains '" + word + "')";
    }
    String run = run(secret);
    if (run != null) {
      return "has a guessable run of "
          + MAX_RUN
          + " repeated or sequential characters (such as aaaaaa or 123456)";
    }
    long bits = Math.round(bits(secret));
    if (bits < MIN_BITS) {
      return "has about " + bits + " bits of entropy, at least " + MIN_BITS + " are needed";
    }
    return null;
  }

  /**
   * The first placeholder word in {@code secret}, or null. A word counts only when what is left
   * without the placeholder words carries fewer than {@link #RANDOM_BITS}: a long random token
   * (such as one from {@code openssl rand -base64 32}) contains a short word like "todo" by chance
   * now and then, and must not be refused for it.
   */
  private static String placeholder(String secret) {
    String lower = secret.toLowerCase(Locale.ROOT);
    String first = null;
    String rest = lower;
    for (String word : PLACEHOLDERS) {
      if (rest.contains(word)) {
        first = first == null ? word : first;
        rest = rest.replace(word, "");
      }
    }
    var m = SHORT_WORDS.matcher(rest);
    if (m.find()) {
      first = first == null ? m.group(1) : first;
      rest = SHORT_WORDS.matcher(rest).replaceAll("");
    }
    return first != null && bits(rest) < RANDOM_BITS ? first : null;
  }

  /** The first run of {@link #MAX_RUN} repeated or sequential (up or down) characters, or null. */
  private static String run(String s) {
    for (int i = 0; i + MAX_RUN <= s.length(); i++) {
      int step = s.charAt(i + 1) - s.charAt(i);
      if (Math.abs(step) > 1) {
        continue;
      }
      int j = i + 1;
      while (j < i + MAX_RUN && s.charAt(j) - s.charAt(j - 1) == step) {
        j++;
      }
      if (j == i + MAX_RUN) {
        return s.substring(i, j);
      }
    }
    return null;
  }

  /** Length × Shannon entropy of the character distribution: an optimistic estimate in bits. */
  static double bits(String s) {
    Map<Integer, Integer> counts = new HashMap<>();
    s.codePoints().forEach(c -> counts.merge(c, 1, Integer::sum));
    int n = s.codePointCount(0, s.length());
    double h = 0;
    for (int c : counts.values()) {
      double p = (double) c / n;
      h -= p * (Math.log(p) / Math.log(2));
    }
    return h * n;
  }
}
