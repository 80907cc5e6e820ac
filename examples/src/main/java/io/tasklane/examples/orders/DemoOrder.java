package io.tasklane.examples.orders;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order: CREATED, then PAID by the customer or CANCELLED by the unpaid-order task. */
@Entity
@Table(name = "demo_orders")
public class DemoOrder {
  public static final String CREATED = "CREATED";
  public static final String PAID = "PAID";
  public static final String CANCELLED = "CANCELLED";

  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(nullable = false, length = 16)
  private String state = CREATED;

  @Column(name = "created_at", nullable = false)
  private long createdAt;

  @Column(name = "cancel_due_at", nullable = false)
  private long cancelDueAt;

  protected DemoOrder() {}

  public DemoOrder(long createdAt, long cancelDueAt) {
    this.createdAt = createdAt;
    this.cancelDueAt = cancelDueAt;
  }

  public Long getId() {
    return id;
  }

  public String getState() {
    return state;
  }

  public void setState(String state) {
    this.state = state;
  }

  public long getCreatedAt() {
    return createdAt;
  }

  public long getCancelDueAt() {
    return cancelDueAt;
  }
}
