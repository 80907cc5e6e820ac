package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ScheduleValidatorTest {
  private final ScheduleValidator validator = new ScheduleValidator(TaskLimits.DEFAULT);

  private static ScheduleDefinition.Builder valid() {
    return ScheduleDefinition.builder()
        .name("nightly")
        .version(1)
        .handler("report.build")
        .cron("0 2 * * *");
  }

  private void refused(
      UnaryOperator<ScheduleDefinition.Builder> change, String field, String text) {
    ScheduleDefinition d = change.apply(valid()).build();
    assertThatThrownBy(() -> validator.validate(d, 100))
        .isInstanceOf(InvalidTaskException.class)
        .satisfies(e -> assertThat(((InvalidTaskException) e).field()).isEqualTo(field))
        .hasMessageContaining(text);
  }

  @Test
  void aMinimalDefinitionGetsTheDefaults() {
    ScheduleDefinition d = validator.validate(valid().build(), 100);
    assertThat(d.zone()).isEqualTo("UTC");
    assertThat(d.enabled()).isTrue();
    assertThat(d.misfirePolicy()).isEqualTo(MisfirePolicy.DEFAULT);
    assertThat(d.overlap()).isEqualTo(ScheduleDefinition.Overlap.ALLOW);
    assertThat(d.routing()).isEqualTo(ScheduleDefinition.Routing.ONE);
    assertThat(d.shards()).isEqualTo(1);
    assertThat(d.maxAttempts()).isEqualTo(1);
  }

  @Test
  void badFieldsAreRefusedNamingTheFieldAndTheLimit() {
    refused(b -> b.name("bad name"), "name", "must match");
    refused(b -> b.name(null), "name", "is missing");
    refused(b -> b.version(-1), "version", "negative");
    refused(b -> b.handler("Bad!"), "handler", "must match");
    refused(b -> b.cron(null), "cron", "exactly one of cron and every");
    refused(b -> b.every("30s"), "cron", "both");
    refused(b -> b.cron(null).every("500ms"), "every", "outside 1 s to 366 d");
    refused(b -> b.cron(null).every("soon"), "every", "not a duration");
    refused(b -> b.zone("Mars/Olympus"), "zone", "not a time-zone id");
    refused(b -> b.startAt(10L).endAt(5L), "endAt", "not after startAt");
    refused(b -> b.misfire("LATER"), "misfire", "is not one of");
    refused(b -> b.misfire("FIRE_ALL(max 0)"), "misfire", "outside 1 to 1000");
    refused(b -> b.misfire("FIRE_ONCE_IF_LATE_BY_AT_MOST(2d)"), "misfire", "limit of 1 day");
    refused(b -> b.shards(3), "shards", "need routing BROADCAST");
    refused(
        b -> b.routing(ScheduleDefinition.Routing.BROADCAST).shards(0),
        "shards",
        "outside 1 to 10000");
    refused(b -> b.maxAttempts(0), "maxAttempts", "outside 1 to 1000");
    refused(b -> b.timeoutMs(10), "timeoutMs", "outside 1 s to 24 h");
    refused(b -> b.origin("api:" + "x".repeat(197)), "origin", "201 characters; the limit is 200");
  }

  @Test
  void everyOverlapPolicyAllWorkersAndChildrenAreAccepted() {
    for (var o : ScheduleDefinition.Overlap.values()) {
      assertThat(validator.validate(valid().overlap(o).build(), 100).overlap()).isEqualTo(o);
    }
    assertThat(
            validator
                .validate(valid().routing(ScheduleDefinition.Routing.ALL_WORKERS).build(), 100)
                .routing())
        .isEqualTo(ScheduleDefinition.Routing.ALL_WORKERS);
    assertThat(validator.validate(valid().children(List.of("a", "b.c")).build(), 100).children())
        .containsExactly("a", "b.c");
  }

  @Test
  void badChildrenAndAllWorkersShardsAreRefused() {
    refused(b -> b.children(List.of("bad name")), "children", "is not a schedule name");
    refused(b -> b.children(List.of("nightly")), "children", "the schedule itself");
    refused(b -> b.children(List.of("a", "a")), "children", "names a schedule twice");
    refused(
        b -> b.children(java.util.stream.IntStream.range(0, 33).mapToObj(i -> "c" + i).toList()),
        "children",
        "the limit is 32");
    refused(
        b -> b.routing(ScheduleDefinition.Routing.ALL_WORKERS).shards(3),
        "shards",
        "counts the handler's live workers");
  }

  @Test
  void laneKeysOfARoutingOneScheduleAreAccepted() {
    ScheduleDefinition ordered = validator.validate(valid().orderingKey("k").build(), 100);
    assertThat(ordered.orderingKey()).isEqualTo("k");
    assertThat(ordered.concurrencyKey()).isNull();
    String longest = "t".repeat(TaskLimits.MAX_KEY_CHARS);
    assertThat(validator.validate(valid().concurrencyKey(longest).build(), 100).concurrencyKey())
        .isEqualTo(longest);
  }

  @Test
  void aPriorityIsZeroToNine() {
    assertThat(validator.validate(valid().priority(9).build(), 100).priority()).isEqualTo(9);
    assertThat(validator.validate(valid().priority(0).build(), 100).priority()).isZero();
    refused(b -> b.priority(10), "priority", "must be 0 to 9 (is 10)");
    refused(b -> b.priority(-1), "priority", "must be 0 to 9 (is -1)");
  }

  @Test
  void badLaneKeysAreRefusedNamingTheField() {
    refused(b -> b.orderingKey(""), "orderingKey", "must be 1 to 255 characters");
    refused(b -> b.orderingKey("x".repeat(256)), "orderingKey", "(is 256)");
    refused(b -> b.concurrencyKey("a\nb"), "concurrencyKey", "control character (at index 1)");
    refused(
        b -> b.orderingKey("k").concurrencyKey("k"),
        "concurrencyKey",
        "cannot be set with orderingKey");
    refused(
        b -> b.orderingKey("k").routing(ScheduleDefinition.Routing.BROADCAST).shards(2),
        "orderingKey",
        "needs routing ONE: routing BROADCAST spreads a fire's tasks");
    refused(
        b -> b.concurrencyKey("k").routing(ScheduleDefinition.Routing.ALL_WORKERS),
        "concurrencyKey",
        "needs routing ONE: routing ALL_WORKERS");
  }

  @Test
  void laneKeysAreAbsentFromTheJsonUnlessSetAndOldJsonStillReads() {
    ScheduleDefinition plain = valid().build();
    String json = WireCodec.encodeToString(plain);
    assertThat(json).doesNotContain("orderingKey").doesNotContain("concurrencyKey");
    assertThat(WireCodec.decodeTaskRecord(WireCodec.encode(plain))).isEqualTo(plain);

    ScheduleDefinition keyed = valid().orderingKey("order-7").build();
    assertThat(WireCodec.encodeToString(keyed)).contains("\"orderingKey\":\"order-7\"");
    assertThat(WireCodec.decodeTaskRecord(WireCodec.encode(keyed))).isEqualTo(keyed);
    ScheduleDefinition read =
        (ScheduleDefinition)
            WireCodec.decodeTaskRecord(
                WireCodec.encode(
                    WireCodec.readTree(
                        "{\"type\":\"schedule\",\"v\":1,\"name\":\"nightly\",\"version\":1,"
                            + "\"handler\":\"report.build\",\"cron\":\"0 2 * * *\","
                            + "\"concurrencyKey\":\"tenant-1\"}")));
    assertThat(read.concurrencyKey()).isEqualTo("tenant-1");
    assertThat(read.toBuilder().build()).isEqualTo(read);
  }

  @Test
  void triggersAndFireNoticesAreChecked() {
    assertThat(validator.validate(ScheduleTrigger.of("nightly", "t-1", 1)).fireId())
        .isEqualTo(TaskIds.forScheduleTrigger("nightly", "t-1"));
    assertThatThrownBy(() -> validator.validate(ScheduleTrigger.of("nightly", "", 1)))
        .hasMessageContaining("triggerId");
    String parentFire = TaskIds.forScheduleFire("p", 1, -1);
    ScheduleTrigger child = ScheduleTrigger.child("c", "p", parentFire, 9, 1);
    assertThatThrownBy(() -> validator.validate(child))
        .hasMessageContaining("depth")
        .hasMessageContaining("outside 0 to 8");
    assertThat(ScheduleTrigger.child("c", "p", parentFire, 1, 1).fireId())
        .isEqualTo(TaskIds.forScheduleChild("c", parentFire));
    assertThatThrownBy(
            () ->
                validator.validate(
                    ScheduleFireDone.of("n", parentFire, parentFire, TaskState.PENDING, null, 1)))
        .hasMessageContaining("not terminal");
  }

  @Test
  void misfirePoliciesParseAndPrint() {
    assertThat(MisfirePolicy.parse("SKIP").kind()).isEqualTo(MisfirePolicy.Kind.SKIP);
    assertThat(MisfirePolicy.parse("FIRE_ONCE").kind()).isEqualTo(MisfirePolicy.Kind.FIRE_ONCE);
    assertThat(MisfirePolicy.parse("FIRE_ONCE_IF_LATE_BY_AT_MOST(5s)"))
        .isEqualTo(MisfirePolicy.DEFAULT);
    assertThat(MisfirePolicy.parse("FIRE_ALL(max 10)"))
        .isEqualTo(new MisfirePolicy(MisfirePolicy.Kind.FIRE_ALL, 0, 10));
    assertThat(MisfirePolicy.parse("FIRE_ALL(7)").max()).isEqualTo(7);
    assertThat(MisfirePolicy.parse(MisfirePolicy.DEFAULT.toString()))
        .isEqualTo(MisfirePolicy.DEFAULT);
  }

  @Test
  void unscheduleIsChecked() {
    assertThat(validator.validate(Unschedule.of("nightly", 2, 1)).name()).isEqualTo("nightly");
    assertThatThrownBy(() -> validator.validate(Unschedule.of("", 2, 1)))
        .hasMessageContaining("name");
    assertThatThrownBy(() -> validator.validate(Unschedule.of("n", -1, 1)))
        .hasMessageContaining("version");
  }
}
