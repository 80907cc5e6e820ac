package com.example.orders;

import io.tasklane.core.TaskKey;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /orders?customer=&amountCents=} and {@code POST /orders/{id}/pay}. */
@RestController
@RequestMapping("/orders")
public class OrderController {
  /** The new order and the ids of its two tasks (to read their status from the scheduler). */
  public record Placed(long id, String confirmTask, String cancelUnpaidTask) {}

  private final OrderService orders;

  public OrderController(OrderService orders) {
    this.orders = orders;
  }

  @PostMapping
  public Placed place(@RequestParam String customer, @RequestParam long amountCents) {
    long id = orders.place(customer, amountCents);
    return new Placed(
        id,
        TaskKey.of(OrderService.CONFIRM, "confirm-" + id).taskId(),
        TaskKey.of(OrderService.CANCEL_UNPAID, "cancel-" + id).taskId());
  }

  @PostMapping("/{id}/pay")
  public ResponseEntity<String> pay(@PathVariable long id) {
    return orders.pay(id)
        ? ResponseEntity.ok("order " + id + " paid\n")
        : ResponseEntity.status(409).body("order " + id + " is not payable\n");
  }
}
