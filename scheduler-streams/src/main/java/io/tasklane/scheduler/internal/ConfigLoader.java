package io.tasklane.scheduler.internal;

import io.micronaut.context.env.Environment;
import io.tasklane.core.TopicReplication;
import io.tasklane.core.config.ConfigException;
import io.tasklane.core.config.ConfigKeys;
import io.tasklane.core.config.ConfigSource;
import io.tasklane.core.config.MicronautFileLayer;
import io.tasklane.scheduler.AlertConfig;
import io.tasklane.scheduler.ApiSettings;
import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.ProcessingGuarantee;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
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
final class ConfigLoader {
  private static final String P = SchedulerConfig.PREFIX + ".";

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
              "topic-refresh-interval",
              "advertised-host",
              "api.tokens",
              "api.tokens.*",
              "max-waiters-per-task",
              "inter-instance-token",
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
              TopicReplication.FACTOR_KEY,
              TopicReplication.MIN_ISR_KEY,
              TopicReplication.ALLOW_UNSAFE_KEY),
          List.of("kafka."));

  private ConfigLoader() {}

  /** Layers the process environment and system properties over {@code env}'s other sources. */
  static SchedulerConfig load(Environment env) {
    return load(fileLayer(env), System.getProperties(), System.getenv());
  }

  /** Layers {@code env} over {@code system} over {@code file} over the defaults. */
  static SchedulerConfig load(
      Map<String, String> file, Properties system, Map<String, String> env) {
    try {
      return build(ConfigSource.layer(KEYS, file, system, env));
    } catch (ConfigException e) {
      throw new SchedulerException(e.getMessage(), e);
    }
  }

  /**
   * The {@code tasklane.scheduler.*} values of every Micronaut property source but the environment
   * and the system properties, which are layered above by the one rule; placeholders resolved.
   */
  static Map<String, String> fileLayer(Environment env) {
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
        .numStandbyReplicas(
            c.integer("num-standby-replicas", SchedulerConfig.DEFAULT_NUM_STANDBY_REPLICAS))
        .stateDir(c.string("state-dir") == null ? null : Path.of(c.string("state-dir")))
        .retention(c.duration("retention"))
        .snoozeCap(c.integer("snooze-cap", SchedulerConfig.DEFAULT_SNOOZE_CAP))
        .timeoutGrace(c.duration("timeout-grace"))
        .maxDispatched(c.integer("max-dispatched", SchedulerConfig.DEFAULT_MAX_DISPATCHED))
        .topicRefreshInterval(c.duration("topic-refresh-interval"))
        .advertisedHost(c.string("advertised-host"))
        .kafka(c.passThrough("kafka."))
        .apiTokens(tokens(c))
        .maxWaitersPerTask(
            c.integer("max-waiters-per-task", SchedulerConfig.DEFAULT_MAX_WAITERS_PER_TASK))
        .interInstanceToken(c.string("inter-instance-token"))
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
        .build();
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
      throw new SchedulerException(P + "alerts.webhook.url: '" + url + "' is not a URL");
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

  /**
   * {@code api.tokens} as a list {@code name:token:role,...} (or the older {@code token:role},
   * named after a hash of the token), or as a map: {@code api.tokens.<name>: token:role} (or the
   * older {@code api.tokens.<token>: role}).
   */
  private static List<ApiToken> tokens(ConfigSource c) {
    List<String[]> entries = new ArrayList<>(); // {name or null, token, role}
    Map<String, String> byName = new TreeMap<>();
    c.values()
        .forEach(
            (k, v) -> {
              String name = ConfigKeys.freeSegment("api.tokens.*", k);
              if (name != null) {
                byName.put(name, v);
              }
            });
    if (byName.isEmpty()) {
      String list = c.string("api.tokens");
      for (String entry : (list == null ? "" : list).split(",")) {
        if (!entry.isBlank()) {
          entries.add(split(entry.trim()));
        }
      }
    } else {
      byName.forEach(
          (k, v) ->
              entries.add(
                  v.contains(":")
                      ? new String[] {k, v.substring(0, v.lastIndexOf(':')), after(v)}
                      : new String[] {null, k, v}));
    }
    List<ApiToken> out = new ArrayList<>();
    for (String[] e : entries) {
      SchedulerConfig.Role role = role(e[2]);
      out.add(e[0] == null ? ApiToken.unnamed(e[1], role) : new ApiToken(e[0], e[1], role));
    }
    return out;
  }

  private static String[] split(String entry) {
    int first = entry.indexOf(':');
    int last = entry.lastIndexOf(':');
    if (first < 0) {
      throw new SchedulerException(
          P + "api.tokens: '" + abbreviate(entry) + "' is not name:token:role");
    }
    return first == last
        ? new String[] {null, entry.substring(0, first).trim(), after(entry)}
        : new String[] {
          entry.substring(0, first).trim(), entry.substring(first + 1, last).trim(), after(entry)
        };
  }

  private static String after(String entry) {
    return entry.substring(entry.lastIndexOf(':') + 1).trim();
  }

  private static SchedulerConfig.Role role(String role) {
    try {
      return SchedulerConfig.Role.valueOf(role.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new SchedulerException(
          P + "api.tokens: role '" + role + "' must be viewer, operator or admin");
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 4 ? "****" : s.substring(0, 4) + "****";
  }
}
