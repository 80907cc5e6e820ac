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

/**
 * docs/getting-started.md and samples/invoice-service cannot disagree: each fenced block of the
 * guide is preceded by {@code <!-- sample: PATH -->} and appears verbatim in that sample file, and
 * every file of the sample (but its README, which holds the commands) is shown whole.
 */
class GettingStartedGuideTest {
  private static final Path HOME =
      Path.of(System.getProperty("tasklane.home", "..")).toAbsolutePath().normalize();
  private static final Path GUIDE = HOME.resolve("docs/getting-started.md");
  private static final Path SAMPLE = HOME.resolve("samples/invoice-service");
  private static final Pattern MARKER = Pattern.compile("<!-- sample: (\\S+) -->");
  private static final String CHECKOUT = "\"$TASKLANE\"/";
  private static final List<String> TOOLS =
      List.of(
          "cd", "export", "echo", "cat", "kill", "java", "unzip", "openssl", "curl", "mariadb",
          "./mvnw");
  private static final Pattern SEPARATOR =
      Pattern.compile("\\s*(?:&&|\\|\\||;|\\||(?<![>&])&(?![>&]))\\s*");
  private static final Pattern PID_FILE = Pattern.compile("echo \\$! > (\\S+\\.pid)");

  record Block(int line, String file, String text) {}

  @Test
  void everyBlockOfTheGuideIsTheTextOfTheSampleFileItNames() throws IOException {
    List<Block> blocks = blocks();
    assertThat(blocks).hasSizeGreaterThan(10);
    for (Block b : blocks) {
      Path file = SAMPLE.resolve(b.file());
      assertThat(file).as("guide line %d names %s", b.line(), b.file()).isRegularFile();
      assertThat(Files.readString(file))
          .as("the block at guide line %d is the text of %s", b.line(), file)
          .contains(b.text());
    }
  }

  @Test
  void theGuideShowsEverySampleFileWhole() throws IOException {
    List<String> whole = blocks().stream().filter(b -> isWholeFile(b)).map(Block::file).toList();
    try (Stream<Path> files = Files.walk(SAMPLE)) {
      List<String> sampleFiles =
          files
              .filter(Files::isRegularFile)
              .map(p -> SAMPLE.relativize(p).toString())
              .filter(p -> !p.startsWith("target") && !p.equals("README.md"))
              .toList();
      assertThat(whole).containsAll(sampleFiles);
    }
  }

  @Test
  void theSampleSchemaCarriesTheOutboxTableShippedWithTheLibrary() throws IOException {
    String ddl =
        Files.readString(
            HOME.resolve("outbox-lib/src/main/resources/io/tasklane/outbox/tasklane_outbox.sql"));
    assertThat(Files.readString(SAMPLE.resolve("schema.sql"))).contains(ddl.strip());
  }

  @Test
  void theSamplePomImportsTheTasklaneBomOfThisVersionBeforeMicronautsBom() throws IOException {
    String pom = Files.readString(SAMPLE.resolve("pom.xml"));
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
  @Test
  void everyCommandOfTheGuideIsAToolTheReaderHasOrAFileOfTheCheckout() throws IOException {
    for (String command : commands()) {
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
  @Test
  void theLastBlockStopsEveryProcessAndTheStackTheGuideStarted() throws IOException {
    List<String> commands = commands();
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
    List<Block> blocks = blocks();
    String last = blocks.get(blocks.size() - 1).text();
    assertThat(last).contains("kill $(cat " + String.join(" ", pidFiles) + ")");
    assertThat(commands).contains(CHECKOUT + "bin/stack up");
    assertThat(last).contains(CHECKOUT + "bin/stack down");
  }

  /**
   * The commands of the guide's shell blocks, split at {@code &&}, {@code ;}, {@code |}, {@code &}.
   */
  private static List<String> commands() throws IOException {
    List<String> commands = new ArrayList<>();
    for (Block b : blocks()) {
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

  private static boolean isWholeFile(Block b) {
    try {
      return Files.readString(SAMPLE.resolve(b.file())).strip().equals(b.text().strip());
    } catch (IOException e) {
      return false;
    }
  }

  private static List<Block> blocks() throws IOException {
    List<String> lines = Files.readAllLines(GUIDE);
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
}
