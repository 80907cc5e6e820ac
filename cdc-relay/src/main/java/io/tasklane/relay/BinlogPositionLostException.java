package io.tasklane.relay;

/**
 * The relay's stored binlog position is no longer on the server (the binlog was purged while the
 * relay was down or behind) and re-reading the outbox table did not recover it. The relay stops
 * relaying rather than skip rows silently or retry in a loop; an operator must look.
 */
public class BinlogPositionLostException extends RelayException {
  private static final long serialVersionUID = 1L;

  public BinlogPositionLostException(String message, Throwable cause) {
    super(message, cause);
  }
}
