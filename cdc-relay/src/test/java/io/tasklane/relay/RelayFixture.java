package io.tasklane.relay;

import io.tasklane.core.TaskIds;
import io.tasklane.core.Topics;
import io.tasklane.outbox.OutboxSchema;
import io.tasklane.testkit.LocalStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/** One test class's database, topic namespace and outbox helpers. */
public final class RelayFixture {
  public static final String INSERT =
      "INSERT INTO tasklane_outbox (task_id, routing_key, kind, handler, task_key, payload, due_at,"
          + " max_attempts, timeout_ms, backoff, depends_on, headers, created_at)"
          + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)";

  public final LocalStack stack;
  public final String database;
  public final String jdbcUrl;
  public final Topics topics;

  public RelayFixture(LocalStack stack, String prefix) {
    this.stack = stack;
    String unique = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    this.database = prefix + "_" + unique;
    this.jdbcUrl = stack.createDatabase(database);
    this.topics = new Topics("t" + unique);
    ensureTopics();
    try (Connection c = connect()) {
      // The table exactly as users get it from outbox-lib (the relay never depends on it at
      // runtime).
      OutboxSchema.create(c);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Creates the relay's topics up front (the relay would too), so readers can start at once. */
  void ensureTopics() {
    try (var admin =
        org.apache.kafka.clients.admin.Admin.create(
            Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      io.tasklane.core.TopicAdmin.ensure(
          admin,
          List.of(
              io.tasklane.core.TopicAdmin.Spec.of(topics.tasks(), 3),
              io.tasklane.core.TopicAdmin.Spec.of(topics.relayDlt(), 1)));
    }
  }

  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl, stack.username(), stack.password());
  }

  /** Relay settings for this fixture; {@code extra} overrides. */
  public Map<String, String> properties(String... extra) {
    Map<String, String> p = new HashMap<>();
    p.put("tasklane.relay.jdbc-url", jdbcUrl);
    p.put("tasklane.relay.username", stack.username());
    p.put("tasklane.relay.password", stack.password());
    p.put("tasklane.relay.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.relay.namespace", topics.namespace());
    p.put("tasklane.relay.http-port", "0");
    p.put("tasklane.relay.poll-interval", "10ms");
    p.put("tasklane.relay.tasks-partitions", "3");
    p.put("tasklane.relay.kafka.client.rack", "test"); // exercises the pass-through
    for (int i = 0; i + 1 < extra.length; i += 2) {
      p.put(extra[i], extra[i + 1]);
    }
    return p;
  }

  public Relay startRelay(Clock clock, String... extra) {
    return Relay.start(RelayConfig.fromProperties(properties(extra)), clock);
  }

  /** Inserts {@code n} valid TASK rows in one transaction; returns their task ids. */
  public List<String> insertTasks(Connection c, int n, String handler) throws SQLException {
    List<String> ids = new ArrayList<>(n);
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      for (int i = 0; i < n; i++) {
        String id = TaskIds.keyless(Clock.systemUTC());
        ids.add(id);
        bindTask(ps, id, id, handler, "{\"n\":" + i + "}", System.currentTimeMillis());
        ps.addBatch();
      }
      ps.executeBatch();
      c.commit();
    } finally {
      c.setAutoCommit(auto);
    }
    return ids;
  }

  public static void bindTask(
      PreparedStatement ps, String id, String routingKey, String handler, String payload, long now)
      throws SQLException {
    ps.setString(1, id);
    ps.setString(2, routingKey);
    ps.setString(3, "TASK");
    ps.setString(4, handler);
    ps.setString(5, null);
    ps.setString(6, payload);
    ps.setLong(7, now);
    ps.setInt(8, 25);
    ps.setLong(9, 300_000);
    ps.setString(10, null);
    ps.setString(11, null);
    ps.setString(12, null);
    ps.setLong(13, now);
  }

  public long count() throws SQLException {
    try (Connection c = connect();
        var rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM tasklane_outbox")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** A clock the test moves forward. */
  public static final class MovableClock extends Clock {
    private final AtomicLong offsetMs = new AtomicLong();

    public void advance(long ms) {
      offsetMs.addAndGet(ms);
    }

    @Override
    public java.time.ZoneId getZone() {
      return java.time.ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public java.time.Instant instant() {
      return java.time.Instant.ofEpochMilli(millis());
    }

    @Override
    public long millis() {
      return System.currentTimeMillis() + offsetMs.get();
    }
  }
}
