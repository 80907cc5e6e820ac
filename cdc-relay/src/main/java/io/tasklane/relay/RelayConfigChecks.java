package io.tasklane.relay;

import io.tasklane.core.SecretMasker;
import io.tasklane.core.config.Durations;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;

/** The checks of {@link RelayConfig}'s settings; each failure names the setting. Stateless. */
final class RelayConfigChecks {
  private static final Pattern SLOT = Pattern.compile("[a-z0-9_]{1,63}");
  private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private RelayConfigChecks() {}

  /** Refuses a connector other than auto that does not match the URL's scheme. */
  static void connectorMatches(RelayConfig.ConnectorKind connector, String scheme, String url) {
    boolean pg = scheme.equals("postgresql");
    check(
        "connector",
        connector == RelayConfig.ConnectorKind.AUTO
            || pg == (connector == RelayConfig.ConnectorKind.POSTGRESQL),
        connector.name().toLowerCase(Locale.ROOT) + " does not match the jdbc-url '" + url + "'");
  }

  /**
   * {@code value}, or {@code tasklane_relay_<database>} (plus {@code _<schema>} outside {@code
   * public}) in slot-name characters when unset; refused unless it is a valid PostgreSQL
   * replication slot name.
   */
  /**
   * The default engine name, {@code tasklane_relay_<db>}: another schema's outbox is another relay
   * group, with its own engine name (offsets), slot and lock, so {@code _<schema>} is appended
   * outside {@code public}.
   */
  static String defaultName(String db, String schema) {
    return "tasklane_relay_" + db + (schema.equals(RelayConfig.DEFAULT_SCHEMA) ? "" : "_" + schema);
  }

  static String slotName(String value, String db, String schema) {
    String base = schema.equals(RelayConfig.DEFAULT_SCHEMA) ? db : db + "_" + schema;
    String slot = value == null || value.isEmpty() ? defaultSlotName(base) : value;
    check(
        "slot-name",
        SLOT.matcher(slot).matches(),
        "'"
            + slot
            + "' must match "
            + SLOT.pattern()
            + " (PostgreSQL replication slot names: lower-case letters, digits, underscores)");
    return slot;
  }

  /** {@code value}, or {@code public} when unset; a schema other than public on PostgreSQL only. */
  static String schema(String value, boolean postgres) {
    String schema = value == null || value.isEmpty() ? RelayConfig.DEFAULT_SCHEMA : value;
    check(
        "schema",
        SCHEMA.matcher(schema).matches(),
        "'"
            + schema
            + "' must match "
            + SCHEMA.pattern()
            + " (PostgreSQL folds unquoted names to lower case)");
    check(
        "schema",
        postgres || schema.equals(RelayConfig.DEFAULT_SCHEMA),
        "is for PostgreSQL only; on MariaDB/MySQL the database of the jdbc-url holds the table");
    return schema;
  }

  /** {@code value} (or {@code dflt} when 0), refused outside 1 to 100. */
  static int percent(String key, int value, int dflt) {
    int v = value == 0 ? dflt : value;
    check(key, v >= 1 && v <= 100, v + " is outside 1 to 100");
    return v;
  }

  static String defaultSlotName(String db) {
    String slot = ("tasklane_relay_" + db).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    return slot.length() <= 63
        ? slot
        : slot.substring(0, 50) + "_" + Integer.toHexString(slot.hashCode());
  }

  /** {@code value}, refused when it is missing or blank. */
  static String require(String key, String value) {
    if (value == null || value.isBlank()) {
      throw new InvalidRelayConfigException(RelayConfig.PREFIX + key, "is required");
    }
    return value;
  }

  /** Refuses {@code key} with {@code message} unless {@code ok}. */
  static void check(String key, boolean ok, String message) {
    if (!ok) {
      throw new InvalidRelayConfigException(RelayConfig.PREFIX + key, message);
    }
  }

  /** {@code value} (or {@code dflt} when null), refused outside {@code minMs} to {@code maxMs}. */
  static Duration within(String key, Duration value, Duration dflt, long minMs, long maxMs) {
    Duration d = value == null ? dflt : value;
    check(
        key,
        d.toMillis() >= minMs && d.toMillis() <= maxMs,
        Durations.format(d)
            + " is outside "
            + Durations.format(Duration.ofMillis(minMs))
            + " to "
            + Durations.format(Duration.ofMillis(maxMs)));
    return d;
  }

  /** {@link RelayConfig#toString()}: no password; secret-like keys and URL credentials masked. */
  static String describe(RelayConfig c) {
    return "RelayConfig[jdbcUrl="
        + SecretMasker.maskText(c.jdbcUrl())
        + ", username="
        + c.username()
        + ", bootstrapServers="
        + c.bootstrapServers()
        + ", namespace="
        + c.namespace()
        + ", connector="
        + c.connector()
        + ", name="
        + c.name()
        + ", serverId="
        + c.serverId()
        + ", table="
        + c.qualifiedTable()
        + (c.postgres()
            ? ", slotName=" + c.slotName() + ", slotWarnPercent=" + c.slotWarnPercent()
            : "")
        + ", pollInterval="
        + c.pollInterval()
        + ", retention="
        + c.retention()
        + ", purgeInterval="
        + c.purgeInterval()
        + ", maxPayloadBytes="
        + c.maxPayloadBytes()
        + ", httpHost="
        + c.httpHost()
        + ", httpPort="
        + c.httpPort()
        + ", kafka="
        + SecretMasker.mask(c.kafka())
        + ", debezium="
        + SecretMasker.mask(c.debezium())
        + "]";
  }
}
