package io.tasklane.scheduler.internal;

import io.micronaut.core.annotation.Internal;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The web console's static assets (docs/console.md): {@code GET /console/<path>} answers the
 * classpath resource {@value #ROOT}{@code <path>} ({@code /console} answers {@code index.html},
 * which names its files by absolute path), and {@code /console/vendor/uPlot.*} the chart library
 * from its webjar. {@code GET /} redirects to {@code /console/}. No token is needed (the assets
 * hold no data; every datum comes from {@code /api/**} with the session cookie; {@link TokenFilter}
 * lets only these GET and HEAD paths through). A path outside {@link #SAFE} (a {@code ..} segment,
 * an unknown extension) is 404. Assets are read once and kept in memory; answered on the event
 * loop.
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

  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "png", "image/png",
          "svg", "image/svg+xml");

  private final Map<String, Optional<byte[]>> cache = new ConcurrentHashMap<>();

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
      return ApiErrors.json(HttpStatus.NOT_FOUND.getCode(), "not_found", "no console asset");
    }
    String resource = path.startsWith("vendor/uPlot.") ? UPLOT + path.substring(7) : ROOT + path;
    Optional<byte[]> bytes = cache.computeIfAbsent(resource, ConsoleController::read);
    if (bytes.isEmpty()) {
      return ApiErrors.json(HttpStatus.NOT_FOUND.getCode(), "not_found", "no console asset");
    }
    String ext = path.substring(path.lastIndexOf('.') + 1);
    return HttpResponse.ok(bytes.get())
        .header("Content-Type", TYPES.get(ext))
        .header("Cache-Control", "no-cache");
  }

  /** The resource's bytes, or empty when it is not on the classpath. */
  static Optional<byte[]> read(String resource) {
    try (InputStream in = ConsoleController.class.getResourceAsStream(resource)) {
      return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
