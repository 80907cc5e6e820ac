package io.tasklane.testkit;

import io.tasklane.testkit.internal.KafkaSecurity;
import java.nio.file.Path;

/**
 * Throw-away TLS material for tests of HTTPS endpoints: a fresh CA, a PKCS12 keystore holding a
 * certificate for {@code 127.0.0.1} and {@code localhost} signed by it, and a PKCS12 truststore
 * holding the CA. Made by the JDK's {@code keytool}; random passwords. A value; any thread.
 *
 * @param keystore the server's keystore (PKCS12)
 * @param keystorePassword its password
 * @param truststore a truststore with the CA (PKCS12)
 * @param truststorePassword its password
 */
public record TestCertificates(
    Path keystore, String keystorePassword, Path truststore, String truststorePassword) {

  /** Generates the material in {@code dir} (replacing what was there). Blocks a few seconds. */
  public static TestCertificates generate(Path dir) {
    KafkaSecurity s = KafkaSecurity.generate(dir);
    return new TestCertificates(
        s.keystore(), s.keystorePassword(), s.truststore(), s.truststorePassword());
  }

  @Override
  public String toString() {
    return "TestCertificates[keystore=" + keystore + ", truststore=" + truststore + "]";
  }
}
