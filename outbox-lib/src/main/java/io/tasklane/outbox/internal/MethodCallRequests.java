package io.tasklane.outbox.internal;

import io.micronaut.aop.MethodInvocationContext;
import io.micronaut.core.annotation.AnnotationMetadata;
import io.micronaut.core.type.Argument;
import io.tasklane.core.MethodCall;
import io.tasklane.core.PayloadCodec;
import io.tasklane.outbox.OutboxAsync;
import io.tasklane.outbox.TaskRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The Micronaut view of one {@link OutboxAsync} call: reads the method and its (merged) annotation
 * from Micronaut's metadata and builds the task with the neutral {@link OutboxAsyncCalls}.
 */
final class MethodCallRequests {
  private MethodCallRequests() {}

  static TaskRequest of(MethodInvocationContext<Object, Object> context, PayloadCodec codec) {
    List<String> types = new ArrayList<>();
    for (Argument<?> argument : context.getArguments()) {
      types.add(argument.getType().getName());
    }
    AnnotationMetadata meta = context.getAnnotationMetadata();
    var options =
        new OutboxAsyncCalls.Options(
            meta.stringValue(OutboxAsync.class, "handler").orElse(MethodCall.DEFAULT_HANDLER),
            meta.stringValue(OutboxAsync.class, "delay").orElse(""),
            meta.intValue(OutboxAsync.class, "maxAttempts").orElse(0),
            meta.stringValue(OutboxAsync.class, "timeout").orElse(""),
            meta.stringValue(OutboxAsync.class, "key").orElse(""));
    return OutboxAsyncCalls.request(
        options,
        context.getDeclaringType().getName(),
        context.getMethodName(),
        types,
        context.getReturnType().isVoid(),
        context.getParameterValues(),
        codec);
  }
}
