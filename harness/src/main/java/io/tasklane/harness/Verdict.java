package io.tasklane.harness;

import java.util.ArrayList;
import java.util.List;

/** The invariants a run checked, each passed or failed with what was seen. Not thread-safe. */
public final class Verdict {
  private final List<String> lines = new ArrayList<>();
  private boolean ok = true;

  /** Records one invariant: whether it {@code holds} and what was {@code seen}. */
  public void check(String invariant, boolean holds, String seen) {
    lines.add((holds ? "  PASS  " : "  FAIL  ") + invariant + "  (" + seen + ")");
    ok &= holds;
  }

  /** True when every invariant held. */
  public boolean ok() {
    return ok;
  }

  /** One line per invariant, in check order. */
  public List<String> lines() {
    return lines;
  }
}
