package io.tasklane.worker.internal;

import io.tasklane.core.MethodCall;
import io.tasklane.core.PayloadCodec;
import io.tasklane.worker.WorkerConfig;

/**
 * The built-in handler of after-commit method tasks ({@link MethodCall#DEFAULT_HANDLER}). Binding
 * checks the call against the {@link MethodCallTargets allow-list} (a refused call is dead-lettered
 * and answered PERMANENT_FAILURE without running anything); running calls the method through the
 * framework adapter's invoker, on the bean the container hands out (its AOP proxy, so that
 * transactions and every other interceptor apply); the adapter also tells outbox-lib's interceptor
 * to run this one call instead of recording it again.
 */
final class MethodCallHandler {
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
  static void invoke(MethodCallTargets.Prepared call) throws Exception {
    call.target().invoke(call.args());
  }
}
