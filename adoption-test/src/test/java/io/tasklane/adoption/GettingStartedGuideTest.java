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
