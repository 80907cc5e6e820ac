package io.tasklane.core.internal;

/**
 * Thrown by the streaming readers when a record is not in the plain shape they read; the caller
 * then reads it with the data binding. Carries no stack trace (it is a signal, not an error).
 */
final class Unusual extends RuntimeException {
  private static final long serialVersionUID = 1L;

  static final Unusual INSTANCE = new Unusual();

  private Unusual() {
    super("not in the plain shape", null, false, false);
  }
}
