package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReservedHeadersTest {

  @Test
  void everyNameIsListedOnceAsATaskOrARecordHeader() throws Exception {
    List<String> constants = new ArrayList<>();
    for (var f : ReservedHeaders.class.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        constants.add((String) f.get(null));
      }
    }
    List<String> listed = new ArrayList<>(ReservedHeaders.TASK_HEADERS);
    listed.addAll(ReservedHeaders.RECORD_HEADERS);
    assertThat(listed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(constants);
    assertThat(constants).hasSizeGreaterThan(15);
  }

  @Test
  void tasklaneNamesShareThePrefix() {
    assertThat(ReservedHeaders.RECORD_HEADERS).allMatch(n -> n.startsWith("tasklane."));
    assertThat(ReservedHeaders.TASK_HEADERS)
        .filteredOn(n -> !n.equals(ReservedHeaders.TRACEPARENT))
        .allMatch(n -> n.startsWith("tasklane."));
    assertThat(Arrays.asList(ReservedHeaders.TRACEPARENT))
        .containsExactly(io.tasklane.core.tracing.SpanKeys.TRACEPARENT);
  }
}
