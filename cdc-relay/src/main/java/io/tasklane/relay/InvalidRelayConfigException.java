package io.tasklane.relay;

/**
 * A relay setting is missing or outside its limit. The message names the setting (as written in a
 * properties file, e.g. {@code tasklane.relay.purge-batch-size}) and the limit.
 */
public class InvalidRelayConfigException extends RelayException {
  private static final long serialVersionUID = 1L;

  private final String setting;

  public InvalidRelayConfigException(String setting, String message) {
    super(setting + ": " + message);
    this.setting = setting;
  }

  /** The offending setting's full property name. */
  public String setting() {
    return setting;
  }
}
