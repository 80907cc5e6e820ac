package io.tasklane.spring.jpaapp;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The application's own entity, written in the same transaction as the task. */
@Entity
@Table(name = "orders")
public class PlacedOrder {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  private String item;

  protected PlacedOrder() {}

  public PlacedOrder(String item) {
    this.item = item;
  }

  public Long getId() {
    return id;
  }

  public String getItem() {
    return item;
  }
}
