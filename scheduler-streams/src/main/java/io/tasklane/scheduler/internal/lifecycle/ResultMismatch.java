package io.tasklane.scheduler.internal.lifecycle;

/**
 * A result for the current attempt that does not answer its dispatch ({@link Results#mismatch}):
 * the task is unchanged, and the input dead-letters the record as {@code result-mismatch}.
 */
public final class ResultMismatch extends RuntimeException {
  /** The fields that did not match, comma-separated ({@code nonce}, {@code handler}). */
  public final String fields;

  ResultMismatch(String fields, String message) {
    super(message, null, false, false);
    this.fields = fields;
  }
}
