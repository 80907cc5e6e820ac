package io.tasklane.core.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Tasklane app's OpenTelemetry (the relay's, the scheduler's, the worker's), configured the
 * OpenTelemetry way ({@code otel.*} system properties, {@code OTEL_*} environment variables, read
 * by the SDK's autoconfiguration) and off unless asked for: an SDK is built only when {@code
 * otel.traces.exporter} names an exporter other than {@code none}, or {@code otel.sdk.disabled} is
 * explicitly {@code false}; {@code otel.sdk.disabled=true} always wins. Off, the tracer is
 * OpenTelemetry's no-op one and nothing is exported. Created on the start-up thread; its tracer is
 * thread-safe; {@link #close()} flushes the spans not yet exported.
 *
 * <p>The OpenTelemetry SDK and its autoconfiguration are optional dependencies of tasklane-core: an
 * app that uses this class declares them (the relay, the scheduler and the worker runtime do).
 */
public final class Tracing implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Tracing.class);
  private final OpenTelemetry otel;
  private final OpenTelemetrySdk sdk; // null: nothing to flush (off, or given by the caller)
  private final Tracer tracer;
  private final boolean enabled;

  private Tracing(String scope, OpenTelemetry otel, OpenTelemetrySdk sdk, boolean enabled) {
    this.otel = otel;
    this.sdk = sdk;
    this.tracer = otel.getTracerProvider().get(scope);
    this.enabled = enabled;
  }

  /** No spans, no cost beyond a no-op call per hop. */
  public static Tracing off() {
    return new Tracing("io.tasklane", OpenTelemetry.noop(), null, false);
  }

  /**
   * Spans of instrumentation scope {@code scope} through {@code otel}, which the caller owns
   * (tests).
   */
  public static Tracing of(String scope, OpenTelemetry otel) {
    return new Tracing(scope, Objects.requireNonNull(otel, "otel"), null, true);
  }

  /**
   * From the process's system properties and environment; see the class comment.
   *
   * @param scope the instrumentation scope of the app's spans, e.g. {@code io.tasklane.relay}
   * @param serviceName {@code otel.service.name} unless the settings name one
   */
  public static Tracing fromEnvironment(String scope, String serviceName) {
    return fromSettings(scope, serviceName, Tracing::setting);
  }

  /** As {@link #fromEnvironment} over {@code settings} ({@code otel.*} key → value or null). */
  public static Tracing fromSettings(
      String scope, String serviceName, UnaryOperator<String> settings) {
    if (!wanted(settings)) {
      return off();
    }
    // Not registered as GlobalOpenTelemetry: the application (or an agent) may own that.
    AutoConfiguredOpenTelemetrySdk auto =
        AutoConfiguredOpenTelemetrySdk.builder()
            .addPropertiesSupplier(() -> defaults(serviceName))
            .build();
    OpenTelemetrySdk sdk = auto.getOpenTelemetrySdk();
    LOG.info("tracing on: exporter {}", settings.apply("otel.traces.exporter"));
    return new Tracing(scope, sdk, sdk, true);
  }

  /** The rule of the class comment, over {@code otel.*} keys. */
  public static boolean wanted(UnaryOperator<String> settings) {
    String disabled = settings.apply("otel.sdk.disabled");
    if ("true".equalsIgnoreCase(disabled)) {
      return false;
    }
    String exporter = settings.apply("otel.traces.exporter");
    if (exporter != null && !exporter.isBlank()) {
      return !exporter.trim().equalsIgnoreCase("none");
    }
    return "false".equalsIgnoreCase(disabled);
  }

  /** A system property, else its environment variable ({@code otel.a.b} → {@code OTEL_A_B}). */
  public static String setting(String key) {
    String value = System.getProperty(key);
    return value != null ? value : System.getenv(key.toUpperCase().replace('.', '_'));
  }

  /** Below every system property and environment variable: only traces, named for the app. */
  private static Map<String, String> defaults(String serviceName) {
    return Map.of(
        "otel.service.name", serviceName,
        "otel.metrics.exporter", "none",
        "otel.logs.exporter", "none");
  }

  /** Whether spans are recorded and exported. */
  public boolean enabled() {
    return enabled;
  }

  /** The app's tracer; thread-safe. */
  public Tracer tracer() {
    return tracer;
  }

  /** For propagators and context; the no-op one when off. */
  public OpenTelemetry openTelemetry() {
    return otel;
  }

  /** Flushes and shuts down the SDK this class built; called once, on the shutdown thread. */
  @Override
  public void close() {
    if (sdk != null) {
      sdk.close();
    }
  }
}
