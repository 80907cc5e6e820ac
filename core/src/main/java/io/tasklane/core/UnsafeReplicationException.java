package io.tasklane.core;

import java.util.List;

/**
 * An app refused to start because a Tasklane topic on a multi-broker cluster would lose records
 * with one broker: a single replica, or {@code min.insync.replicas=1} with three or more replicas.
 * The message names each topic and its fix; {@link #problems()} lists them one by one.
 */
public class UnsafeReplicationException extends TasklaneException {
  private static final long serialVersionUID = 1L;

  private final transient List<String> problems;

  public UnsafeReplicationException(List<String> problems) {
    super(
        "refusing to run on topics that a single broker loss can empty:\n  - "
            + String.join("\n  - ", problems)
            + "\nFix each topic as said (docs/operations.md, Replication), or set "
            + TopicReplication.ALLOW_UNSAFE_KEY
            + "=true under this app's prefix to run anyway.");
    this.problems = List.copyOf(problems);
  }

  /** One line per topic: what is unsafe and the command that fixes it. */
  public List<String> problems() {
    return problems;
  }
}
