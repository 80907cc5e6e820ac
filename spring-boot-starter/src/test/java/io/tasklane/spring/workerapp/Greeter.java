package io.tasklane.spring.workerapp;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.springframework.stereotype.Component;

/** A plain Spring bean the handlers inject; remembers what they greeted, by task id. */
@Component
public class Greeter {
  public final Map<String, String> greeted = new ConcurrentHashMap<>();

  /** Released when a slow handler starts. */
  public final Semaphore slowStarted = new Semaphore(0);

  public String greet(String taskId, String name) {
    String greeting = "hello " + name;
    greeted.put(taskId, greeting);
    return greeting;
  }
}
