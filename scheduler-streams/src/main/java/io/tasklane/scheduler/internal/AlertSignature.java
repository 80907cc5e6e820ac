package io.tasklane.scheduler.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of an alert webhook: {@code X-Tasklane-Signature: sha256=<hex>}, the HMAC-SHA256 of
 * the exact body bytes keyed by {@code tasklane.scheduler.alerts.webhook.secret}. The body carries
 * {@code sentAt}, also sent as {@code X-Tasklane-Timestamp}, so a receiver can refuse old
 * (replayed) posts. Stateless.
 */
final class AlertSignature {
  static final String HEADER = "X-Tasklane-Signature";
  static final String TIMESTAMP_HEADER = "X-Tasklane-Timestamp";
  private static final String PREFIX = "sha256=";

  private AlertSignature() {}

  /** The header value for {@code body}. */
  static String sign(String secret, byte[] body) {
    return PREFIX + HexFormat.of().formatHex(mac(secret, body));
  }

  /** True when {@code header} is the signature of {@code body} (compared in constant time). */
  static boolean verify(String secret, byte[] body, String header) {
    if (header == null || !header.startsWith(PREFIX)) {
      return false;
    }
    byte[] given;
    try {
      given = HexFormat.of().parseHex(header.substring(PREFIX.length()));
    } catch (IllegalArgumentException e) {
      return false;
    }
    return MessageDigest.isEqual(given, mac(secret, body));
  }

  private static byte[] mac(String secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }
}
