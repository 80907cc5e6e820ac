package io.tasklane.scheduler.internal;

import io.tasklane.scheduler.internal.lifecycle.HandlerTopics;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A handler-topic set the test fills in by hand. */
public final class KnownTopics implements HandlerTopics {
  public final Set<String> topics = ConcurrentHashMap.newKeySet();

  @Override
  public boolean exists(String topic) {
    return topics.contains(topic);
  }
}
