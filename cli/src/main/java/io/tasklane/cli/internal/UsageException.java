package io.tasklane.cli.internal;

/**
 * The command line or the CLI's settings are wrong in a way picocli cannot see (a missing endpoint,
 * an unreadable token file, a time that is neither ISO-8601 nor a duration). The message names the
 * flag, the environment variable or the setting; {@code tasklane} exits 2.
 */
public final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
