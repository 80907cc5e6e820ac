package io.tasklane.core;

/** A record carries a version {@code v} this build does not understand. */
public class UnsupportedVersionException extends WireFormatException {
  private static final long serialVersionUID = 1L;

  private final int version;

  public UnsupportedVersionException(int version) {
    super(
        "record version v="
            + version
            + " is not supported; this build reads v="
            + Wire.VERSION
            + " (upgrade Tasklane on this side)");
    this.version = version;
  }

  public int version() {
    return version;
  }
}
