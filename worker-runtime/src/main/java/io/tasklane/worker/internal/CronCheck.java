package io.tasklane.worker.internal;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.parser.CronParser;
import io.tasklane.core.InvalidTaskException;
import java.util.List;

/**
 * Checks a {@code @Recurring} cron expression by the scheduler's rule (scheduler-streams {@code
 * Fires.parse}): 5 fields as Unix cron; 6 or 7 fields (seconds first) as Quartz, or as Spring when
 * a 6-field expression is not valid Quartz. The scheduler stays the judge; this only moves the
 * refusal of a bad expression from its DLT to the worker's start. Stateless.
 */
final class CronCheck {
  private CronCheck() {}

  /** Returns normally when {@code expression} parses, else throws naming {@code cron}. */
  static void check(String expression) {
    String e = expression.trim();
    int fields = e.split("\\s+").length;
    List<CronType> types =
        switch (fields) {
          case 5 -> List.of(CronType.UNIX);
          case 6 -> List.of(CronType.QUARTZ, CronType.SPRING53);
          case 7 -> List.of(CronType.QUARTZ);
          default ->
              throw new InvalidTaskException(
                  "cron",
                  "'" + e + "' has " + fields + " fields; expected 5, or 6 to 7 with seconds");
        };
    RuntimeException last = null;
    for (CronType type : types) {
      try {
        new CronParser(CronDefinitionBuilder.instanceDefinitionFor(type)).parse(e).validate();
        return;
      } catch (RuntimeException ex) {
        last = ex;
      }
    }
    throw new InvalidTaskException("cron", "'" + e + "' is not a valid cron: " + last.getMessage());
  }
}
