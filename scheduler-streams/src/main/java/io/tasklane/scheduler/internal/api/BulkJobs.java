package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.core.annotation.Internal;
import io.tasklane.core.TaskState;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.internal.ops.AuditLog;
import io.tasklane.scheduler.internal.ops.RecordSender;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Runs bulk actions ({@code POST /api/tasks/bulk/{action}}) one at a time on a thread of their own:
 * lists the matching tasks created at or before {@code asOf} from every instance ({@link
 * TaskSearch}, index entries only), writes one control record per task to {@code <ns>.control}
 * keyed by its routing key (sent in a batch, flushed once), then lists again until every task it
 * sent a command to has left the states the action applies to (applied) or {@link
 * #VERIFY_TIMEOUT_MS} passed (the rest counted failed). Jobs live in this instance's memory, the
 * newest {@link #KEPT} of them. One audit line per job on {@code io.tasklane.scheduler.audit}.
 */
@Singleton
@Internal
public final class BulkJobs {

  /** Jobs kept for {@code GET /api/jobs/{job}}, the newest first to stay. */
  static final int KEPT = 100;

  /** Jobs waiting for the running one; more are refused 429. */
  static final int QUEUED = 10;

  /** The most tasks one job acts on; a filter matching more fails the job naming the limit. */
  static final int MAX_MATCHED = 1_000_000;

  static final long VERIFY_TIMEOUT_MS = 120_000;
  private static final int PAGE = TaskQuery.MAX_LIMIT;

  private final RecordSender sender;
  private final Topics topics;
  private final TaskSearch search;
  private final AuditLog audit;
  private final Redactor redactor;
  private final Clock clock = Clock.systemUTC();
  private final Map<String, BulkJob> jobs = new LinkedHashMap<>();
  private final ThreadPoolExecutor executor =
      new ThreadPoolExecutor(
          1,
          1,
          0,
          TimeUnit.MILLISECONDS,
          new ArrayBlockingQueue<>(QUEUED),
          r -> {
            Thread t = new Thread(r, "tasklane-bulk-jobs");
            t.setDaemon(true);
            return t;
          });

  BulkJobs(
      RecordSender sender, Topics topics, TaskSearch search, AuditLog audit, Redactor redactor) {
    this.redactor = redactor;
    this.sender = sender;
    this.topics = topics;
    this.search = search;
    this.audit = audit;
  }

  /**
   * Starts a job from the request body of a caller with {@code role}: 202 {"job"}, 400 naming a bad
   * field, 403 for a payload field the role may not search ({@link TaskFilter#fromJson}), 429 when
   * full. A refusal is audited with its message, which names fields but never a filter's value.
   */
  StatusQuery.Answer start(String action, String body, String actor, Role role) {
    BulkJob job;
    try {
      job = parse(BulkJob.Action.of(action), body, actor, role);
    } catch (BadQueryException e) {
      audit.record(actor, "bulk-" + action, "tasks", AuditLog.REFUSED, e.getMessage());
      return TaskSearch.badRequest(e);
    }
    try {
      executor.execute(() -> run(job));
    } catch (RejectedExecutionException e) {
      audit.record(actor, "bulk-" + action, "tasks", AuditLog.REFUSED, "too many jobs");
      return TaskSearch.error(
          429,
          "too-many-jobs",
          "too many bulk jobs: one runs and " + QUEUED + " wait; retry later");
    }
    synchronized (jobs) {
      jobs.put(job.id, job);
      Iterator<String> oldest = jobs.keySet().iterator();
      while (jobs.size() > KEPT) {
        oldest.next();
        oldest.remove();
      }
    }
    return new StatusQuery.Answer(202, WireCodec.encodeToString(new JobStartedResponse(job.id)));
  }

  /** The job's progress, or null when this instance has no such job. */
  BulkJob get(String id) {
    synchronized (jobs) {
      return jobs.get(id);
    }
  }

  private BulkJob parse(BulkJob.Action action, String body, String actor, Role role) {
    JsonNode n;
    try {
      n = WireCodec.readTree(body == null ? "" : body);
    } catch (RuntimeException e) {
      throw new BadQueryException(
          "body", "must be JSON {\"filter\":{...},\"asOf\":<epoch millis>}");
    }
    if (n == null || !n.path("asOf").isIntegralNumber()) {
      throw new BadQueryException(
          "asOf", "is required: the asOf of the listing the filter was shown with (epoch millis)");
    }
    return new BulkJob(
        UUID.randomUUID().toString(),
        action,
        TaskFilter.fromJson(n.path("filter"), redactor, role),
        n.path("asOf").asLong(),
        actor,
        clock.millis());
  }

  /** On the job thread. */
  private void run(BulkJob job) {
    try {
      Map<String, String> targets = new LinkedHashMap<>(); // id -> routing key
      for (TaskRow row : list(job.filter, job.asOf).values()) {
        if (job.matched.incrementAndGet() > MAX_MATCHED) {
          throw new BadQueryException("filter", "matches more than " + MAX_MATCHED + " tasks");
        }
        if (job.action.appliesTo.contains(row.state())) {
          targets.put(row.id(), row.routingKey());
        } else {
          job.ignored.incrementAndGet();
        }
      }
      long sentAt = clock.millis();
      Set<String> sent = ConcurrentHashMap.newKeySet();
      sent.addAll(targets.keySet());
      targets.forEach(
          (id, key) ->
              sender.send(
                  new ProducerRecord<>(
                      topics.control(),
                      key,
                      WireCodec.encode(job.action.command(id, sentAt, job.actor, job.id))),
                  (md, e) -> {
                    if (e != null && sent.remove(id)) {
                      job.failed.incrementAndGet();
                    }
                  }));
      sender.flush();
      long pending = awaitApplied(job, sent, sentAt);
      job.applied.set(sent.size() - pending);
      job.failed.addAndGet(pending);
      job.state = BulkJob.State.DONE;
    } catch (FanOut.Unavailable e) {
      fail(job, "an instance could not list the tasks: " + e.answer.json());
    } catch (RuntimeException e) {
      fail(job, e.getMessage());
    } finally {
      job.finishedAt = clock.millis();
      audit.record(
          job.actor,
          "bulk-" + job.action.path(),
          "job/" + job.id,
          job.state == BulkJob.State.FAILED ? AuditLog.FAILED : AuditLog.ACCEPTED,
          String.format(
              "filter=%s asOf=%d matched=%d applied=%d ignored=%d failed=%d",
              job.filter.shown(),
              job.asOf,
              job.matched.get(),
              job.applied.get(),
              job.ignored.get(),
              job.failed.get()));
    }
  }

  private static void fail(BulkJob job, String error) {
    job.error = error;
    job.state = BulkJob.State.FAILED;
  }

  /**
   * Lists until none of {@code sent} is still in a state the action applies to with a change older
   * than the commands; returns how many still are when {@link #VERIFY_TIMEOUT_MS} has passed. Each
   * listing sets the job's {@code applied} to the commands applied so far, so a job's progress
   * moves while its commands are applied.
   */
  private long awaitApplied(BulkJob job, Set<String> sent, long sentAt) {
    if (sent.isEmpty()) {
      return 0;
    }
    Set<TaskState> states = EnumSet.noneOf(TaskState.class);
    for (TaskState s : job.action.appliesTo) {
      if (job.filter.states() == null || job.filter.states().contains(s)) {
        states.add(s);
      }
    }
    TaskFilter before = job.filter.narrowed(states, Math.min(job.filter.updatedTo(), sentAt - 1));
    long deadline = clock.millis() + VERIFY_TIMEOUT_MS;
    while (true) {
      long pending = list(before, job.asOf).keySet().stream().filter(sent::contains).count();
      job.applied.set(sent.size() - pending);
      if (pending == 0 || clock.millis() > deadline) {
        return pending;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return pending;
      }
    }
  }

  /**
   * Every task {@code filter} matches at {@code asOf}, from every instance, a page at a time, by id
   * (a task that changed while listed moves to a later page: its last row counts).
   */
  private Map<String, TaskRow> list(TaskFilter filter, long asOf) {
    Map<String, TaskRow> out = new LinkedHashMap<>();
    TaskQuery q = new TaskQuery(filter, TaskQuery.Sort.UPDATED, true, PAGE, null, asOf, true);
    while (q != null) {
      TaskSearch.Result r = search.search(q, false);
      r.rows().forEach(row -> out.put(row.id(), row));
      if (out.size() > MAX_MATCHED) {
        throw new BadQueryException("filter", "matches more than " + MAX_MATCHED + " tasks");
      }
      q = r.next() == null ? null : q.at(r.next());
    }
    return out;
  }

  @PreDestroy
  void close() {
    executor.shutdownNow();
  }
}
