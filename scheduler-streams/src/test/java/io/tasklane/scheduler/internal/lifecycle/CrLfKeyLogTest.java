package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Raw record keys from Kafka are escaped in the scheduler's log lines: no forged lines. */
class CrLfKeyLogTest {
  static final String KEY = "k1\r\nFAKE LOG LINE";

  @TempDir Path dir;
  Driver d;
  ListAppender<ILoggingEvent> lines = new ListAppender<>();
  Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

  @BeforeEach
  void start() {
    lines.start();
    root.addAppender(lines);
    d = new Driver(dir);
  }

  @AfterEach
  void stop() {
    root.detachAppender(lines);
    d.close();
  }

  @Test
  void keysWithCrLfAreLoggedEscapedOnOneLine() {
    d.tasks.pipeInput(new TestRecord<>(KEY, "{not json".getBytes(StandardCharsets.UTF_8)));
    TaskEnvelope good = Driver.task(T0);
    d.tasks.pipeInput(new TestRecord<>(KEY, WireCodec.encode(good))); // keyed wrongly
    d.control.pipeInput(
        new TestRecord<>(KEY, "{\"v\":1,\"type\":\"explode\"}".getBytes(StandardCharsets.UTF_8)));

    List<String> logged = lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(logged).filteredOn(l -> l.contains("FAKE LOG LINE")).hasSizeGreaterThanOrEqualTo(3);
    for (String l : logged) {
      assertThat(l).doesNotContain("\r", "\n");
    }
    assertThat(logged).anyMatch(l -> l.contains("k1\\r\\nFAKE LOG LINE"));
    d.send(good);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(good.id());
  }
}
