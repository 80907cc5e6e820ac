package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;

/**
 * The service runs on the Kafka, Jackson and Hibernate versions Tasklane 0.1.0 is tested with, set
 * in pom.xml over spring-boot-starter-parent's own. A Boot upgrade that changes one fails here.
 */
class DependencyVersionsTest {
  @Test
  void theLibrariesAreTheVersionsTasklaneIsTestedWith() {
    assertThat(AppInfoParser.getVersion()).as("kafka-clients").isEqualTo("4.1.2");
    assertThat(com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString())
        .as("jackson-databind")
        .isEqualTo("2.21.8");
    assertThat(org.hibernate.Version.getVersionString())
        .as("hibernate-core")
        .isEqualTo("6.6.32.Final");
  }
}
