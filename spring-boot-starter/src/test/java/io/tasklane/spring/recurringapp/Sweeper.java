package io.tasklane.spring.recurringapp;

import io.tasklane.worker.Recurring;
import io.tasklane.worker.TaskHandler;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** A method handler with an interval schedule, on a bean Spring proxies. */
@Service
public class Sweeper {
  @TaskHandler("orders.sweep")
  @Recurring(name = "orders.sweep.every", every = "30s")
  @Transactional
  public void sweep(Object payload) {}
}
