package io.tasklane.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerConfigBuilder;
import io.tasklane.scheduler.Tokens;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

class StreamsPropsTest {
  private static Properties streams(Map<String, String> kafka) {
    SchedulerConfig c =
        SchedulerConfig.builder()
            .bootstrapServers("localhost:9092")
            .advertisedHost("scheduler-1.example.net")
            .apiTokens(List.of(new ApiToken("ops", Tokens.random(), SchedulerConfig.Role.VIEWER)))
            .kafka(kafka)
            .build();
    return StreamsProps.streams(c, new HostInfo("h", 1), new CountingMetrics());
  }

  @Test
  void sessionTimeoutIsSixSecondsUnlessKafkaSettingsOrTheStreamsProtocolDecide() {
    assertThat(streams(Map.of()))
        .containsEntry("session.timeout.ms", 6000)
        .containsEntry("heartbeat.interval.ms", 1500);
    assertThat(streams(Map.of("session.timeout.ms", "45000", "heartbeat.interval.ms", "3000")))
        .containsEntry("session.timeout.ms", "45000")
        .containsEntry("heartbeat.interval.ms", "3000");
    assertThat(streams(Map.of("session.timeout.ms", "1200")))
        .as("a shorter session without a heartbeat brings the heartbeat down with it")
        .containsEntry("session.timeout.ms", "1200")
        .containsEntry("heartbeat.interval.ms", 300);
    assertThat(streams(Map.of("group.protocol", "streams")))
        .doesNotContainKeys("session.timeout.ms", "heartbeat.interval.ms");
  }

  @Test
  void aPollWaitsNoLongerThanThePunctuationIntervalUnlessKafkaPollMsSaysOtherwise() {
    long interval = SchedulerConfig.DEFAULT_PUNCTUATION_INTERVAL.toMillis();
    assertThat(streams(Map.of())).containsEntry("poll.ms", Math.min(100L, interval));
    assertThat(streams(Map.of("poll.ms", "250"))).containsEntry("poll.ms", "250");
    SchedulerConfig slow =
        SchedulerConfig.builder()
            .bootstrapServers("localhost:9092")
            .advertisedHost("scheduler-1.example.net")
            .apiTokens(List.of(new ApiToken("ops", Tokens.random(), SchedulerConfig.Role.VIEWER)))
            .punctuationInterval(java.time.Duration.ofSeconds(1))
            .build();
    assertThat(StreamsProps.streams(slow, new HostInfo("h", 1), new CountingMetrics()))
        .as("a poll never waits longer than Kafka Streams' default")
        .containsEntry("poll.ms", 100L);
  }

  @Test
  void everyStoreSharesOneMemoryBudgetUnlessAConfigSetterIsGiven() {
    assertThat(streams(Map.of()))
        .containsEntry("rocksdb.config.setter", BoundedStoreMemory.class)
        .containsEntry(BoundedStoreMemory.BYTES_CONFIG, 128L << 20);
    assertThat(streams(Map.of("rocksdb.config.setter", "com.example.Mine")))
        .containsEntry("rocksdb.config.setter", "com.example.Mine");
  }

  @Test
  void storeMemoryIsChecked() {
    SchedulerConfigBuilder b =
        SchedulerConfig.builder()
            .bootstrapServers("localhost:9092")
            .advertisedHost("scheduler-1.example.net")
            .apiTokens(List.of(new ApiToken("ops", Tokens.random(), SchedulerConfig.Role.VIEWER)));
    assertThat(b.storeMemoryMb(64).build().storeMemoryMb()).isEqualTo(64);
    assertThatThrownBy(() -> b.storeMemoryMb(8).build())
        .hasMessageStartingWith("tasklane.scheduler.store-memory-mb: 8 is outside");
  }
}
