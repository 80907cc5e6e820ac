package io.tasklane.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The checkout's markdown files cannot drift from the code in ways a reader trips over: no file
 * repeats a heading (a merge that kept a section twice, each copy with its own figures), every
 * {@code bin/<script>} they name is a script of the checkout or of a distribution, and no sentence
 * but the changelog's says a shipped operator tool (the CLI, the web console) is not built.
 */
class DocsConsistencyTest {
  private static final Path HOME =
      Path.of(System.getProperty("tasklane.home", "..")).toAbsolutePath().normalize();
  private static final Pattern HEADING = Pattern.compile("(#{1,6})\\s+(.*?)[\\s#]*");
  private static final Pattern BIN = Pattern.compile("(?<![\\w.-])bin/([\\w-]+(?:\\.[\\w-]+)*)");
  private static final Pattern ABSENT =
      Pattern.compile(
          "\\bnot\\s+(yet\\s+)?(built|implemented|shipped)\\b", Pattern.CASE_INSENSITIVE);

  /** Each shipped operator tool: the word a doc calls it by, and the source that ships it. */
  private static final Map<Pattern, String> SHIPPED =
      Map.of(
          Pattern.compile("\\bCLI\\b|\\bcommand line\\b"),
          "cli/src/main/java/io/tasklane/cli/TasklaneCli.java",
          Pattern.compile("\\bconsole\\b", Pattern.CASE_INSENSITIVE),
          "scheduler-streams/src/main/resources/io/tasklane/scheduler/console/index.html");

  /**
   * Two headings of one level under the same parent headings: a section kept twice. (The same
   * heading under different parents, like each release's "Added" in the changelog, is fine.)
   */
  @Test
  void noMarkdownFileHasTwoHeadingsWithTheSameTextAtTheSameLevel() {
    List<String> duplicates = new ArrayList<>();
    for (Path md : markdownFiles()) {
      Map<String, Integer> seen = new HashMap<>();
      String[] parents = new String[7];
      List<String> lines = lines(md);
      boolean fenced = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.startsWith("```")) {
          fenced = !fenced;
        }
        Matcher h = HEADING.matcher(line);
        if (fenced || !h.matches()) {
          continue;
        }
        int level = h.group(1).length();
        String key = String.join(" > ", Arrays.copyOfRange(parents, 1, level)) + " > " + line;
        Integer first = seen.putIfAbsent(key, i + 1);
        if (first != null) {
          duplicates.add(name(md) + ":" + (i + 1) + " repeats line " + first + ": " + line);
        }
        parents[level] = h.group(2);
        Arrays.fill(parents, level + 1, parents.length, null);
      }
    }
    assertThat(duplicates).as("headings repeated in one file").isEmpty();
  }

  @Test
  void everyBinScriptTheDocsNameExists() {
    List<String> missing = new ArrayList<>();
    int named = 0;
    for (Path md : markdownFiles()) {
      Matcher m = BIN.matcher(String.join("\n", lines(md)));
      while (m.find()) {
        named++;
        if (!isScript(m.group(1))) {
          missing.add(name(md) + ": " + m.group());
        }
      }
    }
    assertThat(named).isGreaterThan(50);
    assertThat(missing).as("bin/ scripts named by the docs but not in the checkout").isEmpty();
  }

  @Test
  void noDocSaysAShippedOperatorToolIsNotBuilt() {
    List<String> stale = new ArrayList<>();
    for (Map.Entry<Pattern, String> tool : SHIPPED.entrySet()) {
      assertThat(HOME.resolve(tool.getValue())).as("shipped tool").isRegularFile();
      for (Path md : markdownFiles()) {
        if (md.equals(HOME.resolve("CHANGELOG.md"))) {
          continue; // a history: it may say what an earlier version lacked
        }
        String text = String.join(" ", lines(md)).replaceAll("\\s+", " ");
        for (String sentence : text.split("(?<=[.!?;])\\s+")) {
          if (ABSENT.matcher(sentence).find() && tool.getKey().matcher(sentence).find()) {
            stale.add(name(md) + ": " + sentence + " (" + tool.getValue() + " exists)");
          }
        }
      }
    }
    assertThat(stale).as("sentences saying a shipped tool is not built").isEmpty();
  }

  private static boolean isScript(String script) {
    if (Files.exists(HOME.resolve("bin").resolve(script))) {
      return true;
    }
    try (Stream<Path> modules = Files.list(HOME)) {
      return modules.anyMatch(m -> Files.isRegularFile(m.resolve("src/dist/bin").resolve(script)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> markdownFiles() {
    try (Stream<Path> files = Files.walk(HOME)) {
      List<Path> md =
          files
              .filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
              .filter(p -> !skipped(HOME.relativize(p)))
              .sorted()
              .toList();
      assertThat(md).contains(HOME.resolve("README.md"), HOME.resolve("docs/operations.md"));
      return md;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean skipped(Path relative) {
    for (Path part : relative) {
      String p = part.toString();
      if (p.startsWith(".") || p.equals("target") || p.equals("node_modules")) {
        return true;
      }
    }
    return false;
  }

  private static List<String> lines(Path md) {
    try {
      return Files.readAllLines(md);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String name(Path md) {
    return HOME.relativize(md).toString();
  }
}
