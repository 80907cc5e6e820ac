package io.tasklane.cli.internal;

/**
 * The API answered 4xx or 5xx: {@code tasklane} prints {@link #getMessage()} (the API's own {@code
 * message}, else its {@code error}) on stderr and exits 1.
 */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String error;

  public ApiException(int status, String error, String message) {
    super(message);
    this.status = status;
    this.error = error;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The API's {@code error} code ({@code unauthorized}, {@code not-found}, …), or null. */
  public String error() {
    return error;
  }
}
