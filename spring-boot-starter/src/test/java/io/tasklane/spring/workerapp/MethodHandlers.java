package io.tasklane.spring.workerapp;

import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import org.springframework.stereotype.Service;

/** A method handler on a Spring bean. */
@Service
public class MethodHandlers {
  private final Greeter greeter;

  public MethodHandlers(Greeter greeter) {
    this.greeter = greeter;
  }

  @TaskHandler("wave")
  public void wave(String name, TaskContext ctx) {
    greeter.greet(ctx.taskId(), "wave " + name);
  }

  /** Runs long enough for the application to be closed while it runs. */
  @TaskHandler("slow")
  public void slow(String name, TaskContext ctx) throws InterruptedException {
    greeter.slowStarted.release();
    Thread.sleep(1_500);
    greeter.greet(ctx.taskId(), "slow " + name);
  }
}
