package io.tasklane.core;

/** A wire record with a format version {@code v}; see {@link Wire#VERSION}. */
public interface Versioned {
  int v();
}
