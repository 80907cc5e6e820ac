package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each record type against a hand-written JSON fixture: decode, compare, re-encode, compare. */
class GoldenFixturesTest {
  static final String ID = "0190f3a2-7b1c-7e4a-9d2b-3c4d5e6f7a8b";
  static final String DEP = "0190f3a2-7b1c-7e4a-9d2b-000000000001";
  static final String DEP2 = "0190f3a2-7b1c-7e4a-9d2b-000000000002";
  static final String ID2 = "0190f3a2-7b1c-7e4a-9d2b-000000000003";

  static byte[] fixture(String name) throws IOException {
    try (InputStream in = GoldenFixturesTest.class.getResourceAsStream("/fixtures/" + name)) {
      return in.readAllBytes();
    }
  }

  static void assertSameJson(Object record, byte[] fixture) throws IOException {
    JsonNode expected = WireCodec.mapper().readTree(fixture);
    JsonNode actual = WireCodec.mapper().readTree(WireCodec.encode(record));
    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void taskEnvelopeMatchesFixture() throws IOException {
    byte[] json = fixture("task.json");
    TaskTopicRecord decoded = WireCodec.decodeTaskRecord(json);
    TaskEnvelope expected =
        TaskEnvelope.builder()
            .id(ID)
            .handler("order.cancel-unpaid")
            .key("order-42")
            .payload(WireCodec.readTree("{\"orderId\":42,\"reason\":\"unpaid\"}"))
            .dueAt(1767225600000L)
            .maxAttempts(5)
            .timeoutMs(30000)
            .backoff(new RetryPolicy.Fixed(List.of(60000L, 300000L, 1200000L)))
            .dependsOn(List.of(DEP))
            .headers(
                Map.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
            .createdAt(1767223800000L)
            .source(new Source("tasklane_outbox", 7))
            .build();
    assertThat(decoded).isEqualTo(expected);
    assertThat(((TaskEnvelope) decoded).routingKey()).isEqualTo(ID);
    assertSameJson(expected, json);
  }

  @Test
  void cancelCommandMatchesFixture() throws IOException {
    byte[] json = fixture("cancel.json");
    CancelCommand expected = CancelCommand.of(ID, "order paid", 1767224000000L);
    assertThat(WireCodec.decodeTaskRecord(json)).isEqualTo(expected);
    assertThat(WireCodec.decodeControl(json)).isEqualTo(expected);
    assertSameJson(expected, json);
  }

  @Test
  void dispatchMatchesFixture() throws IOException {
    byte[] json = fixture("dispatch.json");
    Dispatch decoded = WireCodec.decodeDispatch(json);
    assertThat(decoded.attempt()).isEqualTo(2);
    assertThat(decoded.deadline()).isEqualTo(1767225665000L);
    assertThat(decoded.task().shard()).isEqualTo(new Shard(2, 8));
    assertThat(decoded.task().backoff()).isEqualTo(RetryPolicy.sidekiq());
    assertThat(decoded.task().payload().isNull()).isTrue();
    assertThat(decoded.id()).isEqualTo(ID);
    assertSameJson(decoded, json);
  }

  @Test
  void resultMatchesFixture() throws IOException {
    byte[] json = fixture("result.json");
    TaskResult expected =
        TaskResult.failed(
            ID,
            2,
            Outcome.RETRY_LATER,
            new ErrorInfo(
                "io.tasklane.worker.RetryableTaskException",
                "partner busy",
                "at Partner.call(Partner.java:10)"),
            5000L,
            1767225600010L,
            1767225600200L,
            "worker-1");
    assertThat(WireCodec.decodeResult(json)).isEqualTo(expected);
    assertSameJson(expected, json);
  }

  @Test
  void controlCommandsMatchFixtures() throws IOException {
    Map<String, ControlRecord> expected =
        Map.of(
            "control-retry-dead.json", ControlCommand.RetryDead.of(ID, 1767225600000L),
            "control-retry-dead-actor.json",
                ControlCommand.RetryDead.of(ID, 1767225600000L, "ops-alice"),
            "cancel-actor.json",
                CancelCommand.of(ID, "customer asked", 1767224000000L, "ops-alice"),
            "cancel-by-key.json",
                CancelCommand.of(ID, null, 1767224000000L)
                    .withTask("order.cancel-unpaid", "cancel-42"),
            "control-trigger.json", ControlCommand.Trigger.of(ID, 1767225600000L),
            "control-discard.json", ControlCommand.Discard.of(ID, 1767225600000L),
            "control-await.json", ControlCommand.Await.of(DEP, ID, ID),
            "control-await-probe.json",
                ControlCommand.Await.probe(DEP, ID, "order-42", List.of(DEP2, ID2)),
            "control-dependency-done.json",
                ControlCommand.DependencyDone.of(ID, DEP, TaskState.DEAD, "dependency went DEAD"));
    for (var e : expected.entrySet()) {
      byte[] json = fixture(e.getKey());
      assertThat(WireCodec.decodeControl(json)).as(e.getKey()).isEqualTo(e.getValue());
      assertSameJson(e.getValue(), json);
    }
  }

  @Test
  void logLineMatchesFixture() throws IOException {
    byte[] json = fixture("log-line.json");
    TaskLogLine expected =
        new TaskLogLine(1, ID, 1, 1767225600100L, "INFO", "sent mail to a@example.com", "worker-1");
    assertThat(WireCodec.decode(json, TaskLogLine.class)).isEqualTo(expected);
    assertSameJson(expected, json);
  }

  @Test
  void scheduleDefinitionMatchesFixture() throws IOException {
    byte[] json = fixture("schedule.json");
    ScheduleDefinition expected =
        ScheduleDefinition.builder()
            .name("reports.nightly")
            .version(3)
            .handler("report.build")
            .payload(WireCodec.readTree("{\"report\":\"sales\"}"))
            .cron("30 2 * * *")
            .zone("Europe/Berlin")
            .startAt(1767225600000L)
            .misfire("FIRE_ONCE_IF_LATE_BY_AT_MOST(5000ms)")
            .routing(ScheduleDefinition.Routing.BROADCAST)
            .shards(4)
            .maxAttempts(3)
            .timeoutMs(600000)
            .backoff(new RetryPolicy.Fixed(List.of(60000L)))
            .build();
    TaskTopicRecord decoded = WireCodec.decodeTaskRecord(json);
    assertThat(decoded).isEqualTo(expected);
    assertThat(decoded.id()).isNull();
    assertThat(expected.misfirePolicy()).isEqualTo(MisfirePolicy.DEFAULT);
    assertSameJson(expected, json);
  }

  @Test
  void unscheduleMatchesFixture() throws IOException {
    byte[] json = fixture("unschedule.json");
    Unschedule expected = Unschedule.of("reports.nightly", 4, 1767225600000L);
    assertThat(WireCodec.decodeTaskRecord(json)).isEqualTo(expected);
    assertSameJson(expected, json);
  }

  @Test
  void scheduleTriggerMatchesFixture() throws IOException {
    byte[] json = fixture("schedule-trigger.json");
    ScheduleTrigger expected = ScheduleTrigger.of("reports.nightly", "ops-42", 1767225600000L);
    assertThat(WireCodec.decodeTaskRecord(json)).isEqualTo(expected);
    assertSameJson(expected, json);
  }

  @Test
  void scheduleFireDoneMatchesFixture() throws IOException {
    byte[] json = fixture("schedule-fire-done.json");
    ScheduleFireDone expected =
        ScheduleFireDone.of(
            "reports.nightly",
            "0b8a1c3e-5f4d-5a6b-9c7d-8e9f0a1b2c3d",
            "0b8a1c3e-5f4d-5a6b-9c7d-8e9f0a1b2c3d",
            TaskState.SUCCEEDED,
            null,
            1767225660000L);
    assertThat(WireCodec.decodeTaskRecord(json)).isEqualTo(expected);
    assertSameJson(expected, json);
  }

  @Test
  void scheduleFireDoneCarriesItsFireInstantAndReadsWithoutIt() throws IOException {
    ScheduleFireDone withAt =
        ScheduleFireDone.of(
            "reports.nightly", "f1", 1767225600000L, "t1", TaskState.DEAD, "boom", 1767225660000L);
    byte[] json = WireCodec.encode(withAt);
    assertThat(new String(json, java.nio.charset.StandardCharsets.UTF_8))
        .contains("\"fireAt\":1767225600000");
    assertThat(WireCodec.decodeTaskRecord(json)).isEqualTo(withAt);
    ScheduleFireDone old =
        (ScheduleFireDone) WireCodec.decodeTaskRecord(fixture("schedule-fire-done.json"));
    assertThat(old.fireAt()).isNull();
  }

  @Test
  void aDispatchAndItsResultCarryTheNonceAndHandlerAndReadWithoutThem() throws IOException {
    Dispatch old = WireCodec.decodeDispatch(fixture("dispatch.json"));
    assertThat(old.nonce()).isNull();
    TaskResult unbound = WireCodec.decodeResult(fixture("result.json"));
    assertThat(unbound.nonce()).isNull();
    assertThat(unbound.handler()).isNull();

    Dispatch dispatch = old.withNonce("q3Jx0Zb1Vn8sV4mYp2oX7w");
    byte[] json = WireCodec.encode(dispatch);
    assertThat(new String(json, java.nio.charset.StandardCharsets.UTF_8))
        .contains("\"nonce\":\"q3Jx0Zb1Vn8sV4mYp2oX7w\"");
    assertThat(WireCodec.decodeDispatch(json)).isEqualTo(dispatch);

    TaskResult bound = unbound.answering(dispatch);
    assertThat(bound.handler()).isEqualTo("report.nightly");
    assertThat(bound.nonce()).isEqualTo("q3Jx0Zb1Vn8sV4mYp2oX7w");
    byte[] result = WireCodec.encode(bound);
    assertThat(new String(result, java.nio.charset.StandardCharsets.UTF_8))
        .contains("\"handler\":\"report.nightly\"", "\"nonce\":\"q3Jx0Zb1Vn8sV4mYp2oX7w\"");
    assertThat(WireCodec.decodeResult(result)).isEqualTo(bound);
    assertThat(unbound.answering(old).nonce()).isNull();
  }
}
