package io.tasklane.scheduler.internal.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.Tokens;
import io.tasklane.scheduler.internal.CountingMetrics;
import io.tasklane.scheduler.internal.StreamsProps;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.ProductionExceptionHandlerResponse;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.SerializationExceptionOrigin;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

class OutputErrorsTest {
  static final ErrorHandlerContext INPUT =
      new ErrorHandlerContext() {
        @Override
        public String topic() {
          return "t.tasks";
        }

        @Override
        public int partition() {
          return 3;
        }

        @Override
        public long offset() {
          return 42;
        }

        @Override
        public Headers headers() {
          return new RecordHeaders();
        }

        @Override
        public String processorNodeId() {
          return Stores.TASK_PROCESSOR;
        }

        @Override
        public TaskId taskId() {
          return new TaskId(0, 3);
        }

        @Override
        public long timestamp() {
          return 0;
        }

        @Override
        public byte[] sourceRawKey() {
          return null;
        }

        @Override
        public byte[] sourceRawValue() {
          return null;
        }
      };

  static final ProducerRecord<byte[], byte[]> DISPATCH =
      new ProducerRecord<>(
          "t.handler.mail.send", "id".getBytes(StandardCharsets.UTF_8), new byte[2 * 1024 * 1024]);

  @Test
  void skipsAndCountsARecordTooLargeToEverBeWrittenButFailsOnBrokerErrors() {
    CountingMetrics metrics = new CountingMetrics();
    OutputErrors handler = new OutputErrors();
    handler.configure(Map.of(OutputErrors.METRICS_CONFIG, metrics));

    assertThat(handler.handle(INPUT, DISPATCH, new RecordTooLargeException("2 MiB")))
        .isEqualTo(ProductionExceptionHandlerResponse.CONTINUE);
    assertThat(metrics.get("produce.too-large")).isEqualTo(1);
    assertThat(handler.handle(INPUT, DISPATCH, new TimeoutException("broker down")))
        .isEqualTo(ProductionExceptionHandlerResponse.FAIL);
    assertThat(handler.handle(INPUT, DISPATCH, new NotLeaderOrFollowerException("moved")))
        .isEqualTo(ProductionExceptionHandlerResponse.FAIL);
    assertThat(
            handler.handleSerializationException(
                INPUT,
                DISPATCH,
                new IllegalStateException("x"),
                SerializationExceptionOrigin.VALUE))
        .isEqualTo(ProductionExceptionHandlerResponse.CONTINUE);
    assertThat(metrics.get("produce.unserializable")).isEqualTo(1);
  }

  @Test
  void theStreamsConfigurationInstallsIt() {
    SchedulerConfig c =
        SchedulerConfig.builder()
            .bootstrapServers("localhost:9092")
            .advertisedHost("scheduler-1.example.net")
            .apiTokens(List.of(new ApiToken("ops", Tokens.random(), SchedulerConfig.Role.VIEWER)))
            .build();
    CountingMetrics metrics = new CountingMetrics();
    Properties p = StreamsProps.streams(c, new HostInfo("h", 1), metrics);
    assertThat(p.get(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG))
        .isEqualTo(OutputErrors.class.getName());
    assertThat(p.get(OutputErrors.METRICS_CONFIG)).isSameAs(metrics);
    // Streams hands its originals to the handler: the metrics arrive there.
    OutputErrors handler =
        new StreamsConfig(p)
            .getConfiguredInstance(
                StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, OutputErrors.class);
    handler.handle(INPUT, DISPATCH, new RecordTooLargeException("2 MiB"));
    assertThat(metrics.get("produce.too-large")).isEqualTo(1);
  }
}
