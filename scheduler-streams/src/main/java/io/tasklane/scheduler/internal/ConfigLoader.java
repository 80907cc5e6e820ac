package io.tasklane.scheduler.internal;

import io.micronaut.context.env.Environment;
import io.tasklane.core.SecretMasker;
import io.tasklane.core.TopicReplication;
import io.tasklane.core.config.ConfigException;
import io.tasklane.core.config.ConfigKeys;
import io.tasklane.core.config.ConfigSource;
import io.tasklane.core.config.MicronautFileLayer;
import io.tasklane.scheduler.AlertConfig;
import io.tasklane.scheduler.ApiSettings;
import io.tasklane.scheduler.ProcessingGuarantee;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Reads {@link SchedulerConfig} from {@code tasklane.scheduler.*}: environment variables, then
 * system properties, then the Micronaut configuration (application.yml and the application's other
 * property sources), then the defaults. Unknown keys are refused. Stateless.
 */
public final class ConfigLoader {
  static final String P = SchedulerConfig.PREFIX + ".";

  /** Every setting of the scheduler. */
  static final ConfigKeys KEYS =
      ConfigKeys.of(
          P,
          List.of(
              "bootstrap-servers",
              "namespace",
              "application-id",
              "partitions",
              "punctuation-interval",
              "scan-bound",
              "processing-guarantee",
              "commit-interval",
              "store-memory-mb",
              "schedule-lead",
              "num-standby-replicas",
              "state-dir",
              "retention",
              "snooze-cap",
              "timeout-grace",
              "max-dispatched",
              "adaptive-window",
              "priority-aging",
              "topic-refresh-interval",
              "advertised-host",
              "api.tokens",
              "api.tokens.*",
              "max-waiters-per-task",
              "inter-instance-token",
              "inter-instance-trust-store",
              "inter-instance-trust-store-password",
              "inter-instance-trust-store-type",
              "audit-retention",
              "api.redact.*",
              "api.viewer-payloads",
              "api.session-ttl",
              "api.max-sessions",
              "worker-group-prefix",
              "worker-lost-heartbeats",
              "search-scan-bound",
              "log-lines-per-task",
              "log-bytes-per-task",
              "alerts.webhook.url",
              "alerts.webhook.secret",
              "alerts.webhook.allow-http",
              "alerts.group-window",
              "alerts.dead",
              "alerts.queue-capacity",
              "alerts.no-worker",
              "alerts.relay-lag",
              "alerts.backlog.threshold",
              "alerts.backlog.for",
              HandlerConfig.MAX_PER_KEY,
              HandlerConfig.ON_DEAD,
              HandlerConfig.WEIGHTS,
              HandlerConfig.RATE,
              HandlerConfig.BURST,
              HandlerConfig.LIMIT_RATE,
              HandlerConfig.LIMIT_BURST,
              TopicReplication.FACTOR_KEY,
              TopicReplication.MIN_ISR_KEY,
              TopicReplication.ALLOW_UNSAFE_KEY),
          List.of("kafka."));

  private ConfigLoader() {}

  /** Layers the process environment and system properties over {@code env}'s other sources. */
  public static SchedulerConfig load(Environment env) {
    return load(fileLayer(env), System.getProperties(), System.getenv());
  }

  /** Layers {@code env} over {@code system} over {@code file} over the defaults. */
  public static SchedulerConfig load(
      Map<String, String> file, Properties system, Map<String, String> env) {
    try {
      return build(ConfigSource.layer(KEYS, file, system, env));
    } catch (ConfigException e) {
      if (e.key().toLowerCase(Locale.ROOT).startsWith(P + "api.token")) {
        // a mistyped api.tokens.<name or token>: the rest of the key may be the older form's token
        throw new SchedulerException(
            P
                + "api.token…: unknown setting (the rest of the key is not shown: it may hold a"
                + " token); did you mean "
                + P
                + "api.tokens (name:token:role,...) or "
                + P
                + "api.tokens.<name> (token:role)?");
      }
      throw new SchedulerException(e.getMessage(), e);
    }
  }

  /**
   * The {@code tasklane.scheduler.*} values of every Micronaut property source but the environment
   * and the system properties, which are layered above by the one rule; placeholders resolved.
   */
  public static Map<String, String> fileLayer(Environment env) {
    return MicronautFileLayer.read(env, P);
  }

  private static SchedulerConfig build(ConfigSource c) {
    return SchedulerConfig.builder()
        .bootstrapServers(c.string("bootstrap-servers"))
        .namespace(c.string("namespace"))
        .applicationId(c.string("application-id"))
        .partitions(c.integer("partitions", SchedulerConfig.DEFAULT_PARTITIONS))
        .punctuationInterval(c.duration("punctuation-interval"))
        .scanBound(c.integer("scan-bound", SchedulerConfig.DEFAULT_SCAN_BOUND))
        .processingGuarantee(c.enumValue("processing-guarantee", ProcessingGuarantee.class))
        .commitInterval(c.duration("commit-interval"))
        .storeMemoryMb(c.integer("store-memory-mb", SchedulerConfig.DEFAULT_STORE_MEMORY_MB))
        .replication(TopicReplication.read(c))
        .scheduleLead(c.duration("schedule-lead"))
        .priorityAging(c.duration("priority-aging"))
        .numStandbyReplicas(
            c.integer("num-standby-replicas", SchedulerConfig.DEFAULT_NUM_STANDBY_REPLICAS))
        .stateDir(c.string("state-dir") == null ? null : Path.of(c.string("state-dir")))
        .retention(c.duration("retention"))
        .snoozeCap(c.integer("snooze-cap", SchedulerConfig.DEFAULT_SNOOZE_CAP))
        .timeoutGrace(c.duration("timeout-grace"))
        .maxDispatched(c.integer("max-dispatched", SchedulerConfig.DEFAULT_MAX_DISPATCHED))
        .adaptiveWindow(c.bool("adaptive-window", true))
        .topicRefreshInterval(c.duration("topic-refresh-interval"))
        .advertisedHost(c.string("advertised-host"))
        .kafka(c.passThrough("kafka."))
        .apiTokens(TokenSettings.tokens(c))
        .maxWaitersPerTask(
            c.integer("max-waiters-per-task", SchedulerConfig.DEFAULT_MAX_WAITERS_PER_TASK))
        .interInstanceToken(c.string("inter-instance-token"))
        .interInstanceTrustStore(trustStore(c))
        .api(api(c))
        .workerGroupPrefix(c.string("worker-group-prefix"))
        .workerLostHeartbeats(
            c.integer("worker-lost-heartbeats", SchedulerConfig.DEFAULT_WORKER_LOST_HEARTBEATS))
        .searchScanBound(c.integer("search-scan-bound", SchedulerConfig.DEFAULT_SEARCH_SCAN_BOUND))
        .logLinesPerTask(
            c.integer("log-lines-per-task", SchedulerConfig.DEFAULT_LOG_LINES_PER_TASK))
        .logBytesPerTask(
            c.integer("log-bytes-per-task", SchedulerConfig.DEFAULT_LOG_BYTES_PER_TASK))
        .alerts(alerts(c))
        .handlers(HandlerConfig.handlers(c))
        .limits(HandlerConfig.limits(c))
        .build();
  }

  /** {@code inter-instance-trust-store*}, or null when no file is named. */
  private static io.tasklane.scheduler.TrustStore trustStore(ConfigSource c) {
    String path = c.string("inter-instance-trust-store");
    return path == null
        ? null
        : new io.tasklane.scheduler.TrustStore(
            Path.of(path),
            c.string("inter-instance-trust-store-password"),
            c.string("inter-instance-trust-store-type"));
  }

  /** {@code api.*} beyond the tokens, and {@code audit-retention}. */
  private static ApiSettings api(ConfigSource c) {
    Map<String, List<String>> redact = new TreeMap<>();
    c.values()
        .forEach(
            (k, v) -> {
              String handler = ConfigKeys.freeSegment("api.redact.*", k);
              if (handler != null) {
                redact.put(
                    handler,
                    Arrays.stream(v.split(","))
                        .map(String::trim)
                        .filter(s -> !s.isEmpty())
                        .toList());
              }
            });
    return new ApiSettings(
        redact,
        c.bool("api.viewer-payloads", false),
        c.duration("audit-retention"),
        c.duration("api.session-ttl"),
        c.integer("api.max-sessions", ApiSettings.DEFAULT_MAX_SESSIONS));
  }

  private static AlertConfig alerts(ConfigSource c) {
    String url = c.string("alerts.webhook.url");
    URI uri;
    try {
      uri = url == null || url.isBlank() ? null : new URI(url.trim());
    } catch (URISyntaxException e) {
      // not shown, not even masked: where its credentials sit in a string that is no URL is unknown
      throw new SchedulerException(
          P
              + "alerts.webhook.url: '"
              + SecretMasker.MASK
              + "' is not a URL ("
              + e.getReason()
              + (e.getIndex() < 0
                  ? ""
                  : " at character " + (e.getIndex() + 1) + " of " + url.trim().length())
              + "; the value is not shown, it may hold a secret)");
    }
    return new AlertConfig(
        uri,
        c.string("alerts.webhook.secret"),
        c.bool("alerts.webhook.allow-http", false),
        c.duration("alerts.group-window"),
        list(c.string("alerts.dead")),
        c.integer("alerts.queue-capacity", AlertConfig.DEFAULT_QUEUE_CAPACITY),
        list(c.string("alerts.no-worker")),
        c.duration("alerts.relay-lag"),
        c.string("alerts.backlog.threshold") == null
            ? null
            : new AlertConfig.Backlog(
                c.number("alerts.backlog.threshold", 0), c.duration("alerts.backlog.for")));
  }

  /** A comma-separated list, blanks dropped; null: empty. */
  private static List<String> list(String value) {
    return value == null
        ? List.of()
        : Arrays.stream(value.split(",")).map(String::trim).filter(h -> !h.isEmpty()).toList();
  }
}
