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
public final class ConfigLoader {
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

  /**
   * {@code api.tokens} as a list {@code name:token:role,...} (or the older {@code token:role},
   * named after a hash of the token), or as a map: {@code api.tokens.<name>: token:role} (or the
   * older {@code api.tokens.<token>: role}). A two-field entry is the older form only when its last
   * field is a role; any other is refused. A message about an entry never holds its token: it names
   * the entry by its name, or, where a field may be the token (a two-field entry, a name that looks
   * like a token, a role that is not one), by its position alone.
   */
  private static List<ApiToken> tokens(ConfigSource c) {
    Map<String, String> byName = new TreeMap<>();
    c.values()
        .forEach(
            (k, v) -> {
              String name = ConfigKeys.freeSegment("api.tokens.*", k);
              if (name != null) {
                byName.put(name, v);
              }
            });
    List<ApiToken> out = new ArrayList<>();
    if (byName.isEmpty()) {
      String list = c.string("api.tokens");
      String[] entries = (list == null ? "" : list).split(",", -1);
      for (int i = 0; i < entries.length; i++) {
        if (!entries[i].isBlank()) {
          out.add(listEntry(i + 1, entries[i]));
        }
      }
    } else {
      int i = 0;
      for (Map.Entry<String, String> e : byName.entrySet()) {
        out.add(mapEntry(++i, e.getKey(), e.getValue()));
      }
    }
    return out;
  }

  private static final String SYNTAX =
      "; the syntax is name:token:role (role viewer, operator or admin; a token holds no ':' or"
          + " ',')";

  /** Entry {@code n} (from 1) of the comma-separated list. */
  private static ApiToken listEntry(int n, String entry) {
    String where = P + "api.tokens: entry " + n;
    String[] f = entry.split(":", -1);
    if (f.length < 2) {
      throw new SchedulerException(where + " has no ':' (not shown: it may be a token)" + SYNTAX);
    }
    if (f.length == 2) {
      return older(where, f[0].trim(), f[1]);
    }
    String name = f[0].trim();
    String shown = name.matches("[a-zA-Z0-9._@-]{1,64}") ? ApiToken.label(name) : null;
    if (f.length > 3) {
      throw new SchedulerException(
          where
              + (shown == null ? "" : " (" + shown + ")")
              + " has "
              + f.length
              + " fields separated by ':' (not shown: one is a token)"
              + SYNTAX);
    }
    return new ApiToken(name, f[1].trim(), role(where, shown, f[2]));
  }

  /** Entry {@code n} (from 1, in key order) of the map {@code api.tokens.<key>: value}. */
  private static ApiToken mapEntry(int n, String key, String value) {
    String where = P + "api.tokens.*: entry " + n + " in key order";
    String[] f = value.split(":", -1);
    if (f.length == 1) {
      return older(where, key.trim(), value);
    }
    String name = key.trim();
    String shown = name.matches("[a-zA-Z0-9._@-]{1,64}") ? ApiToken.label(name) : null;
    if (f.length > 2) {
      throw new SchedulerException(
          where
              + (shown == null ? "" : " (" + shown + ")")
              + " has "
              + f.length
              + " fields separated by ':' in its value (not shown: one is a token); write"
              + " api.tokens.<name>: token:role, a token holds no ':' or ','");
    }
    return new ApiToken(name, f[0].trim(), role(where, shown, f[1]));
  }

  /**
   * The older form, {@code token:role} (or {@code api.tokens.<token>: role}): accepted only when
   * {@code role} is a role, for {@code name:token} with the role left out looks the same.
   */
  private static ApiToken older(String where, String token, String role) {
    SchedulerConfig.Role r = roleOrNull(role);
    if (r == null) {
      throw new SchedulerException(
          where
              + " has two fields and the second is not a role (viewer, operator or admin): was the"
              + " role left out? Neither field is shown, either may be the token"
              + SYNTAX);
    }
    return ApiToken.unnamed(token, r);
  }

  private static SchedulerConfig.Role role(String where, String shown, String role) {
    SchedulerConfig.Role r = roleOrNull(role);
    if (r == null) {
      throw new SchedulerException(
          where
              + (shown == null ? "" : " (" + shown + ")")
              + ": the role, the last field, must be viewer, operator or admin (not shown: it may"
              + " be a token in the wrong place)");
    }
    return r;
  }

  private static SchedulerConfig.Role roleOrNull(String role) {
    String r = role.trim().toUpperCase(Locale.ROOT);
    for (SchedulerConfig.Role candidate : SchedulerConfig.Role.values()) {
      if (candidate.name().equals(r)) {
        return candidate;
      }
    }
    return null;
  }
}
