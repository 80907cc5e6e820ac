package io.tasklane.scheduler.internal.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.Shard;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored form of a {@link TaskRecord}: a format byte ({@link #FORMAT}), then every component in
 * declaration order — integers as variable-length (zig-zag) numbers, strings as a length and UTF-8
 * bytes ({@link CompactBytes}), the retry policy as its kind and numbers, the envelope's source as
 * its table and row; the handler's payload and the envelope's options (null when empty) as JSON.
 * Under half of the record's JSON and read and written without a JSON parser for everything but the
 * payload and the options. A value whose first byte is {@code '{'} is a record of the earlier JSON
 * form (0.1.0) and is still read, and so are format {@link #FORMAT_2} (the retry policy and the
 * source as JSON) and {@link #FORMAT_1} (that, and no options). A new component of {@link TaskRecord} or
 * {@link TaskEnvelope} needs a new format byte (and the earlier ones still read): {@code
 * TaskRecordCodecTest} fails until then; a new task option does not (the options are JSON).
 * Stateless.
 */
final class TaskRecordCodec {
  /** The format byte of this layout. */
  static final byte FORMAT = 3;

  /** The format with the retry policy and the source as JSON: the same layout otherwise. */
  static final byte FORMAT_2 = 2;

  /** The format before the envelope's options: the same layout without them. */
  static final byte FORMAT_1 = 1;

  private static final byte JSON = '{';

  private TaskRecordCodec() {}

  static byte[] encode(TaskRecord r) {
    CompactBytes.Writer o = new CompactBytes.Writer(256);
    o.raw(FORMAT);
    TaskEnvelope t = r.task();
    o.bool(t != null);
    if (t != null) {
      envelope(o, t);
    }
    o.str(r.state() == null ? null : r.state().name());
    o.num(r.attempt());
    o.num(r.failures());
    o.num(r.snoozes());
    o.num(r.dueAt());
    o.num(r.deadline());
    o.num(r.timerAt());
    o.num(r.timerKind() == null ? -1 : r.timerKind().code);
    error(o, r.lastError());
    o.str(r.reason());
    o.num(r.history().size());
    for (AttemptEntry a : r.history()) {
      o.num(a.attempt());
      o.num(a.dispatchedAt());
      o.num(a.endedAt());
      o.str(a.outcome());
      o.str(a.error());
      o.str(a.worker());
    }
    o.strings(r.waitingOn());
    o.num(r.waiters().size());
    for (Waiter w : r.waiters()) {
      o.str(w.id());
      o.str(w.routingKey());
    }
    o.strings(r.probes());
    o.num(r.updatedAt());
    o.num(r.finishedAt());
    o.num(r.duplicatesRefused());
    o.json(r.lastRefusedDuplicate());
    o.num(r.waitTimedOutAt());
    o.str(r.nonce());
    return o.toByteArray();
  }

  static TaskRecord decode(byte[] bytes) {
    if (bytes.length > 0 && bytes[0] == JSON) {
      try {
        return WireCodec.mapper().readValue(bytes, TaskRecord.class);
      } catch (IOException e) {
        throw new WireFormatException("corrupt task record in store: " + e.getMessage(), e);
      }
    }
    if (bytes.length == 0 || bytes[0] < FORMAT_1 || bytes[0] > FORMAT) {
      throw new WireFormatException(
          "task record in store of unknown format "
              + (bytes.length == 0 ? "(empty)" : Byte.toString(bytes[0]))
              + ": written by a newer scheduler?");
    }
    try {
      CompactBytes.Reader in = new CompactBytes.Reader(bytes, 1);
      TaskEnvelope task = in.bool() ? envelope(in, bytes[0]) : null;
      String state = in.str();
      int attempt = in.integer();
      int failures = in.integer();
      int snoozes = in.integer();
      long dueAt = in.num();
      long deadline = in.num();
      long timerAt = in.num();
      long kind = in.num();
      ErrorInfo lastError = error(in);
      String reason = in.str();
      int n = in.count();
      List<AttemptEntry> history = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        history.add(
            new AttemptEntry(in.integer(), in.num(), in.num(), in.str(), in.str(), in.str()));
      }
      List<String> waitingOn = in.strings();
      n = in.count();
      List<Waiter> waiters = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        waiters.add(new Waiter(in.str(), in.str()));
      }
      List<String> probes = in.strings();
      long updatedAt = in.num();
      long finishedAt = in.num();
      int duplicatesRefused = in.integer();
      RefusedDuplicate refused = in.json(RefusedDuplicate.class);
      long waitTimedOutAt = in.num();
      String nonce = in.str();
      return new TaskRecord(
          task,
          state == null ? null : TaskState.valueOf(state),
          attempt,
          failures,
          snoozes,
          dueAt,
          deadline,
          timerAt,
          kind < 0 ? null : TimerKind.of((byte) kind),
          lastError,
          reason,
          history,
          waitingOn,
          waiters,
          probes,
          updatedAt,
          finishedAt,
          duplicatesRefused,
          refused,
          waitTimedOutAt,
          nonce);
    } catch (RuntimeException | IOException e) {
      throw new WireFormatException("corrupt task record in store: " + e, e);
    }
  }

  private static void envelope(CompactBytes.Writer o, TaskEnvelope t) {
    o.num(t.v());
    o.str(t.id());
    o.str(t.handler());
    o.str(t.key());
    o.str(t.orderingKey());
    o.json(t.payload());
    o.num(t.dueAt());
    o.num(t.maxAttempts());
    o.num(t.timeoutMs());
    backoff(o, t.backoff());
    o.strings(t.dependsOn());
    o.num(t.headers().size());
    t.headers()
        .forEach(
            (k, v) -> {
              o.str(k);
              o.str(v);
            });
    o.num(t.createdAt());
    o.bool(t.source() != null);
    if (t.source() != null) {
      o.str(t.source().table());
      o.num(t.source().rowId());
    }
    o.bool(t.shard() != null);
    if (t.shard() != null) {
      o.num(t.shard().index());
      o.num(t.shard().total());
    }
    o.json(t.options().isEmpty() ? null : t.options());
  }

  private static TaskEnvelope envelope(CompactBytes.Reader in, byte format) throws IOException {
    int v = in.integer();
    String id = in.str();
    String handler = in.str();
    String key = in.str();
    String orderingKey = in.str();
    JsonNode payload = in.tree();
    long dueAt = in.num();
    int maxAttempts = in.integer();
    long timeoutMs = in.num();
    RetryPolicy backoff = format >= FORMAT ? backoff(in) : in.json(RetryPolicy.class);
    List<String> dependsOn = in.strings();
    int n = in.count();
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      headers.put(in.str(), in.str());
    }
    long createdAt = in.num();
    Source source =
        format < FORMAT ? in.json(Source.class) : in.bool() ? new Source(in.str(), in.num()) : null;
    Shard shard = in.bool() ? new Shard(in.integer(), in.integer()) : null;
    TaskOptions options = format == FORMAT_1 ? null : in.json(TaskOptions.class);
    return new TaskEnvelope(
        v,
        id,
        handler,
        key,
        orderingKey,
        payload,
        dueAt,
        maxAttempts,
        timeoutMs,
        backoff,
        dependsOn,
        headers,
        createdAt,
        source,
        shard,
        options);
  }

  /** A retry policy: its kind (0 Sidekiq, 1 exponential, 2 fixed), then its numbers. */
  private static void backoff(CompactBytes.Writer o, RetryPolicy policy) {
    if (policy instanceof RetryPolicy.Sidekiq s) {
      o.num(0);
      o.num(s.maxDelayMs());
    } else if (policy instanceof RetryPolicy.Exponential e) {
      o.num(1);
      o.num(e.baseMs());
      o.num(e.maxDelayMs());
    } else if (policy instanceof RetryPolicy.Fixed f) {
      o.num(2);
      o.num(f.delaysMs().size());
      f.delaysMs().forEach(o::num);
    } else {
      throw new IllegalArgumentException("unknown retry policy " + policy);
    }
  }

  private static RetryPolicy backoff(CompactBytes.Reader in) {
    long kind = in.num();
    if (kind == 0) {
      return new RetryPolicy.Sidekiq(in.num());
    } else if (kind == 1) {
      return new RetryPolicy.Exponential(in.num(), in.num());
    } else if (kind == 2) {
      int n = in.count();
      List<Long> delays = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        delays.add(in.num());
      }
      return new RetryPolicy.Fixed(delays);
    }
    throw new IllegalStateException("retry policy of unknown kind " + kind);
  }

  private static void error(CompactBytes.Writer o, ErrorInfo e) {
    o.bool(e != null);
    if (e != null) {
      o.str(e.type());
      o.str(e.message());
      o.str(e.stack());
    }
  }

  private static ErrorInfo error(CompactBytes.Reader in) {
    return in.bool() ? new ErrorInfo(in.str(), in.str(), in.str()) : null;
  }
}
