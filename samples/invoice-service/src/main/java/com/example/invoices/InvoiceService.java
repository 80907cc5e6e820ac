package com.example.invoices;

import io.micronaut.context.annotation.Value;
import io.micronaut.transaction.annotation.Transactional;
import io.tasklane.core.TaskKey;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import java.time.Duration;

/** Issues and pays invoices: each method is one transaction, rows and tasks commit together. */
@Singleton
public class InvoiceService {
  public static final String SEND = "invoice.send";
  public static final String REMIND = "invoice.remind";

  private final EntityManager em;
  private final TaskOutbox outbox;
  private final Duration reminderDelay;

  public InvoiceService(
      EntityManager em,
      TaskOutbox outbox,
      @Value("${invoice.reminder-delay:P7D}") Duration reminderDelay) {
    this.em = em;
    this.outbox = outbox;
    this.reminderDelay = reminderDelay;
  }

  @Transactional
  public long issue(String customer, long amountCents) {
    Invoice invoice = new Invoice(customer, amountCents);
    em.persist(invoice);
    em.flush(); // assigns the id
    long id = invoice.getId();
    outbox.enqueue(TaskRequest.to(SEND).payload(new InvoiceRef(id)).key("send-" + id));
    outbox.enqueue(
        TaskRequest.to(REMIND)
            .payload(new InvoiceRef(id))
            .delay(reminderDelay)
            .key("remind-" + id));
    return id;
  }

  @Transactional
  public boolean pay(long invoiceId) {
    Invoice invoice = em.find(Invoice.class, invoiceId, LockModeType.PESSIMISTIC_WRITE);
    if (invoice == null || invoice.isPaid()) {
      return false;
    }
    invoice.markPaid();
    outbox.cancel(TaskKey.of(REMIND, "remind-" + invoiceId)); // commits with the payment
    return true;
  }
}
