package io.tasklane.core;

/**
 * A task named by its handler and idempotency key instead of its id: the pair a keyed task was
 * enqueued with. Its id is {@link TaskIds#forKey(String, String)}, so a {@code TaskKey} finds the
 * task without the caller computing anything.
 *
 * <pre>{@code
 * outbox.cancel(TaskKey.of("order.cancel-unpaid", "cancel-" + orderId));
 * }</pre>
 *
 * @param handler the handler the task was enqueued for
 * @param key the idempotency key it was enqueued with
 */
public record TaskKey(String handler, String key) {

  /** Checks both parts like an enqueue does; throws {@link InvalidTaskException} naming them. */
  public TaskKey {
    TaskIds.forKey(handler, key);
  }

  /** The task of {@code handler} enqueued with idempotency key {@code key}. */
  public static TaskKey of(String handler, String key) {
    return new TaskKey(handler, key);
  }

  /** The task's id, derived from the pair. */
  public String taskId() {
    return TaskIds.forKey(handler, key);
  }
}
