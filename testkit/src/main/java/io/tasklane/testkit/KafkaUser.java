package io.tasklane.testkit;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A SCRAM-SHA-512 user of a SASL_SSL {@link LocalStack} (see {@link LocalStack#createKafkaUser}). A
 * value; any thread.
 *
 * @param name the SCRAM user name; its ACL principal is {@link #principal()}
 * @param securityProperties the Kafka client settings that log in as this user ({@code
 *     security.protocol}, {@code sasl.mechanism}, {@code sasl.jaas.config}, {@code
 *     ssl.truststore.*}), without {@code bootstrap.servers}; an app takes them as its {@code
 *     kafka.*} pass-through
 */
public record KafkaUser(String name, Map<String, String> securityProperties) {

  public KafkaUser {
    Objects.requireNonNull(name, "KafkaUser.name must not be null");
    securityProperties = Map.copyOf(securityProperties);
  }

  /** The principal ACLs name, {@code User:<name>}. */
  public String principal() {
    return "User:" + name;
  }

  /** {@link #securityProperties()} plus {@code bootstrap.servers}, ready for a client. */
  public Map<String, Object> clientProperties(String bootstrapServers) {
    Map<String, Object> p = new HashMap<>(securityProperties);
    p.put("bootstrap.servers", bootstrapServers);
    return p;
  }

  @Override
  public String toString() {
    return "KafkaUser[" + name + "]"; // never the password
  }
}
