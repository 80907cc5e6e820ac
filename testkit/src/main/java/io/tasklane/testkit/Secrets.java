package io.tasklane.testkit;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Random secrets for the apps a test or script launches: made the way the docs tell operators to
 * make them ({@code openssl rand -base64 32}), so they pass every app's strength check and are new
 * on every run (nothing guessable is ever hard-coded).
 */
public final class Secrets {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Secrets() {}

  /** 32 random bytes, Base64: an API token, an inter-instance token, a password. */
  public static String token() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return Base64.getEncoder().encodeToString(b);
  }
}
