package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SecretMaskerTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "password",
        "tasklane.relay.password",
        "TASKLANE_RELAY_PASSWORD",
        "ssl.keystore.password",
        "ssl.truststore.password",
        "ssl.key.password",
        "ssl.keystore.key",
        "sasl.jaas.config",
        "kafka.sasl.jaas.config",
        "sasl.oauthbearer.client.credentials.client.secret",
        "sasl.oauthbearer.assertion.private.key.passphrase",
        "database.password",
        "debezium.database.password",
        "api.tokens",
        "keyStorePassword",
        "apiKey",
        "api-key",
        "basic.auth.user.info",
        "aws.secret.access.key",
        "encryption.key",
        "db.pwd"
      })
  void secretLikeKeysAreMasked(String key) {
    assertThat(SecretMasker.isSecretKey(key)).as(key).isTrue();
    assertThat(SecretMasker.maskValue(key, "hunter2")).isEqualTo(SecretMasker.MASK);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "key.serializer",
        "key.deserializer",
        "value.serializer",
        "key.converter",
        "ssl.keystore.location",
        "ssl.keystore.type",
        "ssl.truststore.location",
        "ssl.keymanager.algorithm",
        "ssl.keystore.certificate.chain",
        "message.key.columns",
        "bootstrap.servers",
        "security.protocol",
        "sasl.mechanism",
        "jdbc-url",
        "sasl.oauthbearer.token.endpoint.url",
        "username",
        "partitioner.class"
      })
  void ordinaryKeysAreShown(String key) {
    assertThat(SecretMasker.isSecretKey(key)).as(key).isFalse();
    assertThat(SecretMasker.maskValue(key, "plain-value")).isEqualTo("plain-value");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:mariadb://h:3306/db?user=u&password=x1 | jdbc:mariadb://h:3306/db?user=u&password=***",
        "jdbc:mariadb://h/db?password=x1&useSsl=true | jdbc:mariadb://h/db?password=***&useSsl=true",
        "jdbc:mysql://app:s3cr3t@h1,h2/db | jdbc:mysql://app:***@h1,h2/db",
        "https://user:pw@idp.example/token | https://user:***@idp.example/token",
        "jdbc:sqlserver://h;databaseName=d;PWD=x1;encrypt=true"
            + " | jdbc:sqlserver://h;databaseName=d;PWD=***;encrypt=true",
        "jdbc:mariadb://h:3306/db?useSSL=true | jdbc:mariadb://h:3306/db?useSSL=true",
        "jdbc:mysql://h1:3306,h2:3306/db | jdbc:mysql://h1:3306,h2:3306/db",
        "PlainLoginModule required username=\"u\" password=\"p1\"; | PlainLoginModule required"
            + " username=\"u\" password=\"***\";"
      })
  void credentialsInsideValuesAreMasked(String value, String expected) {
    assertThat(SecretMasker.maskText(value)).isEqualTo(expected);
    assertThat(SecretMasker.maskValue("jdbc-url", value)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "https://hooks.slack.com/services/T0001/B0002/Xq7sLr9TzWm4Bn8YpJc3Hd6F"
            + " | https://hooks.slack.com/services/***",
        "https://discord.com/api/webhooks/123456789012345678/aB3dE-fG_hI9jK"
            + " | https://discord.com/api/webhooks/***",
        "https://discordapp.com/api/v10/webhooks/1234/tok | https://discordapp.com/api/v10/webhooks/***",
        "https://alerts.example.com/hook?sig=s3cr3t&x=1 | https://alerts.example.com/hook?***",
        "https://alerts.example.com/in/a1b2c3d4e5f6a7b8c9d0e1f2/post"
            + " | https://alerts.example.com/in/***/post",
        "url 'https://hooks.slack.com/services/T1/B2/C3' is bad | url"
            + " 'https://hooks.slack.com/services/***' is bad",
        "https://alerts.example.com/hook | https://alerts.example.com/hook",
        "https://alerts.example.com/a-rather-long-path-name/v1 | https://alerts.example.com/a-rather-long-path-name/v1"
      })
  void secretPartsOfWebhookUrlsAreMasked(String value, String expected) {
    assertThat(SecretMasker.maskText(value)).isEqualTo(expected);
    assertThat(SecretMasker.maskValue("alerts.webhook.url", value)).isEqualTo(expected);
  }

  @Test
  void masksAWholeConfigurationSortedByKey() {
    Map<String, String> masked =
        SecretMasker.mask(
            Map.of(
                "sasl.jaas.config", "x required password=\"p\";",
                "key.serializer", "org.apache.kafka.common.serialization.StringSerializer",
                "jdbc-url", "jdbc:mariadb://h/db?password=p"));
    assertThat(masked)
        .containsExactly(
            Map.entry("jdbc-url", "jdbc:mariadb://h/db?password=***"),
            Map.entry("key.serializer", "org.apache.kafka.common.serialization.StringSerializer"),
            Map.entry("sasl.jaas.config", "***"));
  }
}
