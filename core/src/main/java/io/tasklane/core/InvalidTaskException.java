package io.tasklane.core;

/**
 * A task or command was refused because one field broke a limit. The message names the field, the
 * value's problem and the limit, e.g. {@code "payload is 300000 bytes; the limit is 262144 bytes
 * (tasklane.outbox.max-payload-bytes)"}. Nothing was written when this is thrown.
 */
public class InvalidTaskException extends TasklaneException {
  private static final long serialVersionUID = 1L;

  private final String field;

  public InvalidTaskException(String field, String message) {
    super(field + ": " + message);
    this.field = field;
  }

  /** The name of the offending field as it appears on the wire (e.g. {@code handler}). */
  public String field() {
    return field;
  }
}
