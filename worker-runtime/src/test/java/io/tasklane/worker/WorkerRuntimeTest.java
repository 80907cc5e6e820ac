package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.ApplicationContext;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.Shard;
import io.tasklane.core.TaskLogLine;
import io.tasklane.core.TaskResult;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.BasicSuite.Greeting;
import io.tasklane.worker.BasicSuite.Probe;
import io.tasklane.worker.support.Dispatches;
import io.tasklane.worker.support.WorkerFixture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** One worker context on the real broker and MariaDB, several handlers. */
@TasklaneStack
class WorkerRuntimeTest {
  private static final List<String> HANDLERS = List.of("echo", "outcomes", "slow", "db");
  private static final int LOG_BUDGET = 65_536;
  private static WorkerFixture fx;
  private static ApplicationContext ctx;
  private static Probe probe;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    fx = new WorkerFixture(stack, "basic", HANDLERS);
    fx.sql(
        "CREATE TABLE effects (id BIGINT AUTO_INCREMENT PRIMARY KEY, task_id CHAR(36), note"
            + " VARCHAR(100))");
    ctx =
        fx.start(
            Map.of(
                "tasklane.worker.handlers.slow.concurrency", 2,
                "tasklane.worker.handlers.slow.max-in-flight", 4,
                "tasklane.worker.log-bytes-per-attempt", LOG_BUDGET));
    probe = ctx.getBean(Probe.class);
  }

  @AfterAll
  static void stop() throws Exception {
    if (fx != null) {
      probe.releaseSlow.countDown();
      probe.releaseStubborn.countDown();
      fx.close();
    }
  }

  @Test
  void handlerReceivesPayloadSucceedsAndShipsLogLines() {
    Dispatch d = Dispatches.of("echo", new Greeting("ada", 2), 30_000);
    fx.send(d);

    TaskResult r = fx.awaitResult(d.id());
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(r.attempt()).isEqualTo(1);
    assertThat(r.worker()).isEqualTo("test-worker");
    assertThat(probe.runs).containsEntry(d.id(), 1);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(logLines(d.id()))
                    .extracting(TaskLogLine::message)
                    .contains("hello ada x2"));
  }

  /**
   * Each result answers its dispatch: it echoes the dispatch's nonce and names the handler, which
   * the scheduler checks. A dispatch of the same attempt sent again with another nonce (a scheduler
   * that lost its write and dispatched again) is answered with that nonce, from the processed mark,
   * so the attempt is still settled; a dispatch without a nonce (an older scheduler) gets none.
   */
  @Test
  void eachResultEchoesItsDispatchsNonceAndNamesItsHandler() {
    Dispatch ok = Dispatches.of("echo", new Greeting("nonce", 1), 30_000).withNonce("n-ok-1");
    Dispatch boom = Dispatches.of("outcomes", Map.of("kind", "boom"), 30_000).withNonce("n-boom-1");
    Dispatch old = Dispatches.of("echo", new Greeting("old", 1), 30_000);
    fx.send(ok);
    fx.send(boom);
    fx.send(old);

    TaskResult r = fx.awaitResult(ok.id());
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(r.nonce()).isEqualTo("n-ok-1");
    assertThat(r.handler()).isEqualTo("echo");
    TaskResult b = fx.awaitResult(boom.id());
    assertThat(b.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(b.nonce()).isEqualTo("n-boom-1");
    assertThat(b.handler()).isEqualTo("outcomes");
    TaskResult o = fx.awaitResult(old.id());
    assertThat(o.nonce()).isNull();
    assertThat(o.handler()).isEqualTo("echo");

    fx.send(ok.withNonce("n-ok-again"));
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () ->
                assertThat(fx.results(ok.id()))
                    .extracting(TaskResult::outcome, TaskResult::nonce)
                    .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(Outcome.SUCCEEDED, "n-ok-1"),
                        org.assertj.core.groups.Tuple.tuple(Outcome.SUCCEEDED, "n-ok-again")));
    assertThat(probe.runs).containsEntry(ok.id(), 1);
  }

  @Test
  void aShardTaskSeesItsShardInTheContextAndAPlainTaskNone() {
    Dispatch plain = Dispatches.of("echo", new Greeting("plain", 1), 30_000);
    Dispatch first = Dispatches.of("echo", new Greeting("shard", 1), 30_000);
    Dispatch sharded =
        Dispatch.of(
            first.task().toBuilder().shard(new Shard(2, 5)).build(),
            1,
            first.deadline(),
            first.dispatchedAt());
    fx.send(plain);
    fx.send(sharded);

    assertThat(fx.awaitResult(sharded.id()).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(fx.awaitResult(plain.id()).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(probe.shards).containsEntry(sharded.id(), Optional.of(new Shard(2, 5)));
    assertThat(probe.shards).containsEntry(plain.id(), Optional.empty());
  }

  @Test
  void exceptionTypesMapToOutcomes() {
    Dispatch retry = Dispatches.of("outcomes", Map.of("kind", "retry"), 30_000);
    Dispatch permanent = Dispatches.of("outcomes", Map.of("kind", "permanent"), 30_000);
    Dispatch boom = Dispatches.of("outcomes", Map.of("kind", "boom"), 30_000);
    fx.send(retry);
    fx.send(permanent);
    fx.send(boom);

    TaskResult r = fx.awaitResult(retry.id());
    assertThat(r.outcome()).isEqualTo(Outcome.RETRY_LATER);
    assertThat(r.retryAfterMs()).isEqualTo(7_000L);
    TaskResult p = fx.awaitResult(permanent.id());
    assertThat(p.outcome()).isEqualTo(Outcome.PERMANENT_FAILURE);
    assertThat(p.error().message()).isEqualTo("order is gone");
    TaskResult b = fx.awaitResult(boom.id());
    assertThat(b.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(b.error().type()).isEqualTo(IllegalStateException.class.getName());
    assertThat(b.error().message()).isEqualTo("boom");
    assertThat(b.error().stack()).contains("BasicSuite$MethodHandlers.outcomes");
  }

  @Test
  void timeoutInterruptsTheHandlerAndReportsFailedTimeout() {
    Dispatch d = Dispatches.of("outcomes", Map.of("kind", "hang"), 1_000);
    fx.send(d);

    TaskResult r = fx.awaitResult(d.id(), Duration.ofSeconds(20));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.error().type()).isEqualTo("timeout");
    assertThat(r.finishedAt() - r.startedAt()).isBetween(1_000L, 5_000L);
    await().atMost(Duration.ofSeconds(5)).untilTrue(probe.hangInterrupted);
  }

  @Test
  void aHandlerThatSwallowsTheInterruptIsStillReportedAtItsDeadline() {
    Dispatch d = Dispatches.of("outcomes", Map.of("kind", "stubborn"), 1_000);
    fx.send(d);

    TaskResult r = fx.awaitResult(d.id(), Duration.ofSeconds(20));
    assertThat(r.error().type()).isEqualTo("timeout");
    assertThat(probe.stubbornInterrupts.get()).isGreaterThanOrEqualTo(1);
    assertThat(probe.stubbornReturned).isFalse(); // its thread is still busy

    probe.releaseStubborn.countDown();
    await().atMost(Duration.ofSeconds(10)).untilTrue(probe.stubbornReturned);
    Dispatch after = Dispatches.of("outcomes", Map.of("kind", "ok"), 30_000);
    fx.send(after);
    fx.awaitResult(after.id());
    assertThat(fx.results(d.id())).hasSize(1); // the late return published nothing
  }

  @Test
  void concurrencyIsNeverExceededAndASlowHandlerDoesNotDelayAnother() {
    List<Dispatch> slow = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Dispatch d = Dispatches.of("slow", "s" + i, 60_000);
      slow.add(d);
      fx.send(d);
    }
    MeterRegistry registry = ctx.getBean(MeterRegistry.class);
    await().atMost(Duration.ofSeconds(20)).until(() -> probe.slowRunning.get() == 2);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                registry.get("tasklane.worker.in.flight").tag("handler", "slow").gauge().value()
                    == 4);

    List<Dispatch> fast = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Dispatch d = Dispatches.of("echo", new Greeting("fast" + i, 1), 30_000);
      fast.add(d);
      fx.send(d);
    }
    for (Dispatch d : fast) {
      assertThat(fx.awaitResult(d.id()).outcome()).isEqualTo(Outcome.SUCCEEDED);
    }
    // the slow handler is still blocked with its pool full, and never ran more than 2 at once
    assertThat(probe.slowRunning.get()).isEqualTo(2);
    assertThat(slow.stream().filter(d -> !fx.results(d.id()).isEmpty())).isEmpty();
    assertThat(registry.get("tasklane.worker.in.flight").tag("handler", "slow").gauge().value())
        .isEqualTo(4.0);

    probe.releaseSlow.countDown();
    for (Dispatch d : slow) {
      assertThat(fx.awaitResult(d.id()).outcome()).isEqualTo(Outcome.SUCCEEDED);
    }
    assertThat(probe.slowMax.get()).isEqualTo(2);
    assertThat(
            registry
                .get("tasklane.worker.tasks.finished")
                .tags("handler", "slow", "outcome", "SUCCEEDED")
                .counter()
                .count())
        .isEqualTo(10.0);
  }

  @Test
  void duplicateDeliveryOfASucceededTaskDoesNotRunTheHandlerAgain() throws Exception {
    Dispatch d = Dispatches.of("db", "first", 30_000);
    fx.send(d);
    assertThat(fx.awaitResult(d.id()).outcome()).isEqualTo(Outcome.SUCCEEDED);

    fx.send(d);
    await().atMost(Duration.ofSeconds(20)).until(() -> fx.results(d.id()).size() == 2);

    assertThat(fx.results(d.id())).extracting(TaskResult::outcome).containsOnly(Outcome.SUCCEEDED);
    assertThat(probe.runs).containsEntry(d.id(), 1);
    assertThat(fx.count("SELECT COUNT(*) FROM effects WHERE task_id = ?", d.id())).isEqualTo(1);
    assertThat(fx.count("SELECT COUNT(*) FROM tasklane_processed WHERE task_id = ?", d.id()))
        .isEqualTo(1);
  }

  @Test
  void concurrentDuplicatesCommitTheEffectOnce() throws Exception {
    Dispatch d = Dispatches.of("db", "racy", 30_000);
    for (int i = 0; i < 3; i++) {
      fx.send(d);
    }
    await().atMost(Duration.ofSeconds(20)).until(() -> fx.results(d.id()).size() == 3);

    assertThat(fx.results(d.id())).extracting(TaskResult::outcome).containsOnly(Outcome.SUCCEEDED);
    assertThat(fx.count("SELECT COUNT(*) FROM effects WHERE task_id = ?", d.id())).isEqualTo(1);
  }

  @Test
  void poisonRecordsGoToTheDeadLetterTopicAndTheNextRecordIsProcessed() {
    fx.send(
        "echo",
        "k1".getBytes(StandardCharsets.UTF_8),
        "{not json".getBytes(StandardCharsets.UTF_8));
    Dispatch unbindable = Dispatches.of("echo", List.of(1, 2, 3), 30_000);
    fx.send(unbindable);
    Dispatch good = Dispatches.of("echo", new Greeting("after", 1), 30_000);
    fx.send(good);

    assertThat(fx.awaitResult(good.id()).outcome()).isEqualTo(Outcome.SUCCEEDED);
    TaskResult unbound = fx.awaitResult(unbindable.id());
    assertThat(unbound.outcome()).isEqualTo(Outcome.PERMANENT_FAILURE);
    await().atMost(Duration.ofSeconds(10)).until(() -> fx.deadLetters("echo").size() == 2);
    ConsumerRecord<byte[], byte[]> garbage =
        fx.deadLetters("echo").stream()
            .filter(r -> "k1".equals(new String(r.key(), StandardCharsets.UTF_8)))
            .findFirst()
            .orElseThrow();
    assertThat(new String(garbage.value(), StandardCharsets.UTF_8)).isEqualTo("{not json");
    assertThat(header(garbage, "tasklane.error.class"))
        .isEqualTo("io.tasklane.core.WireFormatException");
    assertThat(header(garbage, "tasklane.error.message")).contains("not a valid Dispatch");
    assertThat(header(garbage, "tasklane.original.topic")).isEqualTo(fx.topics.handler("echo"));
    assertThat(header(garbage, "tasklane.original.partition")).matches("[0-2]");
    assertThat(header(garbage, "tasklane.original.offset")).matches("\\d+");
  }

  @Test
  void tenMegabytesOfLogLinesAreCappedPerAttemptAndTheHandlersOtherTasksStillSucceed() {
    Dispatch chatty = Dispatches.of("outcomes", Map.of("kind", "chatty"), 30_000);
    Dispatch sibling = Dispatches.of("outcomes", Map.of("kind", "ok"), 30_000);
    fx.send(chatty);
    fx.send(sibling);

    assertThat(fx.awaitResult(chatty.id()).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(fx.awaitResult(sibling.id()).outcome()).isEqualTo(Outcome.SUCCEEDED);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(logLines(sibling.id()))
                    .extracting(TaskLogLine::message)
                    .containsExactly("ok"));
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(logLines(chatty.id()))
                    .last()
                    .extracting(TaskLogLine::message)
                    .asString()
                    .startsWith("log truncated"));
    List<TaskLogLine> lines = logLines(chatty.id());
    List<TaskLogLine> shipped = lines.subList(0, lines.size() - 1);
    long shippedBytes =
        shipped.stream().mapToLong(l -> l.message().getBytes(StandardCharsets.UTF_8).length).sum();
    // the budget (64 KiB here) is used up to less than one line, and not exceeded
    assertThat(shippedBytes).isLessThanOrEqualTo(LOG_BUDGET).isGreaterThan(LOG_BUDGET - 1_100);
    assertThat(shipped)
        .allSatisfy(l -> assertThat(l.message()).doesNotStartWith("log truncated"))
        .extracting(l -> l.message().substring(0, l.message().indexOf(' ', 5)))
        .containsExactlyElementsOf(
            IntStream.range(0, shipped.size()).mapToObj(i -> "line " + i).toList());
    assertThat(lines).extracting(TaskLogLine::attempt).containsOnly(1);
    assertThat(shipped.size()).isLessThan(BasicSuite.CHATTY_LINES / 100);
  }

  private static List<TaskLogLine> logLines(String id) {
    return fx.logs().stream()
        .map(r -> WireCodec.decode(r.value(), TaskLogLine.class))
        .filter(l -> l.id().equals(id))
        .toList();
  }

  private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
    return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }
}
