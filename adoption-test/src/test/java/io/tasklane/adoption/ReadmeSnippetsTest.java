package io.tasklane.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * README's Java snippets compile: each is preceded by {@code <!-- source: PATH -->} naming a source
 * file the build compiles, and its lines appear in that file in the same order, consecutively
 * (compared without indentation, since the README shows methods outside their class).
 */
class ReadmeSnippetsTest {
  private static final Path HOME =
      Path.of(System.getProperty("tasklane.home", "..")).toAbsolutePath().normalize();
  private static final Pattern BLOCK =
      Pattern.compile("(<!-- source: (\\S+) -->\\n)?```java\\n(.*?)\\n```", Pattern.DOTALL);

  @Test
  void everyJavaSnippetOfTheReadmeIsTheTextOfACompiledSourceFile() throws IOException {
    String readme = Files.readString(HOME.resolve("README.md"));
    Matcher m = BLOCK.matcher(readme);
    int blocks = 0;
    while (m.find()) {
      blocks++;
      int line = readme.substring(0, m.start()).split("\n", -1).length;
      assertThat(m.group(2))
          .as("README line %d: a ```java block needs <!-- source: PATH -->", line)
          .isNotNull();
      Path source = HOME.resolve(m.group(2));
      assertThat(source.toString()).as("README line %d", line).contains("/src/").endsWith(".java");
      assertThat(source).as("README line %d names %s", line, source).isRegularFile();
      List<String> snippet = stripped(m.group(3));
      List<String> file = stripped(Files.readString(source));
      assertThat(Collections.indexOfSubList(file, snippet))
          .as("README line %d: the snippet is the text of %s", line, m.group(2))
          .isNotNegative();
    }
    assertThat(blocks).isGreaterThanOrEqualTo(2);
  }

  private static List<String> stripped(String text) {
    List<String> out = new ArrayList<>();
    for (String l : text.split("\n")) {
      out.add(l.strip());
    }
    return out;
  }
}
