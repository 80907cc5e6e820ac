package io.tasklane.core;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.parser.CronParser;
import java.util.List;

/**
 * The one rule by which a schedule's {@code cron} is read, shared by the scheduler (which computes
 * fires from it) and the worker runtime (which refuses a bad {@code @Recurring} at start): 5 fields
 * as Unix cron; 6 or 7 fields (seconds first) as Quartz, or as Spring when a 6-field expression is
 * not valid Quartz (e.g. {@code *} in both day fields). Parsed with cron-utils, an optional
 * dependency of tasklane-core that the scheduler and the worker runtime declare. Stateless.
 */
public final class CronExpressions {
  private CronExpressions() {}

  /**
   * @return the parsed, validated expression
   * @throws InvalidTaskException naming {@code cron} when it has the wrong number of fields or does
   *     not parse
   */
  public static Cron parse(String expression) {
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
        return new CronParser(CronDefinitionBuilder.instanceDefinitionFor(type))
            .parse(e)
            .validate();
      } catch (RuntimeException ex) {
        last = ex;
      }
    }
    throw new InvalidTaskException("cron", "'" + e + "' is not a valid cron: " + last.getMessage());
  }
}
