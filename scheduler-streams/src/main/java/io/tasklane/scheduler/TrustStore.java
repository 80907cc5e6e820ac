package io.tasklane.scheduler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A truststore file the scheduler trusts the other instances' HTTPS certificates with when it
 * forwards a read ({@code inter-instance-trust-store}, {@code ...-password}, {@code ...-type}).
 * Immutable and validated; its {@code toString} never shows the password.
 *
 * @param path the file (must be readable at start)
 * @param password its password (required)
 * @param type {@code PKCS12} (default) or {@code JKS}
 */
public record TrustStore(Path path, String password, String type) {
  private static final String KEY = SchedulerConfig.PREFIX + ".inter-instance-trust-store";

  public TrustStore {
    if (path == null || !Files.isReadable(path)) {
      throw new SchedulerException(KEY + ": " + path + " is not a readable file");
    }
    if (password == null || password.isEmpty()) {
      throw new SchedulerException(
          KEY + "-password is required with " + KEY + " (the truststore's password)");
    }
    type = type == null ? "PKCS12" : type.toUpperCase(Locale.ROOT);
    if (!type.equals("PKCS12") && !type.equals("JKS")) {
      throw new SchedulerException(KEY + "-type must be PKCS12 or JKS, got " + type);
    }
  }

  @Override
  public String toString() {
    return "TrustStore[path=" + path + ", type=" + type + ", password=***]";
  }
}
