package io.tasklane.examples.demo;

import io.tasklane.harness.Database;
import io.tasklane.harness.Verdict;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Checks the demo's invariants against the database once the pipeline has settled. */
final class Verifier {
  private final Database db;

  Verifier(Database db) {
    this.db = db;
  }

  /** True when nothing is left to happen (all orders settled, all expected effects present). */
  boolean settled(DemoOptions options, int cases) {
    Counts c = Counts.read(db);
    return c.created() == options.orders()
        && c.open() == 0
        && c.emails() >= c.created()
        && c.partner() >= cases
        && c.steps() >= 2L * cases
        && c.coupons() >= cases
        && c.late() >= cases
        && c.reminders() >= cases
        && c.audits() >= c.created();
  }

  Verdict verify(DemoOptions options, int cases, long deadTasks, List<String> brokenIds) {
    Verdict v = new Verdict();
    Counts c = Counts.read(db);
    v.check(
        "every order created",
        c.created() == options.orders(),
        c.created() + " of " + options.orders());
    v.check(
        "each order ends PAID or CANCELLED",
        c.paid() + c.cancelled() == c.created() && c.open() == 0,
        c.paid() + " paid, " + c.cancelled() + " cancelled, " + c.open() + " open");
    long cancelEffects =
        db.count("SELECT COUNT(*) FROM demo_effects WHERE kind='order.cancel-unpaid'");
    long paidButCancelled =
        db.count(
            "SELECT COUNT(*) FROM demo_orders o JOIN demo_effects e ON e.kind='order.cancel-unpaid'"
                + " AND e.ref = o.id WHERE o.state='PAID'");
    v.check(
        "each cancelled order cancelled exactly once, no paid order cancelled",
        cancelEffects == c.cancelled() && paidButCancelled == 0,
        cancelEffects + " cancel effects, " + paidButCancelled + " paid orders touched");
    long emailOrders =
        db.count("SELECT COUNT(DISTINCT ref) FROM demo_effects WHERE kind='email.send'");
    v.check(
        "each order's e-mail sent exactly once",
        c.emails() == c.created() && emailOrders == c.created(),
        c.emails() + " e-mails for " + emailOrders + " orders");
    long duplicates =
        db.count(
            "SELECT COUNT(*) FROM (SELECT task_id FROM demo_effects GROUP BY task_id HAVING COUNT(*) > 1) d");
    v.check("no effect written twice", duplicates == 0, duplicates + " task ids with 2+ effects");
    long thirdAttempt =
        db.count("SELECT COUNT(*) FROM demo_effects WHERE kind='partner.notify' AND attempt=3");
    v.check(
        "flaky partner calls succeed on attempt 3, once each",
        c.partner() == cases && thirdAttempt == cases,
        c.partner() + " effects, " + thirdAttempt + " on attempt 3, expected " + cases);
    v.check(
        "broken reports end DEAD",
        deadTasks == brokenIds.size(),
        deadTasks + " of " + brokenIds.size() + " DEAD");
    long bAfterA =
        db.count(
            "SELECT COUNT(*) FROM demo_effects b JOIN demo_effects a ON a.kind='pipeline.step.a'"
                + " AND a.ref=b.ref WHERE b.kind='pipeline.step.b' AND b.started_at >= a.started_at");
    v.check(
        "each dependent step B ran after its step A", bAfterA == cases, bAfterA + " of " + cases);
    v.check(
        "duplicate keyed submissions take effect once",
        c.coupons() == cases,
        c.coupons() + " of " + cases);
    v.check(
        "tasks of a handler deployed late run once it appears",
        c.late() == cases,
        c.late() + " of " + cases);
    v.check(
        "a cancel that arrives after its task ran changes nothing",
        c.reminders() == cases,
        c.reminders() + " of " + cases + " reminders, each once");
    v.check(
        "each order's @OutboxAsync audit call ran after the commit",
        c.audits() == c.created(),
        c.audits() + " audit rows for " + c.created() + " orders");
    long early =
        db.count(
            "SELECT COUNT(*) FROM demo_effects e JOIN demo_orders o ON e.ref = o.id"
                + " WHERE e.kind='order.cancel-unpaid' AND e.started_at < o.cancel_due_at");
    v.check("no delayed task started before its due time", early == 0, early + " early starts");
    return v;
  }

  /** Commit → handler start of the e-mails, the first 10 s of orders apart from the rest. */
  StartLatency emailLatency() {
    String from =
        " FROM demo_effects e JOIN demo_orders o ON e.ref = o.id WHERE e.kind='email.send'";
    StartLatency latency =
        new StartLatency(db.count("SELECT COALESCE(MIN(o.created_at), 0)" + from));
    db.forEach(
        "SELECT o.created_at, e.started_at" + from,
        rs -> latency.add(rs.getLong(1), rs.getLong(2)));
    return latency;
  }

  /** Handler start − due time of the unpaid-order cancellations (ms). */
  Histogram cancelLateness() {
    return histogram(
        "SELECT e.started_at - o.cancel_due_at FROM demo_effects e JOIN demo_orders o"
            + " ON e.ref = o.id WHERE e.kind='order.cancel-unpaid'");
  }

  private Histogram histogram(String sql) {
    Histogram h = new Histogram(3_600_000L, 3);
    db.longs(sql).forEach(ms -> h.recordValue(Math.max(0, ms)));
    return h;
  }
}
