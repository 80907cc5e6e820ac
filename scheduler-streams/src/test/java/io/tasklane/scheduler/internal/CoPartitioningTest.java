package io.tasklane.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CoPartitioningTest {
  private static Map<String, Integer> counts(int tasks, int results, int control) {
    Map<String, Integer> m = new LinkedHashMap<>();
    m.put("ns.tasks", tasks);
    m.put("ns.results", results);
    m.put("ns.control", control);
    return m;
  }

  @Test
  void refusesToStartNamingTheThreeTopicsAndTheirCounts() {
    assertThat(CoPartitioning.atStart(counts(4, 4, 4))).isNull();
    assertThat(CoPartitioning.atStart(counts(4, 6, 4)))
        .startsWith(
            "topics must have the same partition count (co-partitioned by routing key), found"
                + " {ns.tasks=4, ns.results=6, ns.control=4}");
  }

  @Test
  void aCountChangedWhileRunningNamesTheTopicAndBothCounts() {
    assertThat(CoPartitioning.changed(counts(4, 4, 4), 4)).isNull();
    assertThat(CoPartitioning.changed(counts(-1, 4, 4), 4))
        .as("not described: not judged")
        .isNull();
    assertThat(CoPartitioning.changed(counts(8, 4, 4), 4))
        .startsWith("topic ns.tasks now has 8 partitions, it had 4 when the scheduler started")
        .contains("the scheduler stops processing");
    assertThat(CoPartitioning.changed(counts(4, 4, 5), 4)).startsWith("topic ns.control now has 5");
  }
}
