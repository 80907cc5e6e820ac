package io.tasklane.relay.internal;

import io.tasklane.relay.RelayConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/** Plain JDBC connections to the outbox database (no pool: the relay holds at most three). */
final class Jdbc {
  private final RelayConfig config;

  Jdbc(RelayConfig config) {
    this.config = config;
  }

  Connection open() throws SQLException {
    Connection c =
        DriverManager.getConnection(config.jdbcUrl(), config.username(), config.password());
    c.setAutoCommit(true);
    return c;
  }

  /**
   * MARIADB, MYSQL or POSTGRES connector class for this server, honouring the configured choice
   * (the configuration refuses a choice that does not match the JDBC URL).
   */
  String connectorClass() throws SQLException {
    if (config.postgres()) {
      return DebeziumProps.POSTGRES;
    }
    return switch (config.connector()) {
      case MARIADB -> DebeziumProps.MARIADB;
      case MYSQL -> DebeziumProps.MYSQL;
      case POSTGRESQL -> DebeziumProps.POSTGRES;
      case AUTO -> {
        try (Connection c = open();
            Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT VERSION()")) {
          rs.next();
          yield rs.getString(1).toLowerCase(Locale.ROOT).contains("mariadb")
              ? DebeziumProps.MARIADB
              : DebeziumProps.MYSQL;
        }
      }
    };
  }
}
