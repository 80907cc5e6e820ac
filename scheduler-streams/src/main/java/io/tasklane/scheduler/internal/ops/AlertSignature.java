package io.tasklane.scheduler.internal.ops;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of an alert webhook post: {@code X-Tasklane-Signature: sha256=<hex>}, the
 * HMAC-SHA256 keyed by {@code tasklane.scheduler.alerts.webhook.secret} of {@code
 * <delivery-id>.<timestamp>.<body>}: the {@code X-Tasklane-Delivery} header (one id per alert, the
 * same on each of its retries), the {@code X-Tasklane-Timestamp} header (epoch milliseconds of this
 * attempt, = {@code sentAt}) and the exact body bytes. A receiver refuses timestamps outside its
 * window and delivery ids it has seen, so a captured post cannot be replayed, neither as it is nor
 * with a new timestamp or id. Stateless.
 */
final class AlertSignature {
  static final String HEADER = "X-Tasklane-Signature";
  static final String TIMESTAMP_HEADER = "X-Tasklane-Timestamp";
  static final String DELIVERY_HEADER = "X-Tasklane-Delivery";
  private static final String PREFIX = "sha256=";

  private AlertSignature() {}

  /** The signature header value for one post of {@code body}. */
  static String sign(String secret, String deliveryId, long timestamp, byte[] body) {
    return PREFIX + HexFormat.of().formatHex(mac(secret, signed(deliveryId, timestamp, body)));
  }

  /**
   * True when {@code header} is the signature of {@code body} sent with these delivery id and
   * timestamp header values (compared in constant time). The receiver still checks the timestamp's
   * age and the id's novelty.
   */
  static boolean verify(
      String secret, String deliveryId, String timestamp, byte[] body, String header) {
    if (header == null || !header.startsWith(PREFIX) || deliveryId == null || timestamp == null) {
      return false;
    }
    long at;
    byte[] given;
    try {
      at = Long.parseLong(timestamp);
      given = HexFormat.of().parseHex(header.substring(PREFIX.length()));
    } catch (IllegalArgumentException e) {
      return false;
    }
    return MessageDigest.isEqual(given, mac(secret, signed(deliveryId, at, body)));
  }

  /** {@code <delivery-id>.<timestamp>.<body>}, the bytes the HMAC covers. */
  static byte[] signed(String deliveryId, long timestamp, byte[] body) {
    byte[] head = (deliveryId + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[head.length + body.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(body, 0, all, head.length, body.length);
    return all;
  }

  /** HMAC-SHA256 of {@code bytes} keyed by {@code secret}. */
  static byte[] mac(String secret, byte[] bytes) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac.doFinal(bytes);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }
}
