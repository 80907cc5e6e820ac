package io.tasklane.testkit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension resolving {@link LocalStack}, {@link StackHandle} and {@link ContainersStack}
 * parameters to the process-wide shared stack ({@link LocalStack#shared()}, {@link
 * ContainersStack#shared()}, or for {@code StackHandle} the one chosen by {@link Stacks}).
 *
 * <p>The stack is kept in the root {@link ExtensionContext.Store}, so an owned stack is closed at
 * the end of the JUnit run (an attached one is left running). Called by JUnit on its test thread;
 * the first resolution blocks while the stack starts.
 */
public final class LocalStackExtension implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(LocalStackExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == LocalStack.class || type == StackHandle.class || type == ContainersStack.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (type == StackHandle.class) {
      type = Stacks.usesContainers() ? ContainersStack.class : LocalStack.class;
    }
    ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
    if (type == ContainersStack.class) {
      return store.getOrComputeIfAbsent(
          ContainersStack.class, k -> ContainersStack.shared(), ContainersStack.class);
    }
    // JUnit closes AutoCloseable store values when the root context closes (end of the run).
    return store.getOrComputeIfAbsent(LocalStack.class, k -> LocalStack.shared(), LocalStack.class);
  }
}
