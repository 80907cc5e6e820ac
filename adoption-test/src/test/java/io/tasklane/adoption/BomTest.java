package io.tasklane.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * tasklane-bom has no parent (importing it must manage nothing but Tasklane and Kafka), so its
 * versions are written out: they must be the build's own, or the BOM would pin what was not tested.
 */
class BomTest {
  private static final Path HOME =
      Path.of(System.getProperty("tasklane.home", "..")).toAbsolutePath().normalize();

  @Test
  void theBomPinsThisVersionOfEveryPublishedModuleAndTheKafkaVersionTheBuildUses()
      throws IOException {
    String bom = Files.readString(HOME.resolve("bom/pom.xml"));
    String parent = Files.readString(HOME.resolve("pom.xml"));
    String version = System.getProperty("tasklane.version");
    assertThat(version).isNotBlank();
    assertThat(tag(bom, "version")).isEqualTo(version);
    assertThat(tag(bom, "tasklane.version")).isEqualTo(version);
    assertThat(tag(bom, "tasklane.kafka.version")).isEqualTo(tag(parent, "kafka.version"));
    for (String artifact :
        new String[] {
          "tasklane-core",
          "tasklane-outbox",
          "tasklane-worker-core",
          "tasklane-worker-runtime",
          "tasklane-spring-boot-starter",
          "tasklane-spring-boot-starter-outbox",
          "tasklane-cdc-relay",
          "tasklane-scheduler-streams",
          "tasklane-testkit",
          "kafka-clients",
          "kafka-streams"
        }) {
      assertThat(bom).contains("<artifactId>" + artifact + "</artifactId>");
    }
  }

  /** The first {@code <name>value</name>} after the project's own coordinates. */
  private static String tag(String pom, String name) {
    Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
    assertThat(m.find()).as("<%s> in the pom", name).isTrue();
    return m.group(1).strip();
  }
}
