package io.tasklane.core;

/** Constants of the wire format shared by every record. */
public final class Wire {
  /** The record version written by this build and the only one it reads. */
  public static final int VERSION = 1;

  private Wire() {}

  /** Throws {@link UnsupportedVersionException} unless {@code v} is {@link #VERSION}. */
  public static void checkVersion(int v) {
    if (v != VERSION) {
      throw new UnsupportedVersionException(v);
    }
  }
}
