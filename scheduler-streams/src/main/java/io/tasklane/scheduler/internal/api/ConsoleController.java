package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import java.net.URI;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The web console's static assets (docs/console.md): {@code GET /console/<path>} answers the
 * classpath resource {@value #ROOT}{@code <path>} ({@code /console} answers {@code index.html},
 * which names its files by absolute path), and {@code /console/vendor/uPlot.*} the chart library
 * from its webjar. {@code GET /} redirects to {@code /console/}. No token is needed (the assets
 * hold no data; every datum comes from {@code /api/**} with the session cookie; {@link TokenFilter}
 * lets only these GET and HEAD paths through). A path outside {@link #SAFE} (a {@code ..} segment,
 * an unknown extension) is 404, and so is any name that is not one of the files {@link
 * ConsoleFiles} read once when the controller was built: a miss is looked up, never cached, so a
 * flood of made-up names holds no memory. Answered on the event loop.
 */
@Controller
@Internal
public class ConsoleController {
  /** The console's assets on the classpath. */
  static final String ROOT = "/io/tasklane/scheduler/console/";

  /** The uPlot webjar's files, served under {@code /console/vendor/}. */
  static final String UPLOT = "/META-INF/resources/webjars/uplot/1.6.30/dist/";

  /** The paths served: segments of letters, digits, {@code -_.} with a known extension. */
  static final Pattern SAFE =
      Pattern.compile(
          "([A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\\.(html|css|js|png|svg)");

  /** The fixed table of files, read on the thread that builds the controller. */
  private final ConsoleFiles files = ConsoleFiles.load();

  /** How many files the controller serves; fixed when it is built. */
  int tableSize() {
    return files.size();
  }

  @Get
  HttpResponse<?> root() {
    return HttpResponse.seeOther(URI.create("/console/"));
  }

  /** The page, at {@code /console} and {@code /console/} (Micronaut ignores a trailing slash). */
  @Get("/console")
  MutableHttpResponse<?> index() {
    return asset("index.html");
  }

  @Get("/console/{+path}")
  MutableHttpResponse<?> asset(@PathVariable String path) {
    if (path.isEmpty()) {
      return asset("index.html");
    }
    if (!SAFE.matcher(path).matches() || path.contains("..")) {
      return ApiErrors.json(HttpStatus.NOT_FOUND.getCode(), "not-found", "no console asset");
    }
    Optional<ConsoleFiles.File> file = files.find(path);
    if (file.isEmpty()) {
      return ApiErrors.json(HttpStatus.NOT_FOUND.getCode(), "not-found", "no console asset");
    }
    return HttpResponse.ok(file.get().bytes())
        .header("Content-Type", file.get().type())
        .header("Cache-Control", "no-cache");
  }
}
