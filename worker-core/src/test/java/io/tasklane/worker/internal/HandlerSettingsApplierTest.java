package io.tasklane.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.tasklane.core.HandlerSetting;
import io.tasklane.core.Wire;
import io.tasklane.core.WireCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The worker's follower of {@code <ns>.handler-settings}: a setting with a concurrency no pool can
 * take is skipped with a WARN and the rest of the poll's batch is applied.
 */
class HandlerSettingsApplierTest {
  static final String TOPIC = "t.handler-settings";

  @Test
  void aSettingWithConcurrencyZeroOrLessIsSkippedAndTheRestOfTheBatchIsApplied() {
    List<String> resized = new CopyOnWriteArrayList<>();
    // Like ThreadPoolExecutor.setCorePoolSize: a size below 1 throws.
    HandlerSettingsApplier applier =
        new HandlerSettingsApplier(
            (handler, n) -> {
              if (n != null && n < 1) {
                throw new IllegalArgumentException();
              }
              resized.add(handler + "=" + n);
            });
    MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    TopicPartition tp = new TopicPartition(TOPIC, 0);
    consumer.assign(List.of(tp));
    consumer.updateBeginningOffsets(Map.of(tp, 0L));
    consumer.addRecord(record(0, "mail.send", setting("mail.send", 0)));
    consumer.addRecord(record(1, "mail.send\r\nFAKE LOG LINE", setting("pdf.render", -3)));
    consumer.addRecord(record(2, "sms.send", setting("sms.send", 4)));
    consumer.addRecord(record(3, "big.one", setting("big.one", 1_001)));
    consumer.addRecord(record(4, "mail.send", setting("mail.send", null)));

    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    root.addAppender(lines);
    TopicFollower follower = new TopicFollower(consumer, TOPIC, false, applier);
    Thread t = new Thread(follower, "test-settings");
    t.start();
    try {
      await().atMost(Duration.ofSeconds(10)).until(() -> resized.size() >= 2);
    } finally {
      follower.stop();
      root.detachAppender(lines);
    }

    assertThat(resized).containsExactly("sms.send=4", "mail.send=null");
    List<String> warnings =
        lines.list.stream()
            .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
            // only this class's lines: other tests' client threads log to the same root
            .filter(e -> e.getLoggerName().startsWith("io.tasklane.worker"))
            .map(ILoggingEvent::getFormattedMessage)
            .toList();
    assertThat(warnings)
        .hasSize(3)
        .allMatch(w -> w.contains("outside 1 to " + HandlerSetting.MAX_CONCURRENCY));
    assertThat(warnings.get(1)).contains("mail.send\\r\\nFAKE LOG LINE").doesNotContain("\n");
  }

  private static byte[] setting(String handler, Integer concurrency) {
    return WireCodec.encode(
        new HandlerSetting(Wire.VERSION, handler, false, concurrency, null, null, 1L, "ops"));
  }

  private static ConsumerRecord<byte[], byte[]> record(long offset, String key, byte[] value) {
    return new ConsumerRecord<>(TOPIC, 0, offset, key.getBytes(StandardCharsets.UTF_8), value);
  }
}
