package io.tasklane.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.testkit.internal.Dirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A stack of its own whose broker listens with SASL_SSL (SCRAM-SHA-512) and authorizes by ACL: who
 * may connect, and what an unauthorized client is told. Stopped after the class, also on failure.
 */
class SecuredKafkaTest {

  private static Path dir;
  private static LocalStack stack;

  @BeforeAll
  static void startSecuredStack() {
    dir = Path.of("target", "secured-stack-" + UUID.randomUUID().toString().substring(0, 8));
    stack = LocalStack.start(LocalStackConfig.builder().baseDir(dir).kafkaSaslSsl(true).build());
  }

  @AfterAll
  static void stopSecuredStack() {
    try {
      if (stack != null) {
        stack.close();
      }
    } finally {
      Dirs.deleteRecursively(dir);
    }
  }

  @Test
  void superUserLogsInOverTlsAndCreatesTopics() throws Exception {
    assertThat(stack.isKafkaSecured()).isTrue();
    assertThat(stack.kafkaSecurityProperties())
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsKeys("sasl.jaas.config", "ssl.truststore.location", "ssl.truststore.password");
    stack.createTopic("secured.created", 1);
    try (Admin admin = Admin.create(stack.kafkaAdminProperties())) {
      assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).contains("secured.created");
    }
  }

  @Test
  void brokerSecretsAreRandomPerStackAndOwnerOnly() throws Exception {
    String jaas = stack.kafkaSecurityProperties().get("sasl.jaas.config");
    assertThat(jaas).matches(".*password=\"[0-9a-f]{32}\".*");
    Path properties = stack.baseDir().resolve("kafka/server.properties");
    assertThat(Files.getPosixFilePermissions(properties))
        .containsExactlyInAnyOrder(
            java.nio.file.attribute.PosixFilePermission.OWNER_READ,
            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
    assertThat(stack.baseDir().resolve("kafka/tls/ca.p12")).doesNotExist();
  }

  @Test
  void clientWithoutCredentialsCannotConnect() {
    Map<String, Object> plain = new HashMap<>();
    plain.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
    plain.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 4000);
    plain.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
    try (Admin admin = Admin.create(plain)) {
      assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
    }
  }

  @Test
  void wrongPasswordIsRefusedWithAnAuthenticationError() {
    Map<String, Object> wrong =
        new HashMap<>(stack.kafkaSecurityProperties("admin", "not-the-password"));
    wrong.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
    wrong.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 40_000);
    try (Admin admin = Admin.create(wrong)) {
      assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
          .hasCauseInstanceOf(SaslAuthenticationException.class)
          .hasMessageContaining("invalid credentials");
    }
  }

  @Test
  void userWithoutAnAclIsRefusedNamingTheTopic() {
    stack.createTopic("secured.orders", 1);
    KafkaUser nobody =
        stack.createKafkaUser("nobody-" + UUID.randomUUID().toString().substring(0, 6));
    Map<String, Object> props = nobody.clientProperties(stack.bootstrapServers());
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
      assertThatThrownBy(
              () ->
                  producer
                      .send(new ProducerRecord<>("secured.orders", "k", "v"))
                      .get(20, TimeUnit.SECONDS))
          .hasCauseInstanceOf(TopicAuthorizationException.class)
          .satisfies(
              e ->
                  assertThat(((TopicAuthorizationException) e.getCause()).unauthorizedTopics())
                      .containsExactly("secured.orders"))
          .hasMessageContaining("secured.orders");
    }
  }

  @Test
  void createKafkaUserNeedsASecuredStack() {
    assertThatThrownBy(() -> LocalStack.shared().createKafkaUser("x"))
        .isInstanceOf(LocalStackException.class)
        .hasMessageContaining("LocalStackConfig.Builder.kafkaSaslSsl(true)");
  }
}
