package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The secrets of a SASL_SSL broker: a throw-away CA, the broker's PKCS12 keystore (certificate for
 * 127.0.0.1 signed by the CA), a client truststore holding the CA, and the SCRAM-SHA-512 super
 * user. Made by the JDK's {@code keytool} at stack start; every password is random (never written
 * into a command line). A value; any thread.
 *
 * @param dir directory of the key material (owner-only permissions)
 * @param keystore the broker's keystore
 * @param keystorePassword its password
 * @param truststore the clients' truststore (the CA certificate)
 * @param truststorePassword its password
 * @param adminUser the super user's SCRAM name
 * @param adminPassword the super user's SCRAM password
 */
public record KafkaSecurity(
    Path dir,
    Path keystore,
    String keystorePassword,
    Path truststore,
    String truststorePassword,
    String adminUser,
    String adminPassword) {

  /** The SASL mechanism of the listener. */
  public static final String MECHANISM = "SCRAM-SHA-512";

  private static final SecureRandom RANDOM = new SecureRandom();

  /** A random password: 32 hex digits (safe inside JAAS and StorageTool arguments). */
  public static String randomPassword() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** Generates fresh key material in {@code dir} (replacing what was there). Blocks ~5 s. */
  public static KafkaSecurity generate(Path dir) {
    try {
      Dirs.deleteRecursively(dir);
      Files.createDirectories(dir);
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      String caPass = randomPassword();
      KafkaSecurity s =
          new KafkaSecurity(
              dir,
              dir.resolve("broker.p12"),
              randomPassword(),
              dir.resolve("truststore.p12"),
              randomPassword(),
              "admin",
              randomPassword());
      Map<String, String> env =
          Map.of("CA_PASS", caPass, "KS_PASS", s.keystorePassword, "TS_PASS", s.truststorePassword);
      String ca = dir.resolve("ca.p12").toString();
      String ks = s.keystore.toString();
      keytool(
          dir,
          env,
          "-genkeypair",
          "-alias",
          "ca",
          "-dname",
          "CN=tasklane-test-ca",
          "-ext",
          "bc:c",
          "-validity",
          "30",
          "-keyalg",
          "EC",
          "-keystore",
          ca,
          "-storetype",
          "PKCS12",
          "-storepass:env",
          "CA_PASS");
      keytool(
          dir,
          env,
          "-genkeypair",
          "-alias",
          "broker",
          "-dname",
          "CN=127.0.0.1",
          "-validity",
          "30",
          "-keyalg",
          "EC",
          "-keystore",
          ks,
          "-storetype",
          "PKCS12",
          "-storepass:env",
          "KS_PASS");
      keytool(
          dir,
          env,
          "-certreq",
          "-alias",
          "broker",
          "-keystore",
          ks,
          "-storepass:env",
          "KS_PASS",
          "-file",
          "broker.csr");
      keytool(
          dir,
          env,
          "-gencert",
          "-alias",
          "ca",
          "-keystore",
          ca,
          "-storepass:env",
          "CA_PASS",
          "-infile",
          "broker.csr",
          "-outfile",
          "broker.crt",
          "-ext",
          "SAN=ip:127.0.0.1,dns:localhost",
          "-validity",
          "30",
          "-rfc");
      keytool(
          dir,
          env,
          "-exportcert",
          "-alias",
          "ca",
          "-keystore",
          ca,
          "-storepass:env",
          "CA_PASS",
          "-rfc",
          "-file",
          "ca.crt");
      keytool(
          dir,
          env,
          "-importcert",
          "-alias",
          "ca",
          "-file",
          "ca.crt",
          "-keystore",
          ks,
          "-storepass:env",
          "KS_PASS",
          "-noprompt");
      keytool(
          dir,
          env,
          "-importcert",
          "-alias",
          "broker",
          "-file",
          "broker.crt",
          "-keystore",
          ks,
          "-storepass:env",
          "KS_PASS",
          "-noprompt");
      keytool(
          dir,
          env,
          "-importcert",
          "-alias",
          "ca",
          "-file",
          "ca.crt",
          "-keystore",
          s.truststore.toString(),
          "-storetype",
          "PKCS12",
          "-storepass:env",
          "TS_PASS",
          "-noprompt");
      Files.deleteIfExists(dir.resolve("ca.p12")); // nobody signs anything else with this CA
      return s;
    } catch (IOException e) {
      throw new LocalStackException("cannot create the broker's TLS material in " + dir, e);
    }
  }

  /** Client settings (no bootstrap servers) for a SCRAM user of this broker. */
  public Map<String, String> clientProperties(String user, String password) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("security.protocol", "SASL_SSL");
    p.put("sasl.mechanism", MECHANISM);
    p.put("sasl.jaas.config", jaas(user, password));
    p.put("ssl.truststore.type", "PKCS12");
    p.put("ssl.truststore.location", truststore.toString());
    p.put("ssl.truststore.password", truststorePassword);
    return p;
  }

  /** Client settings of the super user. */
  public Map<String, String> adminProperties() {
    return clientProperties(adminUser, adminPassword);
  }

  /** The SASL_SSL listener, TLS, SCRAM and authorizer settings of server.properties. */
  void applyTo(Properties p, int port, int controllerPort) {
    p.setProperty(
        "listeners", "SASL_SSL://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.setProperty("advertised.listeners", "SASL_SSL://127.0.0.1:" + port);
    p.setProperty("inter.broker.listener.name", "SASL_SSL");
    // The controller listener stays PLAINTEXT on loopback: its principal is User:ANONYMOUS.
    p.setProperty("listener.security.protocol.map", "SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT");
    p.setProperty("sasl.enabled.mechanisms", MECHANISM);
    p.setProperty("sasl.mechanism.inter.broker.protocol", MECHANISM);
    p.setProperty(
        "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config", jaas(adminUser, adminPassword));
    p.setProperty("ssl.keystore.type", "PKCS12");
    p.setProperty("ssl.keystore.location", keystore.toString());
    p.setProperty("ssl.keystore.password", keystorePassword);
    p.setProperty("ssl.key.password", keystorePassword);
    p.setProperty("ssl.truststore.type", "PKCS12");
    p.setProperty("ssl.truststore.location", truststore.toString());
    p.setProperty("ssl.truststore.password", truststorePassword);
    p.setProperty("ssl.client.auth", "none");
    p.setProperty(
        "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    p.setProperty("super.users", "User:" + adminUser + ";User:ANONYMOUS");
    p.setProperty("allow.everyone.if.no.acl.found", "false");
  }

  /** The StorageTool {@code --add-scram} value that bootstraps the super user at format time. */
  String scramBootstrap() {
    return MECHANISM + "=[name=" + adminUser + ",password=" + adminPassword + "]";
  }

  /** Writes {@link #scramBootstrap()} to an owner-only file for BrokerMain (read, then deleted). */
  Path writeScramFile() throws IOException {
    Path file = dir.resolve("scram-bootstrap");
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, scramBootstrap() + "\n");
    return file;
  }

  private static String jaas(String user, String password) {
    return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
        + user
        + "\" password=\""
        + password
        + "\";";
  }

  private static void keytool(Path dir, Map<String, String> env, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().putAll(env);
    pb.redirectErrorStream(true);
    Process p = pb.start();
    try {
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new LocalStackException("keytool " + args[0] + " failed: " + out.strip());
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new LocalStackException("interrupted while running keytool " + args[0], e);
    }
  }
}
