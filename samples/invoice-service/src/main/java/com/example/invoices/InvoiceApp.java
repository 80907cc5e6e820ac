package com.example.invoices;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.Micronaut;
import io.tasklane.core.TaskKey;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar invoice-service.jar} runs the worker until SIGTERM; {@code ... issue <customer>
 * <cents>} and {@code ... pay <invoiceId>} run one business transaction and exit.
 */
public final class InvoiceApp {
  private InvoiceApp() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length > 0) {
      command(args);
      return;
    }
    ApplicationContext context = Micronaut.build(args).mainClass(InvoiceApp.class).start();
    // No HTTP server here: Micronaut adds no shutdown hook and the worker's threads are daemons.
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  context.close(); // stops the worker: unfinished tasks are delivered again
                  stopped.countDown();
                }));
    stopped.await();
  }

  private static void command(String[] args) {
    // One transaction, no handlers: the worker stays off in this process.
    try (ApplicationContext context =
        ApplicationContext.run(Map.of("tasklane.worker.enabled", "false"))) {
      InvoiceService invoices = context.getBean(InvoiceService.class);
      switch (args[0]) {
        case "issue" -> {
          long id = invoices.issue(args[1], Long.parseLong(args[2]));
          System.out.println("invoice " + id + " issued");
          System.out.println(
              "  send task:   " + TaskKey.of(InvoiceService.SEND, "send-" + id).taskId());
          System.out.println(
              "  remind task: " + TaskKey.of(InvoiceService.REMIND, "remind-" + id).taskId());
        }
        case "pay" -> {
          long id = Long.parseLong(args[1]);
          System.out.println(
              invoices.pay(id) ? "invoice " + id + " paid" : "invoice " + id + " not payable");
        }
        default -> throw new IllegalArgumentException(
            "usage: issue <customer> <cents> | pay <invoiceId> | (no argument: run the worker)");
      }
    }
  }
}
