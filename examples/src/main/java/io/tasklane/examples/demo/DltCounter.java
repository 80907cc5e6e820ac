package io.tasklane.examples.demo;

import io.tasklane.harness.TopicReader;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/** Counts which of the given task ids have a record on a dead-letter topic. */
final class DltCounter {
  private DltCounter() {}

  static long count(String bootstrap, String topic, Collection<String> ids) {
    Set<String> seen = new HashSet<>();
    new TopicReader(bootstrap, "demo-dlt-")
        .setting("auto.offset.reset", "earliest")
        .readAll(
            topic,
            r -> seen.add(r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8)));
    return ids.stream().filter(seen::contains).count();
  }
}
