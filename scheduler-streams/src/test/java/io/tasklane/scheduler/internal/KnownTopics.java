package io.tasklane.scheduler.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A handler-topic set the test fills in by hand. */
final class KnownTopics implements HandlerTopics {
  final Set<String> topics = ConcurrentHashMap.newKeySet();

  @Override
  public boolean exists(String topic) {
    return topics.contains(topic);
  }
}
