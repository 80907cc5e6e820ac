package com.example.invoices;

import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;

/** The invoice tasks. Each effect and Tasklane's "processed" mark commit together. */
@Singleton
public class InvoiceHandlers {

  @TaskHandler(InvoiceService.SEND)
  public void send(InvoiceRef ref, TaskContext ctx) throws Exception {
    ctx.log().info("sending invoice {}", ref.invoiceId());
    ctx.inTransaction(
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("UPDATE invoices SET sent_at = ? WHERE id = ?")) {
            ps.setLong(1, System.currentTimeMillis());
            ps.setLong(2, ref.invoiceId());
            return ps.executeUpdate();
          }
        });
  }

  @TaskHandler(InvoiceService.REMIND)
  public void remind(InvoiceRef ref, TaskContext ctx) throws Exception {
    ctx.inTransaction(
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE invoices SET reminders = reminders + 1"
                      + " WHERE id = ? AND state = 'ISSUED'")) {
            ps.setLong(1, ref.invoiceId());
            return ps.executeUpdate();
          }
        });
  }
}
