package com.example.invoices;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An invoice: ISSUED, then PAID. Its e-mail and its payment reminder are Tasklane tasks. */
@Entity
@Table(name = "invoices")
public class Invoice {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(nullable = false, length = 100)
  private String customer;

  @Column(name = "amount_cents", nullable = false)
  private long amountCents;

  @Column(nullable = false, length = 16)
  private String state = "ISSUED";

  protected Invoice() {}

  public Invoice(String customer, long amountCents) {
    this.customer = customer;
    this.amountCents = amountCents;
  }

  public Long getId() {
    return id;
  }

  public boolean isPaid() {
    return "PAID".equals(state);
  }

  public void markPaid() {
    state = "PAID";
  }
}
