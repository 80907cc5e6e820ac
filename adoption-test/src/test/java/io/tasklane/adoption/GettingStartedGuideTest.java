package io.tasklane.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The getting-started guides and their samples cannot disagree: docs/getting-started.md is
 * samples/invoice-service (Micronaut), docs/getting-started-spring.md is
 * samples/spring-order-service (Spring Boot). Each fenced block of a guide is preceded by {@code
 * <!-- sample: PATH -->} and appears verbatim in that sample file, and every file of the sample
 * (but its README, which holds the commands) is shown whole. The samples are built, their code
 * compiled, and run by {@link AdoptionTest} and {@link SpringAdoptionTest}.
 */
class GettingStartedGuideTest {
  private static final Path HOME =
      Path.of(System.getProperty("tasklane.home", "..")).toAbsolutePath().normalize();
  private static final Pattern MARKER = Pattern.compile("<!-- sample: (\\S+) -->");
  private static final String CHECKOUT = "\"$TASKLANE\"/";
  private static final List<String> TOOLS =
      List.of(
          "cd", "export", "echo", "cat", "kill", "java", "unzip", "openssl", "curl", "mariadb",
          "./mvnw");
  private static final Pattern SEPARATOR =
      Pattern.compile("\\s*(?:&&|\\|\\||;|\\||(?<![>&])&(?![>&]))\\s*");
  private static final Pattern PID_FILE = Pattern.compile("echo \\$! > (\\S+\\.pid)");

  /** A guide and the sample it builds; {@code schema} is the sample file with the tables. */
  record Guide(String name, Path guide, Path sample, String schema) {
    @Override
    public String toString() {
      return name;
    }
  }

  static final Guide MICRONAUT =
      new Guide(
          "docs/getting-started.md",
          HOME.resolve("docs/getting-started.md"),
          HOME.resolve("samples/invoice-service"),
          "schema.sql");
  static final Guide SPRING =
      new Guide(
          "docs/getting-started-spring.md",
          HOME.resolve("docs/getting-started-spring.md"),
          HOME.resolve("samples/spring-order-service"),
          "src/main/resources/db/orders/V1__orders.sql");

  static List<Guide> guides() {
    return List.of(MICRONAUT, SPRING);
  }

  record Block(int line, String file, String text) {}

  @ParameterizedTest
  @MethodSource("guides")
  void everyBlockOfTheGuideIsTheTextOfTheSampleFileItNames(Guide guide) throws IOException {
    List<Block> blocks = blocks(guide);
    assertThat(blocks).hasSizeGreaterThan(10);
    for (Block b : blocks) {
      Path file = guide.sample().resolve(b.file());
      assertThat(file).as("guide line %d names %s", b.line(), b.file()).isRegularFile();
      assertThat(Files.readString(file))
          .as("the block at guide line %d is the text of %s", b.line(), file)
          .contains(b.text());
    }
  }

  @ParameterizedTest
  @MethodSource("guides")
  void theGuideShowsEverySampleFileWhole(Guide guide) throws IOException {
    List<String> whole =
        blocks(guide).stream().filter(b -> isWholeFile(guide, b)).map(Block::file).toList();
    try (Stream<Path> files = Files.walk(guide.sample())) {
      List<String> sampleFiles =
          files
              .filter(Files::isRegularFile)
              .map(p -> guide.sample().relativize(p).toString())
              .filter(p -> !p.startsWith("target") && !p.equals("README.md"))
              .toList();
      assertThat(whole).containsAll(sampleFiles);
    }
  }

  @ParameterizedTest
  @MethodSource("guides")
  void theSampleSchemaCarriesTheOutboxTableShippedWithTheLibrary(Guide guide) throws IOException {
    String ddl =
        Files.readString(
            HOME.resolve("outbox-lib/src/main/resources/io/tasklane/outbox/tasklane_outbox.sql"));
    assertThat(Files.readString(guide.sample().resolve(guide.schema()))).contains(ddl.strip());
  }

  /**
   * The Spring sample owns its migrations: its one Flyway location holds Tasklane's idempotency
   * table too (the worker is told not to create it), and no other location is read.
   */
  @Test
  void theSpringMigrationCarriesTheIdempotencyTableAndIsTheOnlyFlywayLocation() throws IOException {
    String ddl =
        Files.readString(
            HOME.resolve(
                "worker-core/src/main/resources/io/tasklane/worker/tasklane_processed.sql"));
    assertThat(Files.readString(SPRING.sample().resolve(SPRING.schema()))).contains(ddl.strip());
    assertThat(
            Files.readString(SPRING.sample().resolve("src/main/resources/application.properties")))
        .contains("spring.flyway.locations=classpath:db/orders\n")
        .contains("tasklane.worker.idempotency.create-table=false\n");
  }

  /**
   * The Spring sample pins, over spring-boot-starter-parent's versions, the Kafka, Jackson and
   * Hibernate versions this build uses, and its own test asserts the same values.
   */
  @Test
  void theSpringSamplePinsTheVersionsThisBuildIsTestedWith() throws IOException {
    String root = Files.readString(HOME.resolve("pom.xml"));
    String pom = Files.readString(SPRING.sample().resolve("pom.xml"));
    String test =
        Files.readString(
            SPRING
                .sample()
                .resolve("src/test/java/com/example/orders/DependencyVersionsTest.java"));
    assertThat(pom)
        .contains("<artifactId>spring-boot-starter-parent</artifactId>")
        .contains("<tasklane.version>" + System.getProperty("tasklane.version", "0.1.0") + "<")
        .contains("<artifactId>tasklane-bom</artifactId>")
        .contains("<artifactId>tasklane-spring-boot-starter</artifactId>");
    String[][] pins = {
      {"kafka.version", "kafka.version"},
      {"jackson.version", "jackson-bom.version"},
      {"hibernate.version", "hibernate.version"}
    };
    for (String[] pin : pins) {
      String version = tag(root, pin[0]);
      assertThat(pom).contains("<" + pin[1] + ">" + version + "</" + pin[1] + ">");
      assertThat(test).contains("isEqualTo(\"" + version + "\")");
    }
  }

  @Test
  void theSamplePomImportsTheTasklaneBomOfThisVersionBeforeMicronautsBom() throws IOException {
    String pom = Files.readString(MICRONAUT.sample().resolve("pom.xml"));
    assertThat(pom)
        .contains("<tasklane.version>" + System.getProperty("tasklane.version", "0.1.0") + "<");
    assertThat(pom.indexOf("<artifactId>tasklane-bom</artifactId>"))
        .isPositive()
        .isLessThan(pom.indexOf("<artifactId>micronaut-platform</artifactId>"));
  }

  /**
   * A reader has what section 1 lists (a JDK, the checkout, a MariaDB client, a shell with unzip,
   * openssl and curl): every command of the guide is one of those or a file of the checkout.
   */
  @ParameterizedTest
  @MethodSource("guides")
  void everyCommandOfTheGuideIsAToolTheReaderHasOrAFileOfTheCheckout(Guide guide)
      throws IOException {
    for (String command : commands(guide)) {
      String program = command.split("\\s+")[0];
      if (program.startsWith(CHECKOUT)) {
        assertThat(HOME.resolve(program.substring(CHECKOUT.length())))
            .as("the guide runs %s", command)
            .isRegularFile();
      } else {
        assertThat(TOOLS).as("the guide runs %s", command).contains(program);
      }
    }
  }

  /**
   * The guide's end stops what it started, from any shell: every process started in the background
   * records its pid, the last block kills every recorded pid and stops the stack of {@code
   * bin/stack up}.
   */
  @ParameterizedTest
  @MethodSource("guides")
  void theLastBlockStopsEveryProcessAndTheStackTheGuideStarted(Guide guide) throws IOException {
    List<String> commands = commands(guide);
    List<String> pidFiles = new ArrayList<>();
    for (int i = 0; i < commands.size(); i++) {
      if (commands.get(i).startsWith("java ") && i + 1 < commands.size()) {
        Matcher pid = PID_FILE.matcher(commands.get(i + 1));
        if (commands.get(i).contains("2>&1") && pid.matches()) {
          pidFiles.add(pid.group(1));
        }
      }
    }
    long background = commands.stream().filter(c -> c.endsWith("2>&1")).count();
    assertThat(pidFiles).as("pid files of the background processes").hasSize((int) background);
    assertThat(background).isEqualTo(3);
    List<Block> blocks = blocks(guide);
    String last = blocks.get(blocks.size() - 1).text();
    assertThat(last).contains("kill $(cat " + String.join(" ", pidFiles) + ")");
    assertThat(commands).contains(CHECKOUT + "bin/stack up");
    assertThat(last).contains(CHECKOUT + "bin/stack down");
  }

  /**
   * The commands of the guide's shell blocks, split at {@code &&}, {@code ;}, {@code |}, {@code &}.
   */
  private static List<String> commands(Guide guide) throws IOException {
    List<String> commands = new ArrayList<>();
    for (Block b : blocks(guide)) {
      if (!b.file().equals("README.md")) {
        continue;
      }
      for (String line : b.text().split("\n")) {
        for (String command : SEPARATOR.split(line.strip())) {
          if (!command.isBlank()) {
            commands.add(command.strip());
          }
        }
      }
    }
    assertThat(commands).hasSizeGreaterThan(10);
    return commands;
  }

  private static boolean isWholeFile(Guide guide, Block b) {
    try {
      return Files.readString(guide.sample().resolve(b.file())).strip().equals(b.text().strip());
    } catch (IOException e) {
      return false;
    }
  }

  private static List<Block> blocks(Guide guide) throws IOException {
    List<String> lines = Files.readAllLines(guide.guide());
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).startsWith("```")) {
        continue;
      }
      String before = i > 0 ? lines.get(i - 1) : "";
      Matcher m = MARKER.matcher(before);
      assertThat(m.matches())
          .as("guide line %d: a block needs '<!-- sample: PATH -->' on the line before", i + 1)
          .isTrue();
      int start = i + 1;
      int end = start;
      while (end < lines.size() && !lines.get(end).startsWith("```")) {
        end++;
      }
      assertThat(end).as("guide line %d: unclosed block", i + 1).isLessThan(lines.size());
      blocks.add(new Block(i + 1, m.group(1), String.join("\n", lines.subList(start, end))));
      i = end;
    }
    return blocks;
  }

  /** The first {@code <name>value</name>} of a pom. */
  private static String tag(String pom, String name) {
    Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
    assertThat(m.find()).as("<%s> in the pom", name).isTrue();
    return m.group(1).strip();
  }
}
