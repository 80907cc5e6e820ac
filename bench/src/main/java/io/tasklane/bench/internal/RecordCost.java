package io.tasklane.bench.internal;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * What a scenario's tasks cost in records: the scheduler's changelog records and bytes per task, by
 * store and in total ({@link Changelogs}), and the brokers' produce requests per task ({@link
 * BrokerRequests}), between {@link #start} and {@link #finish}. {@link #finish} first waits until
 * the changelogs stop growing (at most {@link #SETTLE_MS}): the last results reach the tap before
 * the scheduler has stored them. Used on the run's thread.
 */
final class RecordCost implements AutoCloseable {
  static final long SETTLE_MS = 15_000;

  private final BenchRun run;
  private final Admin admin;
  private final Map<String, Changelogs.Sample> before;
  private final long produceBefore;

  private RecordCost(BenchRun run) throws Exception {
    this.run = run;
    this.admin = Admin.create(run.stack.kafkaAdminProperties());
    this.before = Changelogs.sample(admin, run.applicationId);
    this.produceBefore = BrokerRequests.count(run.brokerPids());
  }

  /** Samples the changelogs and the brokers' produce requests now. */
  static RecordCost start(BenchRun run) throws Exception {
    return new RecordCost(run);
  }

  /**
   * Records {@code <prefix>scheduler_changelog_records_per_task}, {@code ..._bytes_per_task}, each
   * also per store ({@code _<store>}), and {@code <prefix>broker_produce_requests_per_task}, for
   * {@code tasks} tasks; {@code system} names the bar of the records chart.
   */
  void finish(long tasks, String system) throws Exception {
    Map<String, Changelogs.Sample> after = settled();
    long produceAfter = BrokerRequests.count(run.brokerPids());
    Results r = run.results;
    BenchOptions o = run.options;
    Map<String, double[]> per = Changelogs.perTask(before, after, tasks);
    per.forEach(
        (store, v) -> {
          String suffix = store.equals("total") ? "" : "_" + key(store);
          r.put(o.key("scheduler_changelog_records_per_task" + suffix), v[0]);
          r.put(o.key("scheduler_changelog_bytes_per_task" + suffix), v[1]);
        });
    Map<String, Double> bars = new java.util.LinkedHashMap<>();
    per.forEach(
        (store, v) -> {
          if (!store.equals("total")) {
            bars.put(key(store), v[0]);
          }
        });
    r.changelogPerTask.put(system, bars);
    double[] total = per.get("total");
    run.out.printf(
        "  scheduler changelogs per task: %.2f records, %.0f bytes (%s)%n",
        total[0], total[1], describe(per));
    if (produceBefore >= 0 && produceAfter >= 0 && tasks > 0) {
      double requests = (produceAfter - produceBefore) / (double) tasks;
      r.put(o.key("broker_produce_requests_per_task"), requests);
      run.out.printf("  broker produce requests per task: %.3f%n", requests);
    } else {
      run.out.println("  broker produce requests: not readable (no JMX attach to the broker)");
    }
  }

  /** The changelogs once two samples a second apart agree, or after {@link #SETTLE_MS}. */
  private Map<String, Changelogs.Sample> settled() throws Exception {
    long end = System.currentTimeMillis() + SETTLE_MS;
    Map<String, Changelogs.Sample> last = Changelogs.sample(admin, run.applicationId);
    while (System.currentTimeMillis() < end) {
      Thread.sleep(1000);
      Map<String, Changelogs.Sample> now = Changelogs.sample(admin, run.applicationId);
      if (records(now) == records(last)) {
        return now;
      }
      last = now;
    }
    return last;
  }

  private static long records(Map<String, Changelogs.Sample> s) {
    return s.values().stream().mapToLong(Changelogs.Sample::records).sum();
  }

  /** A store name as a key part: {@code tasklane-due-index} → {@code due_index}. */
  static String key(String store) {
    return store.replaceFirst("^tasklane-", "").replace('-', '_');
  }

  private static String describe(Map<String, double[]> per) {
    StringBuilder b = new StringBuilder();
    per.forEach(
        (store, v) -> {
          if (!store.equals("total")) {
            b.append(b.length() == 0 ? "" : ", ")
                .append(key(store))
                .append(String.format(" %.2f/%.0f B", v[0], v[1]));
          }
        });
    return b.toString();
  }

  @Override
  public void close() {
    admin.close();
  }
}
