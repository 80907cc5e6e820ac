package io.tasklane.core;

/** Bytes on a topic (or in an outbox row) could not be decoded into a Tasklane record. */
public class WireFormatException extends TasklaneException {
  private static final long serialVersionUID = 1L;

  public WireFormatException(String message) {
    super(message);
  }

  public WireFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
