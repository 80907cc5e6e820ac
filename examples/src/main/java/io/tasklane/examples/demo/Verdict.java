package io.tasklane.examples.demo;

import java.util.ArrayList;
import java.util.List;

/** The invariants the demo checked, each passed or failed with what was seen. */
final class Verdict {
  private final List<String> lines = new ArrayList<>();
  private boolean ok = true;

  void check(String invariant, boolean holds, String seen) {
    lines.add((holds ? "  PASS  " : "  FAIL  ") + invariant + "  (" + seen + ")");
    ok &= holds;
  }

  boolean ok() {
    return ok;
  }

  List<String> lines() {
    return lines;
  }
}
