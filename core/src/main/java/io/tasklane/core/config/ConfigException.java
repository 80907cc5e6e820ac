package io.tasklane.core.config;

import io.tasklane.core.TasklaneException;

/**
 * A setting is unknown, missing or not of its form. The message starts with the setting's full
 * property name ({@code tasklane.relay.retention: ...}); each app rethrows it as its own exception
 * type with the same message.
 */
public class ConfigException extends TasklaneException {
  private static final long serialVersionUID = 1L;

  private final String key;

  /** A problem with {@code key} described by {@code message}. */
  public ConfigException(String key, String message) {
    super(key + ": " + message);
    this.key = key;
  }

  /** The full property name of the offending setting. */
  public String key() {
    return key;
  }

  /** The message without the leading key. */
  public String problem() {
    return getMessage().substring(key.length() + 2);
  }
}
