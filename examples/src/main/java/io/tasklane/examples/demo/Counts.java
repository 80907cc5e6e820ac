package io.tasklane.examples.demo;

import io.tasklane.harness.Database;

/** One snapshot of the demo's progress, read from the database. */
record Counts(
    long created,
    long paid,
    long cancelled,
    long open,
    long emails,
    long partner,
    long steps,
    long coupons,
    long late,
    long reminders,
    long audits,
    long effects) {

  static Counts read(Database db) {
    return new Counts(
        db.count("SELECT COUNT(*) FROM demo_orders"),
        db.count("SELECT COUNT(*) FROM demo_orders WHERE state='PAID'"),
        db.count("SELECT COUNT(*) FROM demo_orders WHERE state='CANCELLED'"),
        db.count("SELECT COUNT(*) FROM demo_orders WHERE state='CREATED'"),
        db.count("SELECT COUNT(*) FROM demo_effects WHERE kind='email.send'"),
        db.count("SELECT COUNT(*) FROM demo_effects WHERE kind='partner.notify'"),
        db.count("SELECT COUNT(*) FROM demo_effects WHERE kind LIKE 'pipeline.step.%'"),
        db.count("SELECT COUNT(*) FROM demo_effects WHERE kind='coupon.grant'"),
        db.count("SELECT COUNT(*) FROM demo_effects WHERE kind='audit.late'"),
        db.count("SELECT COUNT(*) FROM demo_effects WHERE kind='reminder.send'"),
        db.count("SELECT COUNT(*) FROM demo_audit"),
        db.count("SELECT COUNT(*) FROM demo_effects"));
  }

  String line(long elapsedMs, long target, long effectsPerSec) {
    int width = 24;
    int done = target == 0 ? width : (int) Math.min(width, width * (paid + cancelled) / target);
    return String.format(
        "\r[%s%s] %5.1fs created %d  emails %d  paid %d  cancelled %d  open %d  partner %d  pipeline %d  %d effects/s   ",
        "#".repeat(done),
        ".".repeat(width - done),
        elapsedMs / 1000.0,
        created,
        emails,
        paid,
        cancelled,
        open,
        partner,
        steps,
        effectsPerSec);
  }
}
