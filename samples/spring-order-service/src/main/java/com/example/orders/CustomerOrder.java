package com.example.orders;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order: CREATED, then PAID or CANCELLED. Its confirmation and its unpaid timeout are tasks. */
@Entity
@Table(name = "orders")
public class CustomerOrder {
  public static final String CREATED = "CREATED";
  public static final String PAID = "PAID";
  public static final String CANCELLED = "CANCELLED";

  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(nullable = false, length = 100)
  private String customer;

  @Column(name = "amount_cents", nullable = false)
  private long amountCents;

  @Column(nullable = false, length = 16)
  private String state = CREATED;

  @Column(name = "confirmations_sent", nullable = false)
  private int confirmationsSent;

  protected CustomerOrder() {}

  public CustomerOrder(String customer, long amountCents) {
    this.customer = customer;
    this.amountCents = amountCents;
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

  public void confirmationSent() {
    confirmationsSent++;
  }
}
