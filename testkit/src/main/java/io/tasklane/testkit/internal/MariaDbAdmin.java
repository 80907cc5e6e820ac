package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;

/** Account and database administration as root over JDBC. Stateless; any thread. */
public final class MariaDbAdmin {

  /** Global grants a Debezium CDC user needs on MariaDB 10.11. */
  public static final String CDC_GRANTS =
      "SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR, LOCK TABLES";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]{1,64}");

  private MariaDbAdmin() {}

  /** Creates (idempotently) the app user with the CDC grants and its default database. */
  public static void bootstrap(String rootUrl, String user, String password, String database) {
    checkName("user", user);
    try (Connection c = DriverManager.getConnection(rootUrl);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE USER IF NOT EXISTS '" + user + "'@'%' IDENTIFIED BY '" + quote(password) + "'");
      s.execute("ALTER USER '" + user + "'@'%' IDENTIFIED BY '" + quote(password) + "'");
      s.execute("GRANT " + CDC_GRANTS + " ON *.* TO '" + user + "'@'%'");
      createDatabase(s, database, user, false);
    } catch (SQLException e) {
      throw new LocalStackException("MariaDB: creating user '" + user + "' failed: " + e, e);
    }
  }

  /** Drops and re-creates {@code database} and grants ALL on it to {@code user}. */
  public static void createFreshDatabase(String rootUrl, String database, String user) {
    try (Connection c = DriverManager.getConnection(rootUrl);
        Statement s = c.createStatement()) {
      createDatabase(s, database, user, true);
    } catch (SQLException e) {
      throw new LocalStackException(
          "MariaDB: creating database '" + database + "' failed: " + e, e);
    }
  }

  private static void createDatabase(Statement s, String database, String user, boolean fresh)
      throws SQLException {
    checkName("database", database);
    if (fresh) {
      s.execute("DROP DATABASE IF EXISTS `" + database + "`");
    }
    s.execute(
        "CREATE DATABASE IF NOT EXISTS `"
            + database
            + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
    s.execute("GRANT ALL PRIVILEGES ON `" + database + "`.* TO '" + user + "'@'%'");
  }

  /** Database and user names are restricted to letters, digits and underscore (1–64 chars). */
  public static void checkName(String what, String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          what + " name must match [A-Za-z0-9_]{1,64}, got '" + name + "'");
    }
  }

  private static String quote(String value) {
    return value.replace("\\", "\\\\").replace("'", "''");
  }
}
