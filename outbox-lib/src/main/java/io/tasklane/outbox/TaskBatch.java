package io.tasklane.outbox;

import java.util.List;
import java.util.Objects;

/**
 * A batch of tasks with callbacks, written in the caller's transactions: members are added with
 * {@link #enqueue} and {@link #enqueueAll} (in as many transactions as needed) until the batch is
 * {@linkplain #seal sealed}; the scheduler then creates the {@code onComplete} task once when every
 * member is terminal (SUCCEEDED, DEAD or CANCELLED) and the {@code onSuccess} task once when every
 * member SUCCEEDED, each with the members' counts in its headers ({@code
 * BatchCounts.from(ctx.headers())} in a handler). Both happen exactly once, whichever process dies.
 * Status: {@code GET /api/batches/{id}}, {@code tasklane batches show <id>}.
 *
 * <pre>{@code
 * TaskBatch run = outbox.batch("invoices-2026-11");
 * run.enqueueAll(invoices.stream().map(i -> TaskRequest.to("invoice.render").payload(i.id())).toList());
 * run.seal(TaskRequest.to("report.email").payload("invoices-2026-11"), null);
 * }</pre>
 *
 * <p>Members are new tasks: each gets a new id, also when it has a key (so no earlier task of the
 * same key stands in for it), and a request refused by its unique window is not added (the task
 * holding the window is not a member). A part written after the seal is refused by the scheduler
 * (its tasks still run, outside the batch). Threads and transactions as {@link TaskOutbox}: a
 * handle holds only the batch's id and may be kept and shared.
 */
public final class TaskBatch {
  private final String id;
  private final DefaultTaskOutbox outbox;

  TaskBatch(String id, DefaultTaskOutbox outbox) {
    this.id = id;
    this.outbox = outbox;
  }

  /** The batch's id. */
  public String id() {
    return id;
  }

  /** Adds one task to the batch in the caller's transaction; returns its id. */
  public String enqueue(TaskRequest request) {
    return enqueueAll(List.of(Objects.requireNonNull(request, "request"))).get(0);
  }

  /**
   * Adds {@code requests} to the batch in the caller's transaction (their rows and one part row per
   * {@value io.tasklane.core.BatchPart#MAX_MEMBERS} members); returns their ids in order. All are
   * validated first: if one is invalid, none is written.
   */
  public List<String> enqueueAll(List<TaskRequest> requests) {
    return outbox.enqueueMembers(id, requests);
  }

  /** Seals the batch without callbacks (its status still shows when it is complete). */
  public void seal() {
    seal(null, null);
  }

  /**
   * Seals the batch in the caller's transaction: no member may be added after it. {@code onSuccess}
   * (or null) is created once when every member SUCCEEDED, {@code onComplete} (or null) once when
   * every member is terminal; a sealed batch without members completes at once.
   */
  public void seal(TaskRequest onSuccess, TaskRequest onComplete) {
    outbox.seal(id, onSuccess, onComplete);
  }

  @Override
  public String toString() {
    return "TaskBatch[" + id + "]";
  }
}
