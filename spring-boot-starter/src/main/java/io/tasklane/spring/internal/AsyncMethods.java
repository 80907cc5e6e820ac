package io.tasklane.spring.internal;

import io.tasklane.outbox.internal.OutboxAsyncCalls;
import io.tasklane.worker.spi.HandlerBeans.AsyncMethod;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The {@code @OutboxAsync} void methods of one bean class, for the worker's allow-list; loaded only
 * when outbox-lib is on the classpath. Called on the start-up thread; the invokers run on pool
 * threads.
 */
final class AsyncMethods {
  private AsyncMethods() {}

  static List<AsyncMethod> of(Class<?> user, Supplier<Object> bean) {
    List<AsyncMethod> found = new ArrayList<>();
    Method[] methods;
    try {
      methods = user.getMethods();
    } catch (LinkageError e) {
      return found; // a signature names a class missing from the classpath: no Tasklane method
    }
    for (Method m : methods) {
      if (m.getReturnType() != void.class || OutboxAsyncCalls.annotation(user, m) == null) {
        continue;
      }
      String declaringType = m.getDeclaringClass().getName();
      found.add(
          new AsyncMethod(
              user,
              declaringType,
              m.getName(),
              OutboxAsyncCalls.parameterTypeNames(m.getParameterTypes()),
              List.of(m.getGenericParameterTypes()),
              bean,
              (target, args) ->
                  OutboxAsyncCalls.runExecuting(
                      declaringType,
                      m.getName(),
                      () -> SpringHandlerBeans.invoke(m, target, args))));
    }
    return found;
  }
}
