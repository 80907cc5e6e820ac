package io.tasklane.chaos;

import io.tasklane.core.TasklaneException;

/** A chaos run could not be set up or carried out (not a failed verdict: see ChaosResult). */
public class ChaosException extends TasklaneException {
  public ChaosException(String message) {
    super(message);
  }

  public ChaosException(String message, Throwable cause) {
    super(message, cause);
  }
}
