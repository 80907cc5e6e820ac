package io.tasklane.core;

/** The slice of a broadcast run a dispatch belongs to: {@code index} of {@code total}. */
public record Shard(int index, int total) {
  public Shard {
    if (total < 1 || total > 10_000 || index < 0 || index >= total) {
      throw new InvalidTaskException(
          "shard",
          "index " + index + " of total " + total + " is outside 0 ≤ index < total ≤ 10000");
    }
  }
}
