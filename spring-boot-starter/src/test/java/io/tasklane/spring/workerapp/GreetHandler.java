package io.tasklane.spring.workerapp;

import io.tasklane.worker.Handler;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A class handler: injects Spring beans and writes its effect in the task's transaction (the
 * idempotency mark commits with it); a name starting with {@code fail} rolls both back.
 */
@Component
@TaskHandler("greet")
public class GreetHandler implements Handler<String> {
  private final Greeter greeter;
  private final JdbcTemplate jdbc;

  public GreetHandler(Greeter greeter, JdbcTemplate jdbc) {
    this.greeter = greeter;
    this.jdbc = jdbc;
  }

  @Override
  public void handle(String name, TaskContext ctx) throws Exception {
    String greeting = greeter.greet(ctx.taskId(), name);
    ctx.inTransaction(
        c -> {
          jdbc.update("INSERT INTO orders (item) VALUES (?)", greeting);
          if (name.startsWith("fail")) {
            throw new IllegalStateException("refused after the write");
          }
          return null;
        });
  }
}
