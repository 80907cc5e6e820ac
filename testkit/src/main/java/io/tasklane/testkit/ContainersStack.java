package io.tasklane.testkit;

import io.tasklane.testkit.internal.MariaDbAdmin;
import io.tasklane.testkit.internal.StackInfo;
import io.tasklane.testkit.internal.StackStarter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The Docker variant of the stack: MySQL 8.4 (ROW binlog, GTID) and an {@code apache/kafka} broker
 * via Testcontainers. Optional: selected by {@code -Dtasklane.stack.impl=containers}; needs a
 * Docker engine. Accessors may be called from any thread; {@link #start()} and {@link #close()}
 * block the calling thread.
 */
public final class ContainersStack implements StackHandle, AutoCloseable {

  /** MySQL image: the production-like binlog source. */
  public static final String MYSQL_IMAGE = "mysql:8.4";

  /** Kafka image, same version as the kafka-clients on the classpath. */
  public static final String KAFKA_IMAGE = "apache/kafka:4.1.2";

  private static ContainersStack shared;

  private final MariaDbDriverMySqlContainer mysql;
  private final KafkaContainer kafka;

  private ContainersStack(MariaDbDriverMySqlContainer mysql, KafkaContainer kafka) {
    this.mysql = mysql;
    this.kafka = kafka;
  }

  /** Starts both containers; blocks until they are ready. */
  public static ContainersStack start() {
    MariaDbDriverMySqlContainer mysql = new MariaDbDriverMySqlContainer();
    KafkaContainer kafka = new KafkaContainer(DockerImageName.parse(KAFKA_IMAGE));
    try {
      mysql.start();
      kafka.start();
      ContainersStack stack = new ContainersStack(mysql, kafka);
      stack.rootExecute(
          "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT,"
              + " LOCK TABLES ON *.* TO '"
              + StackStarter.USERNAME
              + "'@'%'");
      return stack;
    } catch (RuntimeException e) {
      kafka.stop();
      mysql.stop();
      throw e;
    }
  }

  /** One stack per JVM, started lazily; Testcontainers' reaper removes it when the JVM exits. */
  public static synchronized ContainersStack shared() {
    if (shared == null) {
      shared = start();
    }
    return shared;
  }

  @Override
  public String jdbcUrl() {
    return jdbcUrl(StackInfo.DEFAULT_DATABASE);
  }

  @Override
  public String jdbcUrl(String database) {
    return "jdbc:mariadb://"
        + mysql.getHost()
        + ":"
        + mysql.getMappedPort(MySQLContainer.MYSQL_PORT)
        + "/"
        + database
        + "?allowPublicKeyRetrieval=true";
  }

  @Override
  public String username() {
    return StackStarter.USERNAME;
  }

  @Override
  public String password() {
    return StackStarter.PASSWORD;
  }

  @Override
  public String bootstrapServers() {
    return kafka.getBootstrapServers();
  }

  @Override
  public String createDatabase(String name) {
    MariaDbAdmin.checkName("database", name);
    rootExecute("DROP DATABASE IF EXISTS `" + name + "`");
    rootExecute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
    rootExecute("GRANT ALL PRIVILEGES ON `" + name + "`.* TO '" + StackStarter.USERNAME + "'@'%'");
    return jdbcUrl(name);
  }

  private void rootExecute(String sql) {
    try (Connection c = DriverManager.getConnection(jdbcUrl(""), "root", StackStarter.PASSWORD);
        Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new LocalStackException("MySQL container: '" + sql + "' failed: " + e, e);
    }
  }

  /** Stops both containers. */
  @Override
  public void close() {
    kafka.stop();
    mysql.stop();
  }

  /** MySQL 8.4 with binlog flags, reached through the MariaDB driver the project already has. */
  private static final class MariaDbDriverMySqlContainer
      extends MySQLContainer<MariaDbDriverMySqlContainer> {

    MariaDbDriverMySqlContainer() {
      super(DockerImageName.parse(MYSQL_IMAGE).asCompatibleSubstituteFor("mysql"));
      withDatabaseName(StackInfo.DEFAULT_DATABASE);
      withUsername(StackStarter.USERNAME);
      withPassword(StackStarter.PASSWORD);
      withCommand(
          "--server-id=1",
          "--log-bin=mysql-bin",
          "--binlog-format=ROW",
          "--binlog-row-image=FULL",
          "--gtid-mode=ON",
          "--enforce-gtid-consistency=ON",
          "--character-set-server=utf8mb4");
    }

    @Override
    public String getDriverClassName() {
      return "org.mariadb.jdbc.Driver";
    }

    @Override
    public String getJdbcUrl() {
      return "jdbc:mariadb://"
          + getHost()
          + ":"
          + getMappedPort(MYSQL_PORT)
          + "/"
          + getDatabaseName()
          + "?allowPublicKeyRetrieval=true";
    }
  }
}
