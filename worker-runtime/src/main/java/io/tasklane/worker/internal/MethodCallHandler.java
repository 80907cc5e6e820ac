package io.tasklane.worker.internal;

import io.tasklane.core.MethodCall;
import io.tasklane.core.WireCodec;

/**
 * The built-in handler of after-commit method tasks ({@link MethodCall#DEFAULT_HANDLER}),
 * registered when {@code tasklane.worker.method-calls.enabled} is true (the default).
 */
final class MethodCallHandler {
  private MethodCallHandler() {}

  static HandlerDefinition definition(MethodCallInvoker invoker) {
    return new HandlerDefinition(
        MethodCall.DEFAULT_HANDLER,
        "built-in " + MethodCallInvoker.class.getName(),
        WireCodec.mapper().getTypeFactory().constructType(MethodCall.class),
        (payload, ctx) -> {
          try {
            invoker.invoke((MethodCall) payload);
          } catch (Exception | Error e) {
            throw e;
          } catch (Throwable t) {
            throw new IllegalStateException(t);
          }
        });
  }
}
