package io.tasklane.testkit;

/**
 * Chooses the stack implementation for a test run: system property {@value #IMPL_PROPERTY} = {@code
 * local} (default, {@link LocalStack}) or {@code containers} ({@link ContainersStack}).
 * Thread-safe.
 */
public final class Stacks {

  /** System property selecting the implementation. */
  public static final String IMPL_PROPERTY = "tasklane.stack.impl";

  private Stacks() {}

  /** The selected implementation's process-wide shared stack; blocks while it starts. */
  public static StackHandle shared() {
    return usesContainers() ? ContainersStack.shared() : LocalStack.shared();
  }

  /** True if {@value #IMPL_PROPERTY} is {@code containers}. */
  public static boolean usesContainers() {
    String impl = System.getProperty(IMPL_PROPERTY, "local").trim();
    if (!impl.equals("local") && !impl.equals("containers")) {
      throw new IllegalArgumentException(
          IMPL_PROPERTY + " must be 'local' or 'containers', got '" + impl + "'");
    }
    return impl.equals("containers");
  }
}
