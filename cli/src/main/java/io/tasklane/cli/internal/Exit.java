package io.tasklane.cli.internal;

/** The exit codes of {@code tasklane} (docs/cli.md#exit-codes). */
public final class Exit {
  /** Done. */
  public static final int OK = 0;

  /** The API answered 4xx or 5xx; its message is on stderr. */
  public static final int API_ERROR = 1;

  /** A bad command line or setting (picocli's usage errors too). */
  public static final int USAGE = 2;

  /** The endpoint or the Kafka broker could not be reached. */
  public static final int UNREACHABLE = 3;

  /** A bulk job finished with failures (or failed). */
  public static final int BULK_FAILED = 4;

  /** An action was ignored by the scheduler, or still pending when the wait ran out. */
  public static final int NOT_APPLIED = 5;

  private Exit() {}
}
