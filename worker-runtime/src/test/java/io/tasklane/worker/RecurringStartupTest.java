package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An invalid {@code @Recurring} fails start-up naming the handler, the schedule and the field,
 * before the worker talks to Kafka (the bootstrap server here does not exist).
 */
class RecurringStartupTest {

  @TaskHandler("report.zone")
  @Recurring(name = "bad.zone", cron = "0 * * * *", zone = "Mars/Olympus")
  @Requires(property = "test.suite", value = "recurring-bad-zone")
  static class BadZone implements Handler<Object> {
    @Override
    public void handle(Object payload, TaskContext context) {}
  }

  @Singleton
  @Requires(property = "test.suite", value = "recurring-bad-payload")
  static class BadPayload {
    @TaskHandler("report.payload")
    @Recurring(name = "bad.payload", every = "5m", payload = "{not json")
    public void run(Object payload) {}
  }

  @Singleton
  @Requires(property = "test.suite", value = "recurring-no-trigger")
  static class NoTrigger {
    @TaskHandler("report.trigger")
    @Recurring(name = "no.trigger")
    public void run(Object payload) {}
  }

  @Singleton
  @Requires(property = "test.suite", value = "recurring-bad-cron")
  static class BadCron {
    @TaskHandler("report.cron")
    @Recurring(name = "bad.cron", cron = "61 * * * *")
    public void run(Object payload) {}
  }

  @Singleton
  @Requires(property = "test.suite", value = "recurring-weekday-numbers")
  static class WeekdayNumbers {
    @TaskHandler("report.weekdays")
    @Recurring(name = "weekdays", cron = "0 0 9 ? * 1-5")
    public void run(Object payload) {}
  }

  record Ref(long id) {}

  static final io.tasklane.core.TaskType<Ref> TYPED =
      io.tasklane.core.TaskType.of("typed.sched", Ref.class);

  @Singleton
  @Recurring(name = "typed.bad", every = "1 fortnight")
  @Requires(property = "test.suite", value = "recurring-typed")
  static class TypedBad implements TypedHandler<Ref> {
    @Override
    public io.tasklane.core.TaskType<Ref> type() {
      return TYPED;
    }

    @Override
    public void handle(Ref payload, TaskContext context) {}
  }

  @Singleton
  @Requires(property = "test.suite", value = "recurring-twice")
  static class Twice {
    @TaskHandler("report.one")
    @Recurring(name = "same.name", every = "5m")
    public void one(Object payload) {}

    @TaskHandler("report.two")
    @Recurring(name = "same.name", every = "10m")
    public void two(Object payload) {}
  }

  @Singleton
  @Requires(property = "test.suite", value = "recurring-overlap")
  static class BadOverlap {
    @TaskHandler("report.overlap")
    @Recurring(name = "bad.overlap", every = "5m", overlap = "SOMETIMES")
    public void run(Object payload) {}
  }

  @Singleton
  @Requires(property = "test.suite", value = "recurring-broadcast-key")
  static class BroadcastKey {
    @TaskHandler("report.fan")
    @Recurring(name = "fan.keyed", every = "5m", shards = 4, orderingKey = "k")
    public void run(Object payload) {}
  }

  private static void run(String suite) {
    ApplicationContext.run(
            Map.of("test.suite", suite, "tasklane.worker.bootstrap-servers", "127.0.0.1:1"))
        .close();
  }

  @Test
  void anUnknownZoneFailsStartNamingTheHandlerAndTheField() {
    assertThatThrownBy(() -> run("recurring-bad-zone"))
        .hasStackTraceContaining(
            "@Recurring(name = \"bad.zone\") on bean " + BadZone.class.getName())
        .hasStackTraceContaining(
            "(handler report.zone): zone: 'Mars/Olympus' is not a time-zone id");
  }

  @Test
  void aPayloadThatIsNotJsonFailsStart() {
    assertThatThrownBy(() -> run("recurring-bad-payload"))
        .hasStackTraceContaining(BadPayload.class.getName() + "#run (handler report.payload)")
        .hasStackTraceContaining("payload: is not valid JSON");
  }

  @Test
  void neitherCronNorEveryFailsStart() {
    assertThatThrownBy(() -> run("recurring-no-trigger"))
        .hasStackTraceContaining("@Recurring(name = \"no.trigger\")")
        .hasStackTraceContaining("cron: set exactly one of cron and every (found neither)");
  }

  @Test
  void aNumericDayOfWeekThatQuartzAndSpringReadDifferentlyFailsStart() {
    assertThatThrownBy(() -> run("recurring-weekday-numbers"))
        .hasStackTraceContaining("(handler report.weekdays): cron: '0 0 9 ? * 1-5' has a numeric")
        .hasStackTraceContaining("Quartz counts 1=Sunday")
        .hasStackTraceContaining("Spring counts 1=Monday");
  }

  @Test
  void aCronThatDoesNotParseFailsStart() {
    assertThatThrownBy(() -> run("recurring-bad-cron"))
        .hasStackTraceContaining("(handler report.cron): cron: '61 * * * *' is not a valid cron");
  }

  @Test
  void aRecurringOnATypedHandlerIsFoundAndCheckedToo() {
    assertThatThrownBy(() -> run("recurring-typed"))
        .hasStackTraceContaining(
            "@Recurring(name = \"typed.bad\") on typed handler bean " + TypedBad.class.getName())
        .hasStackTraceContaining("(handler typed.sched): every: ");
  }

  @Test
  void anUnknownOverlapFailsStartListingTheChoices() {
    assertThatThrownBy(() -> run("recurring-overlap"))
        .hasStackTraceContaining("overlap: 'SOMETIMES' is not one of [ALLOW, SKIP_IF_RUNNING");
  }

  @Test
  void aLaneKeyOnABroadcastFailsStartNamingTheField() {
    assertThatThrownBy(() -> run("recurring-broadcast-key"))
        .hasStackTraceContaining("@Recurring(name = \"fan.keyed\")")
        .hasStackTraceContaining("(handler report.fan): orderingKey: needs routing ONE");
  }

  @Test
  void oneNameOnTwoHandlersFailsStartNamingBoth() {
    assertThatThrownBy(() -> run("recurring-twice"))
        .hasStackTraceContaining("@Recurring(name = \"same.name\") is defined twice")
        .hasStackTraceContaining(Twice.class.getName() + "#one")
        .hasStackTraceContaining(Twice.class.getName() + "#two");
  }
}
