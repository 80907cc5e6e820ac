package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TaskOptionsTest {

  static TaskOptions read(String json) throws Exception {
    return WireCodec.mapper().readValue(json, TaskOptions.class);
  }

  @Test
  void noneIsEmptyAndValid() {
    assertThat(TaskOptions.none().isEmpty()).isTrue();
    assertThat(TaskOptions.builder().build()).isSameAs(TaskOptions.none());
    assertThat(TaskOptions.none().validate()).isSameAs(TaskOptions.none());
    assertThat(TaskOptions.none().waitTimeoutMsOrNone()).isEqualTo(-1);
  }

  @Test
  void theBuilderSetsAndUnsetsAnOption() {
    TaskOptions o = TaskOptions.builder().waitTimeout(Duration.ofSeconds(90)).build();
    assertThat(o.waitTimeoutMs()).isEqualTo(90_000L);
    assertThat(o.isEmpty()).isFalse();
    assertThat(o.toBuilder().build()).isEqualTo(o);
    assertThat(o.toBuilder().waitTimeout(null).build()).isSameAs(TaskOptions.none());
  }

  @Test
  void theJsonCarriesTheVersionAndTheSetOptionsOnly() throws Exception {
    TaskOptions o = TaskOptions.builder().waitTimeoutMs(5_000L).build();
    assertThat(WireCodec.encodeToString(o)).isEqualTo("{\"v\":1,\"waitTimeoutMs\":5000}");
    assertThat(WireCodec.encodeToString(TaskOptions.none())).isEqualTo("{\"v\":1}");
    assertThat(read("{\"v\":1,\"waitTimeoutMs\":5000}")).isEqualTo(o);
  }

  @Test
  void aReaderIgnoresFieldsItDoesNotKnowAndDefaultsAnAbsentVersion() throws Exception {
    assertThat(read("{\"v\":1,\"waitTimeoutMs\":5000,\"later\":[1,{\"a\":2}],\"x\":null}"))
        .isEqualTo(TaskOptions.builder().waitTimeoutMs(5_000L).build());
    assertThat(read("{}")).isEqualTo(TaskOptions.none());
    assertThat(read("{\"waitTimeoutMs\":5000}").v()).isEqualTo(TaskOptions.VERSION);
  }

  @Test
  void eachRuleNamesItsFieldAndLimits() {
    for (long bad : new long[] {0, 999, 604_800_001, -1, Long.MIN_VALUE}) {
      assertThatThrownBy(() -> TaskOptions.builder().waitTimeoutMs(bad).build().validate())
          .isInstanceOf(InvalidTaskException.class)
          .hasMessage("waitTimeout: " + bad + " ms is outside 1 s to 7 d (1000 to 604800000 ms)")
          .satisfies(e -> assertThat(((InvalidTaskException) e).field()).isEqualTo("waitTimeout"));
    }
    for (long ok : new long[] {1_000, 604_800_000}) {
      assertThat(TaskOptions.builder().waitTimeoutMs(ok).build().validate().waitTimeoutMs())
          .isEqualTo(ok);
    }
    assertThatCode(
            () -> TaskOptions.builder().waitTimeout(Duration.ofSeconds(Long.MAX_VALUE)).build())
        .doesNotThrowAnyException();
    assertThatThrownBy(
            () ->
                TaskOptions.builder()
                    .waitTimeout(Duration.ofSeconds(Long.MAX_VALUE))
                    .build()
                    .validate())
        .hasMessageStartingWith("waitTimeout: " + Long.MAX_VALUE + " ms is outside");
  }

  @Test
  void aPriorityIsZeroToNineAndTheDefaultIsNotWritten() throws Exception {
    TaskOptions high = TaskOptions.builder().priority(9).build();
    assertThat(WireCodec.encodeToString(high)).isEqualTo("{\"v\":1,\"priority\":9}");
    assertThat(read("{\"v\":1,\"priority\":9}")).isEqualTo(high);
    assertThat(high.priorityOrDefault()).isEqualTo(9);
    assertThat(TaskOptions.builder().priority(TaskOptions.DEFAULT_PRIORITY).build())
        .isSameAs(TaskOptions.none());
    assertThat(TaskOptions.none().priorityOrDefault()).isEqualTo(5);
    assertThat(TaskOptions.builder().priority(0).build().validate().priority()).isZero();
    for (int bad : new int[] {-1, 10, Integer.MIN_VALUE}) {
      assertThatThrownBy(() -> TaskOptions.builder().priority(bad).build().validate())
          .isInstanceOf(InvalidTaskException.class)
          .hasMessage("priority: must be 0 to 9 (is " + bad + ")");
    }
  }

  @Test
  void aUniqueWindowEndsOnSuccessOrAtTheEndAndAnUnknownValueIsNamed() throws Exception {
    TaskOptions end = TaskOptions.builder().uniqueUntil(UniqueUntil.END).build();
    assertThat(WireCodec.encodeToString(end)).isEqualTo("{\"v\":1,\"uniqueUntil\":\"end\"}");
    assertThat(read("{\"uniqueUntil\":\"success\"}").validate().uniqueUntilOrNull())
        .isEqualTo(UniqueUntil.SUCCESS);
    assertThat(end.toBuilder().uniqueUntil(null).build()).isSameAs(TaskOptions.none());
    assertThatThrownBy(() -> read("{\"uniqueUntil\":\"start\"}").validate())
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("uniqueUntil")
        .hasMessageContaining("must be one of success, end (is \"start\")");
    assertThat(UniqueUntil.END.releasedBy(TaskState.CANCELLED)).isTrue();
    assertThat(UniqueUntil.END.releasedBy(TaskState.RETRYING)).isFalse();
    assertThat(UniqueUntil.SUCCESS.releasedBy(TaskState.DEAD)).isFalse();
    assertThat(UniqueUntil.SUCCESS.releasedBy(TaskState.SUCCEEDED)).isTrue();
  }

  @Test
  void aNewerIncompatibleVersionIsRefusedNamingIt() throws Exception {
    assertThatThrownBy(() -> read("{\"v\":2,\"waitTimeoutMs\":5000}").validate())
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("options: version 2 is not one this reader knows (1 to 1)");
    assertThatThrownBy(() -> new TaskOptions(-1, null, null, null, null, null).validate())
        .hasMessageStartingWith("options: version -1");
  }
}
