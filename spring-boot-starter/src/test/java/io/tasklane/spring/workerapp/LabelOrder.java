package io.tasklane.spring.workerapp;

import io.tasklane.core.TaskType;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TypedHandler;
import org.springframework.stereotype.Component;

/** A typed handler bean: receives its payload as the type's record. */
@Component
public class LabelOrder implements TypedHandler<LabelOrder.Label> {
  /** The task type, declared once for the outbox and the handler. */
  public static final TaskType<Label> TYPE = TaskType.of("order.label", Label.class);

  /** The payload. */
  public record Label(long orderId, String carrier) {}

  private final Greeter greeter;

  public LabelOrder(Greeter greeter) {
    this.greeter = greeter;
  }

  @Override
  public TaskType<Label> type() {
    return TYPE;
  }

  @Override
  public void handle(Label label, TaskContext ctx) {
    greeter.greet(ctx.taskId(), label.carrier() + " " + label.orderId());
  }
}
