package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.http.MutableHttpResponse;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The console's static file handler under a flood of names that do not exist (docs/bad-inputs.md,
 * "console path floods"): every one is 404 and none leaves anything behind, while the real files
 * are still served with their bytes and content type.
 */
class ConsolePathFloodTest {
  static final int FLOOD = 100_000;

  /** More than the table and the answers in flight could ever hold; a cache of misses is ~10 MB. */
  static final long RETAINED_BOUND = 4L * 1024 * 1024;

  static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html",
          "css", "text/css",
          "js", "text/javascript",
          "svg", "image/svg+xml");

  /** Every file the console has: the directory's and the chart library's. */
  static List<String> realFiles() {
    List<String> all = new ArrayList<>(ConsoleFiles.list(ConsoleController.ROOT));
    ConsoleFiles.VENDOR.forEach(v -> all.add("vendor/" + v));
    return all;
  }

  /** The heap in use after collecting the garbage (measured on the test's thread). */
  static long retainedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static String unknown(int i) {
    return switch (i % 4) {
      case 0 -> "flood-" + i + ".js";
      case 1 -> "js/pages/flood-" + i + ".js";
      case 2 -> "vendor/uPlot.flood-" + i + ".js";
      default -> "css/flood-" + i + ".css";
    };
  }

  @Test
  void aHundredThousandUnknownNamesAre404AndLeaveTheFileTableAndHeapAsTheyWere() {
    ConsoleController controller = new ConsoleController();
    int real = realFiles().size();
    for (int i = 0; i < 1_000; i++) {
      controller.asset("warm-up-" + i + ".js"); // loads the classes the loop needs
    }
    long before = retainedHeap();
    for (int i = 0; i < FLOOD; i++) {
      MutableHttpResponse<?> r = controller.asset(unknown(i));
      assertThat(r.code()).as(unknown(i)).isEqualTo(404);
    }
    long after = retainedHeap();
    assertThat(controller.tableSize()).isEqualTo(real);
    assertThat(after - before)
        .as("heap retained by %d unknown names", FLOOD)
        .isLessThan(RETAINED_BOUND);
    Reference.reachabilityFence(controller);
  }

  @Test
  void everyRealFileIsServedWithItsBytesAndContentType() {
    ConsoleController controller = new ConsoleController();
    List<String> files = realFiles();
    assertThat(files).contains("index.html", "js/app.js", "css/console.css", "favicon.svg");
    for (String path : files) {
      MutableHttpResponse<?> r = controller.asset(path);
      assertThat(r.code()).as(path).isEqualTo(200);
      String ext = path.substring(path.lastIndexOf('.') + 1);
      assertThat(r.getHeaders().get("Content-Type")).as(path).startsWith(TYPES.get(ext));
      String resource =
          path.startsWith("vendor/")
              ? ConsoleController.UPLOT + path.substring("vendor/".length())
              : ConsoleController.ROOT + path;
      assertThat(r.getBody(byte[].class)).as(path).hasValue(ConsoleFiles.read(resource).get());
    }
    assertThat(controller.index().getBody(byte[].class))
        .isEqualTo(controller.asset("index.html").getBody(byte[].class));
    assertThat(controller.asset("").code()).isEqualTo(200);
    assertThat(controller.asset("js/../index.html").code()).isEqualTo(404);
    assertThat(controller.tableSize()).isEqualTo(files.size());
  }
}
