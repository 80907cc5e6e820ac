package io.tasklane.scheduler.internal.lifecycle;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The nonce of a dispatch ({@link io.tasklane.core.Dispatch#nonce}): 128 random bits from a {@link
 * SecureRandom}, base64url without padding. Only the scheduler, the worker that runs the attempt
 * (it reads the handler's topic) and readers of that topic see it, so a result carrying it answers
 * that dispatch. Thread-safe.
 */
final class DispatchNonces {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private DispatchNonces() {}

  /** A new nonce. */
  static String next() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return ENCODER.encodeToString(bytes);
  }

  /**
   * Whether two nonces are equal (null equals only null), in time independent of where they differ.
   */
  static boolean same(String a, String b) {
    if (a == null || b == null) {
      return a == b;
    }
    return MessageDigest.isEqual(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
