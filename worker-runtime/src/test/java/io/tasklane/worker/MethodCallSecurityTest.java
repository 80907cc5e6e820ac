package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.tasklane.core.Dispatch;
import io.tasklane.core.MethodCall;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.MethodCallSuite.Calls;
import io.tasklane.worker.support.Dispatches;
import io.tasklane.worker.support.WorkerFixture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * After-commit method tasks ({@code tasklane.method}) on the real broker and MariaDB: only
 * {@code @OutboxAsync} methods of the context's beans run, through the bean's proxy (so
 * {@code @Transactional} applies); forged calls are dead-lettered with a reason and run nothing.
 */
@TasklaneStack
class MethodCallSecurityTest {
  private static final String H = MethodCall.DEFAULT_HANDLER;
  private static final String STR = "java.lang.String";
  private static final String LEDGER = MethodCallSuite.Ledger.class.getName();
  private static WorkerFixture fx;
  private static Calls calls;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    fx = new WorkerFixture(stack, "methods", List.of(H));
    fx.sql("CREATE TABLE ledger (entry VARCHAR(100) PRIMARY KEY)");
    ApplicationContext ctx = fx.start(Map.of());
    calls = ctx.getBean(Calls.class);
  }

  @AfterAll
  static void stop() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  @Test
  void anOutboxAsyncCallRunsThroughTheProxyAndItsTransactionCommitsEveryWrite() throws Exception {
    Dispatch d = send(call(LEDGER, "book", List.of("ok", 3, false), STR, "int", "boolean"));
    Dispatch ping =
        send(call(MethodCallSuite.Notifier.class.getName(), "ping", List.of("ada"), STR));

    TaskResult booked = fx.awaitResult(d.id());
    assertThat(booked.outcome()).as("%s", booked.error()).isEqualTo(Outcome.SUCCEEDED);
    TaskResult pinged = fx.awaitResult(ping.id());
    assertThat(pinged.outcome()).as("%s", pinged.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(calls.ran).contains("book:ok", "ping:ada");
    assertThat(calls.executedThroughProxy).contains("book");
    assertThat(calls.recordedInstead).isEmpty();
    assertThat(fx.count("SELECT COUNT(*) FROM ledger WHERE entry LIKE ?", "ok-%")).isEqualTo(3);
  }

  @Test
  void aTransactionalOutboxAsyncCallThatThrowsRollsBackEveryWrite() throws Exception {
    Dispatch d = send(call(LEDGER, "book", List.of("bad", 3, true), STR, "int", "boolean"));

    TaskResult r = fx.awaitResult(d.id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.FAILED);
    assertThat(r.error().message()).isEqualTo("failing after 3 rows");
    assertThat(calls.ran).contains("book:bad"); // it ran, wrote 3 rows, threw
    assertThat(fx.count("SELECT COUNT(*) FROM ledger WHERE entry LIKE ?", "bad-%")).isZero();
  }

  @Test
  void forgedCallsAreDeadLetteredWithAReasonAndRunNothing() throws Exception {
    Dispatch unannotated = send(call(LEDGER, "unannotated", List.of("x"), STR));
    Dispatch secret = send(call(LEDGER, "secret", List.of("x"), STR));
    Dispatch notABean = send(call(MethodCallSuite.NOT_A_BEAN, "run", List.of("x"), STR));
    Dispatch unknown = send(call("com.example.Nowhere", "run", List.of("x"), STR));
    Dispatch wrongTypes = send(call(LEDGER, "book", List.of("x"), STR));

    for (Dispatch d : List.of(unannotated, secret, notABean, unknown, wrongTypes)) {
      TaskResult r = fx.awaitResult(d.id());
      assertThat(r.outcome()).isEqualTo(Outcome.PERMANENT_FAILURE);
      assertThat(r.error().message()).startsWith("method call refused");
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> fx.deadLetters(H).size() >= 5);
    assertThat(deadLetterMessage(unannotated))
        .contains("method call refused: " + LEDGER + ".unannotated(java.lang.String)")
        .contains("not an @OutboxAsync void method of a bean of this worker");
    assertThat(deadLetterMessage(secret)).contains(LEDGER + ".secret(java.lang.String)");
    assertThat(deadLetterMessage(notABean)).contains(MethodCallSuite.NOT_A_BEAN + ".run(");
    assertThat(deadLetterMessage(unknown)).contains("com.example.Nowhere.run(");
    assertThat(deadLetterMessage(wrongTypes)).contains(LEDGER + ".book(java.lang.String)");
    assertThat(calls.ran).noneMatch(r -> r.startsWith("unannotated") || r.startsWith("secret"));
    assertThat(MethodCallSuite.NOT_A_BEAN_INITIALISED).isFalse();

    // the probe works: loading the class the way the old invoker did sets the flag
    Class.forName(MethodCallSuite.NOT_A_BEAN, true, getClass().getClassLoader());
    assertThat(MethodCallSuite.NOT_A_BEAN_INITIALISED).isTrue();
  }

  @Test
  void theMethodHandlerIsRegisteredOnlyWithOutboxAsyncMethodsOrWhenEnabled(LocalStack stack)
      throws Exception {
    assertThat(methodTopicCreated(stack, "none", Map.of())).isFalse();
    assertThat(
            methodTopicCreated(
                stack, "none", Map.of("tasklane.worker.method-calls.enabled", "true")))
        .isTrue();
    assertThat(methodTopicCreated(stack, "methods", Map.of())).isTrue();
    assertThat(
            methodTopicCreated(
                stack, "methods", Map.of("tasklane.worker.method-calls.enabled", "false")))
        .isFalse();
  }

  /** Starts a worker in a fresh namespace; it creates the topics of the handlers it registered. */
  private static boolean methodTopicCreated(
      LocalStack stack, String suite, Map<String, Object> extra) throws Exception {
    try (WorkerFixture own = new WorkerFixture(stack, suite, List.of());
        Admin admin =
            Admin.create(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
      own.sql("CREATE TABLE ledger (entry VARCHAR(100) PRIMARY KEY)");
      own.start(extra);
      Set<String> names = admin.listTopics().names().get();
      assertThat(names).contains(own.topics.results()); // the worker did start
      return names.contains(own.topics.handler(H));
    }
  }

  private static MethodCall call(String type, String method, List<?> args, String... types) {
    return new MethodCall(type, method, List.of(types), WireCodec.mapper().valueToTree(args));
  }

  private static Dispatch send(MethodCall call) {
    Dispatch d = Dispatches.of(H, call, 30_000);
    fx.send(d);
    return d;
  }

  private static String deadLetterMessage(Dispatch d) {
    ConsumerRecord<byte[], byte[]> r =
        fx.deadLetters(H).stream()
            .filter(x -> d.routingKey().equals(new String(x.key(), StandardCharsets.UTF_8)))
            .findFirst()
            .orElseThrow();
    assertThat(header(r, "tasklane.error.class")).isEqualTo(PermanentTaskException.class.getName());
    return header(r, "tasklane.error.message");
  }

  private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
    return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }
}
