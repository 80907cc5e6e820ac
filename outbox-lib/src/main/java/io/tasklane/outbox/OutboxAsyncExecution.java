package io.tasklane.outbox;

import io.micronaut.core.propagation.PropagatedContext;
import io.micronaut.core.propagation.PropagatedContextElement;
import java.util.function.Supplier;

/**
 * Marks the current Micronaut {@link PropagatedContext} as <em>executing</em> the recorded call of
 * an {@link OutboxAsync} method, so that calling the method on the bean runs it instead of
 * recording it again. The worker that executes {@code tasklane.method} tasks uses it:
 *
 * <pre>{@code
 * OutboxAsyncExecution.run(beanType, method, () -> executableMethod.invoke(bean, args));
 * }</pre>
 *
 * Only the outermost call of that exact method runs; nested {@code @OutboxAsync} calls are recorded
 * as usual.
 *
 * @param beanType the fully qualified bean type of the recorded {@code MethodCall}
 * @param method the method name
 */
public record OutboxAsyncExecution(String beanType, String method)
    implements PropagatedContextElement {

  /** Runs {@code call} (on this thread) with the marker for {@code beanType.method} in place. */
  public static <T> T run(String beanType, String method, Supplier<T> call) {
    var element = new OutboxAsyncExecution(beanType, method);
    try (PropagatedContext.Scope ignored =
        PropagatedContext.getOrEmpty().plus(element).propagate()) {
      return call.get();
    }
  }

  /** True when this marker is for {@code type.name}. */
  public boolean matches(String type, String name) {
    return beanType.equals(type) && method.equals(name);
  }
}
