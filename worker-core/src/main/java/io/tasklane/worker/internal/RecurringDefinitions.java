package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.CronExpressions;
import io.tasklane.core.DurationText;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleDefinition.Overlap;
import io.tasklane.core.ScheduleDefinition.Routing;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TasklaneException;
import io.tasklane.core.WireCodec;
import io.tasklane.worker.Recurring;
import io.tasklane.worker.WorkerException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the {@link Recurring} annotations found at start-up into validated schedule definitions
 * (version 0: the publisher gives the version). Any bad attribute, or two annotations with one
 * name, fails start-up with a {@link WorkerException} naming the handler, the schedule and the
 * field. Runs on the start-up thread.
 */
final class RecurringDefinitions {
  private static final ScheduleValidator VALIDATOR = new ScheduleValidator(TaskLimits.DEFAULT);

  private RecurringDefinitions() {}

  /** The origin of the schedules worker app {@code app} defines in code. */
  static String origin(String app) {
    return "code:" + app;
  }

  /** Every spec's definition, validated, in order; names must be unique. */
  static List<ScheduleDefinition> of(List<RecurringSpec> specs, String app) {
    Map<String, RecurringSpec> byName = new LinkedHashMap<>();
    List<ScheduleDefinition> out = new ArrayList<>();
    for (RecurringSpec spec : specs) {
      ScheduleDefinition d = define(spec, origin(app));
      RecurringSpec previous = byName.putIfAbsent(d.name(), spec);
      if (previous != null) {
        throw new WorkerException(
            "@Recurring(name = \""
                + d.name()
                + "\") is defined twice: on "
                + previous.source()
                + " and on "
                + spec.source());
      }
      out.add(d);
    }
    return List.copyOf(out);
  }

  static ScheduleDefinition define(RecurringSpec spec, String origin) {
    Recurring a = spec.value();
    String name = a.name();
    try {
      ScheduleDefinition.Builder b =
          ScheduleDefinition.builder().name(name).handler(spec.handler()).origin(origin);
      text(a.cron()).ifPresent(b::cron);
      text(a.every()).ifPresent(b::every);
      text(a.zone()).ifPresent(b::zone);
      text(a.misfire()).ifPresent(b::misfire);
      text(a.overlap()).ifPresent(o -> b.overlap(parse("overlap", o, Overlap.class)));
      int shards = a.shards();
      b.shards(shards);
      b.routing(
          text(a.routing())
              .map(r -> parse("routing", r, Routing.class))
              .orElse(shards > 1 ? Routing.BROADCAST : Routing.ONE));
      text(a.payload()).ifPresent(p -> b.payload(json(p)));
      int attempts = a.maxAttempts();
      if (attempts != 0) {
        b.maxAttempts(attempts);
      }
      text(a.timeout()).ifPresent(t -> b.timeoutMs(DurationText.parse("timeout", t)));
      b.enabled(a.enabled());
      key(a.orderingKey()).ifPresent(b::orderingKey);
      key(a.concurrencyKey()).ifPresent(b::concurrencyKey);
      if (a.priority() != -1) {
        b.priority(a.priority());
      }
      ScheduleDefinition built = b.build();
      ScheduleDefinition d = VALIDATOR.validate(built, WireCodec.encode(built).length);
      if (d.cron() != null) {
        CronExpressions.parse(d.cron());
      }
      return d;
    } catch (InvalidTaskException e) {
      throw new WorkerException(
          "@Recurring(name = \""
              + name
              + "\") on "
              + spec.source()
              + " (handler "
              + spec.handler()
              + "): "
              + e.getMessage(),
          e);
    }
  }

  private static Optional<String> text(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  /** A lane key as written (not trimmed: spaces are part of a key); empty for none. */
  private static Optional<String> key(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  private static <E extends Enum<E>> E parse(String field, String value, Class<E> type) {
    try {
      return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidTaskException(
          field, "'" + value + "' is not one of " + Arrays.toString(type.getEnumConstants()));
    }
  }

  private static JsonNode json(String text) {
    try {
      return WireCodec.readTree(text);
    } catch (TasklaneException e) {
      throw new InvalidTaskException("payload", "is not valid JSON: " + e.getMessage());
    }
  }
}
