package io.tasklane.harness;

import io.tasklane.testkit.LocalPostgres;
import io.tasklane.testkit.LocalStack;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which database holds a run's outbox and the handlers' effects: the stack's MariaDB (binlog) or
 * the stack's private PostgreSQL ({@code wal_level=logical}, started on demand by {@link
 * LocalStack#postgres()}). {@link TasklaneApps#relay} sets the relay's {@code connector} from the
 * JDBC URL. Stateless; any thread.
 */
public enum DatabaseKind {
  /** The stack's MariaDB with ROW binlog (the default). */
  MARIADB("mariadb", "MariaDB", "jdbc:mariadb:", "mariadb"),
  /** The stack's private PostgreSQL with logical decoding (pgoutput). */
  POSTGRESQL("postgres", "PostgreSQL", "jdbc:postgresql:", "postgresql");

  private final String flag;
  private final String label;
  private final String urlPrefix;
  private final String connector;

  DatabaseKind(String flag, String label, String urlPrefix, String connector) {
    this.flag = flag;
    this.label = label;
    this.urlPrefix = urlPrefix;
    this.connector = connector;
  }

  /** The relay's connector for this database ({@code mariadb} or {@code postgresql}). */
  public String connector() {
    return connector;
  }

  /**
   * The relay's {@code connector} setting for {@code jdbcUrl}: {@code postgresql} for a PostgreSQL
   * URL, else {@code auto} (MariaDB or MySQL, told apart by the server's version).
   */
  public static String relayConnector(String jdbcUrl) {
    return ofUrl(jdbcUrl) == POSTGRESQL ? POSTGRESQL.connector : "auto";
  }

  /** The value of {@code --db} ({@code mariadb}, {@code postgres}). */
  public String flag() {
    return flag;
  }

  /** The product name printed in summaries and results. */
  public String label() {
    return label;
  }

  /**
   * The kind a {@code --db} value names: {@code mariadb}, {@code postgres} or {@code postgresql}
   * (any case).
   *
   * @throws IllegalArgumentException naming the value and the accepted ones
   */
  public static DatabaseKind parse(String value) {
    String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("postgresql")) {
      return POSTGRESQL;
    }
    for (DatabaseKind k : values()) {
      if (k.flag.equals(v)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "--db "
            + value
            + " is not supported: use one of "
            + Arrays.stream(values()).map(DatabaseKind::flag).collect(Collectors.joining(", ")));
  }

  /** The kind of a JDBC URL: PostgreSQL for {@code jdbc:postgresql:}, MariaDB otherwise. */
  public static DatabaseKind ofUrl(String jdbcUrl) {
    return jdbcUrl.startsWith(POSTGRESQL.urlPrefix) ? POSTGRESQL : MARIADB;
  }

  /**
   * Drops (PostgreSQL) or creates if missing (MariaDB) database {@code name} on {@code stack} and
   * returns its URL and credentials; PostgreSQL starts on the first call of this JVM. Caller's
   * thread, no transaction.
   */
  Database open(LocalStack stack, String name) {
    if (this == POSTGRESQL) {
      LocalPostgres pg = stack.postgres();
      return new Database(pg.createDatabase(name), pg.username(), pg.password());
    }
    return new Database(stack.createDatabase(name), stack.username(), stack.password());
  }
}
