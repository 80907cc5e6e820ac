package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.config.ConfigException;
import io.tasklane.core.config.ConfigKeys;
import io.tasklane.core.config.ConfigSource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicReplicationTest {

  @Test
  void theDefaultFollowsTheCluster() {
    assertThat(TopicReplication.DEFAULT.resolve(1))
        .isEqualTo(new TopicReplication.Resolved((short) 1, 1, 1, false));
    assertThat(TopicReplication.DEFAULT.resolve(2))
        .isEqualTo(new TopicReplication.Resolved((short) 2, 1, 2, false));
    assertThat(TopicReplication.DEFAULT.resolve(3))
        .isEqualTo(new TopicReplication.Resolved((short) 3, 2, 3, false));
    assertThat(TopicReplication.DEFAULT.resolve(9))
        .isEqualTo(new TopicReplication.Resolved((short) 3, 2, 9, false));
  }

  @Test
  void aDerivedPairIsNeverAcceptedUnsafeButAConfiguredOneIs() {
    assertThat(TopicReplication.DEFAULT.resolve(3).acceptsUnsafe()).isFalse();
    assertThat(new TopicReplication(1, -1, false).resolve(3).acceptsUnsafe()).isTrue();
    assertThat(new TopicReplication(3, 1, false).resolve(3).acceptsUnsafe()).isTrue();
    assertThat(new TopicReplication(-1, -1, true).resolve(3).acceptsUnsafe()).isTrue();
  }

  @Test
  void settingsAreReadUnderTheAppsPrefixAndBadValuesNameTheKey() {
    ConfigKeys keys = ConfigKeys.of("tasklane.x.", TopicReplication.keys(), List.of());
    assertThat(
            TopicReplication.read(
                ConfigSource.of(
                    keys,
                    Map.of(
                        "tasklane.x.replication-factor", "3",
                        "tasklane.x.min-insync-replicas", "2",
                        "tasklane.x.allow-unsafe-replication", "true"))))
        .isEqualTo(new TopicReplication(3, 2, true));
    assertThat(TopicReplication.read(ConfigSource.of(keys, Map.of())))
        .isEqualTo(TopicReplication.DEFAULT);
    assertThatThrownBy(
            () ->
                TopicReplication.read(
                    ConfigSource.of(keys, Map.of("tasklane.x.replication-factor", "0"))))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("tasklane.x.replication-factor")
        .hasMessageContaining("-1 (follow the cluster) or 1 to 32767, got 0");
    assertThatThrownBy(
            () ->
                TopicReplication.read(
                    ConfigSource.of(
                        keys,
                        Map.of(
                            "tasklane.x.replication-factor", "2",
                            "tasklane.x.min-insync-replicas", "3"))))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("tasklane.x.min-insync-replicas")
        .hasMessageContaining("no write could ever be acknowledged");
  }
}
