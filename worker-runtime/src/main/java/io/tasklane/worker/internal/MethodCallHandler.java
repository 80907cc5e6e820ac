package io.tasklane.worker.internal;

import io.micronaut.core.reflect.ClassUtils;
import io.tasklane.core.MethodCall;
import io.tasklane.core.PayloadCodec;
import io.tasklane.worker.WorkerConfig;

/**
 * The built-in handler of after-commit method tasks ({@link MethodCall#DEFAULT_HANDLER}). Binding
 * checks the call against the {@link MethodCallTargets allow-list} (a refused call is dead-lettered
 * and answered PERMANENT_FAILURE without running anything); running calls the method on the bean
 * the context hands out, i.e. through its AOP proxy, so {@code @Transactional} and every other
 * interceptor apply. outbox-lib's {@code @OutboxAsync} interceptor is told by {@code
 * OutboxAsyncExecution} to run this one call instead of recording it again.
 */
final class MethodCallHandler {
  private static final boolean OUTBOX_PRESENT =
      ClassUtils.isPresent(
          "io.tasklane.outbox.OutboxAsyncExecution", MethodCallHandler.class.getClassLoader());

  private MethodCallHandler() {}

  /** Whether the handler is registered, given the setting and the methods found. */
  static boolean wanted(WorkerConfig.MethodCalls setting, MethodCallTargets targets) {
    return switch (setting) {
      case ENABLED -> true;
      case DISABLED -> false;
      case AUTO -> !targets.isEmpty();
    };
  }

  static HandlerDefinition definition(MethodCallTargets targets) {
    return new HandlerDefinition(
        MethodCall.DEFAULT_HANDLER,
        "built-in " + MethodCallHandler.class.getName(),
        json -> targets.prepare(decode(json)),
        (payload, ctx) -> invoke((MethodCallTargets.Prepared) payload));
  }

  /** The call itself is Tasklane's wire format; its arguments are the application's codec's. */
  private static MethodCall decode(com.fasterxml.jackson.databind.JsonNode json) {
    return (MethodCall) HandlerDefinition.convert(PayloadCodec.jackson(), json, MethodCall.class);
  }

  /** Pool thread: calls the method on the bean; what it throws propagates unchanged. */
  static void invoke(MethodCallTargets.Prepared call) {
    MethodCallTargets.Target t = call.target();
    Object bean = t.bean();
    if (OUTBOX_PRESENT) {
      OutboxExecution.run(t, bean, call.args());
    } else {
      t.method.invoke(bean, call.args());
    }
  }

  /** Loaded only when outbox-lib is on the classpath. */
  private static final class OutboxExecution {
    static void run(MethodCallTargets.Target t, Object bean, Object[] args) {
      io.tasklane.outbox.OutboxAsyncExecution.run(
          t.declaringType(), t.method.getMethodName(), () -> t.method.invoke(bean, args));
    }
  }
}
