package io.tasklane.scheduler;

import java.security.SecureRandom;
import java.util.Base64;

/** Random API tokens for tests, as {@code openssl rand -base64 32} makes them. */
public final class Tokens {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Tokens() {}

  public static String random() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return Base64.getEncoder().encodeToString(b);
  }
}
