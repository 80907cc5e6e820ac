package io.tasklane.spring.recurringapp;

import io.tasklane.worker.Handler;
import io.tasklane.worker.Recurring;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import java.util.Map;
import org.springframework.stereotype.Component;

/** A class handler with a cron schedule. */
@Component
@TaskHandler("report.build")
@Recurring(
    name = "reports.nightly",
    cron = "30 2 * * *",
    zone = "Europe/Berlin",
    payload = "{\"report\":\"sales\"}",
    maxAttempts = 3,
    timeout = "10m")
public class NightlyReport implements Handler<Map<String, String>> {
  @Override
  public void handle(Map<String, String> payload, TaskContext context) {}
}
