package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The web console's assets (ConsoleController): within the 500 KB gzipped budget with the chart
 * library, no inline script or event handler (the CSP forbids them), no HTML built from strings,
 * and only paths ConsoleController serves.
 */
class ConsoleAssetsTest {
  static final long BUDGET = 500 * 1024;

  static List<Path> assets() throws IOException, URISyntaxException {
    Path root = Path.of(ConsoleAssetsTest.class.getResource(ConsoleController.ROOT).toURI());
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).sorted().toList();
    }
  }

  static long gzipped(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    }
    return out.size();
  }

  @Test
  void everyAssetGzippedWithTheChartLibraryFitsTheBudget() throws Exception {
    long raw = 0;
    long zipped = 0;
    List<byte[]> all = new ArrayList<>();
    for (Path p : assets()) {
      all.add(Files.readAllBytes(p));
    }
    for (String vendor : List.of("uPlot.iife.min.js", "uPlot.min.css")) {
      var bytes = ConsoleFiles.read(ConsoleController.UPLOT + vendor);
      assertThat(bytes).as(vendor + " in the uPlot webjar").isPresent();
      all.add(bytes.get());
    }
    for (byte[] b : all) {
      raw += b.length;
      zipped += gzipped(b);
    }
    System.out.printf(
        "console assets: %d files, %.1f KB, %.1f KB gzipped (budget %d KB)%n",
        all.size(), raw / 1024.0, zipped / 1024.0, BUDGET / 1024);
    assertThat(zipped).isLessThanOrEqualTo(BUDGET);
  }

  @Test
  void noInlineScriptNoInlineHandlerNoHtmlFromStrings() throws Exception {
    Pattern inlineScript = Pattern.compile("<script(?![^>]*\\bsrc=)[^>]*>");
    Pattern handlerAttr = Pattern.compile("<[^>]+\\son[a-z]+\\s*=", Pattern.CASE_INSENSITIVE);
    for (Path p : assets()) {
      String text = Files.readString(p, StandardCharsets.UTF_8);
      String name = p.getFileName().toString();
      if (name.endsWith(".html")) {
        assertThat(inlineScript.matcher(text).find()).as(name + " inline script").isFalse();
        assertThat(handlerAttr.matcher(text).find()).as(name + " inline handler").isFalse();
        assertThat(text).as(name).doesNotContain("style=");
      }
      if (name.endsWith(".js")) {
        assertThat(text)
            .as(name)
            .doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write")
            .doesNotContain("eval(", "new Function");
      }
    }
  }

  @Test
  void everyAssetIsAPathTheControllerServes() throws Exception {
    Path root = Path.of(ConsoleAssetsTest.class.getResource(ConsoleController.ROOT).toURI());
    for (Path p : assets()) {
      String rel = root.relativize(p).toString().replace('\\', '/');
      assertThat(ConsoleController.SAFE.matcher(rel).matches()).as(rel).isTrue();
    }
    assertThat(ConsoleController.SAFE.matcher("../openapi.yml").matches()).isFalse();
    assertThat(ConsoleController.SAFE.matcher("js/app.js").matches()).isTrue();
    assertThat(TokenFilter.consoleAsset(io.micronaut.http.HttpMethod.GET, "/console/js/app.js"))
        .isTrue();
    assertThat(TokenFilter.consoleAsset(io.micronaut.http.HttpMethod.POST, "/console/x.js"))
        .isFalse();
    assertThat(TokenFilter.consoleAsset(io.micronaut.http.HttpMethod.GET, "/console/../api/x"))
        .isFalse();
    assertThat(TokenFilter.consoleAsset(io.micronaut.http.HttpMethod.GET, "/api/tasks")).isFalse();
  }
}
