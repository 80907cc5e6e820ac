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
 * not valid Quartz (e.g. {@code *} in both day fields). A 6-field expression that both readings
 * accept with a numeric day of week ({@code ?} in a day field and a digit in the day of week, e.g.
 * {@code 0 0 9 ? * 1-5}) is refused: Quartz counts 1 as Sunday, Spring as Monday. Parsed with
 * cron-utils, an optional dependency of tasklane-core that the scheduler and the worker runtime
 * declare. Stateless; any thread.
 */
public final class CronExpressions {
  private CronExpressions() {}

  /**
   * Reads an expression being defined (the API, the preview, a schedule record, {@code Recurring}).
   *
   * @return the parsed, validated expression
   * @throws InvalidTaskException naming {@code cron} when it has the wrong number of fields, does
   *     not parse, or has a day of week that Quartz and Spring read differently
   */
  public static Cron parse(String expression) {
    String e = expression.trim();
    String[] fields = e.split("\\s+");
    if (fields.length == 6 && ambiguousDayOfWeek(fields)) {
      throw new InvalidTaskException(
          "cron",
          "'"
              + e
              + "' has a numeric day of week ('"
              + fields[5]
              + "') that reads two ways: Quartz counts 1=Sunday, 2=Monday … 7=Saturday; Spring"
              + " counts 1=Monday … 7=Sunday (0=Sunday). Write the days as names (e.g. MON-FRI)"
              + " or use the 7-field Quartz form (with a year field, e.g. '"
              + e
              + " *')");
    }
    return read(e, fields.length);
  }

  /**
   * Reads an expression that was accepted before the day-of-week rule of {@link #parse} (a
   * definition already stored): the Quartz reading first, as when it was defined.
   *
   * @return the parsed, validated expression
   * @throws InvalidTaskException naming {@code cron} when it does not parse
   */
  public static Cron parseStored(String expression) {
    String e = expression.trim();
    return read(e, e.split("\\s+").length);
  }

  /**
   * Whether 6 fields have {@code ?} in a day field and a day number in the day of week ({@code #n},
   * the n-th weekday of the month, is not a day number).
   */
  static boolean ambiguousDayOfWeek(String[] fields) {
    boolean question = fields[3].equals("?") || fields[5].equals("?");
    return question && fields[5].replaceAll("#\\d+", "").matches(".*\\d.*");
  }

  private static Cron read(String e, int fields) {
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
