package io.tasklane.outbox.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.aop.MethodInvocationContext;
import io.micronaut.core.annotation.AnnotationMetadata;
import io.micronaut.core.type.Argument;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.MethodCall;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.WireCodec;
import io.tasklane.outbox.OutboxAsync;
import io.tasklane.outbox.OutboxException;
import io.tasklane.outbox.TaskRequest;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/** Builds the task of one {@link OutboxAsync} call from the method and its annotation. */
final class MethodCallRequests {
  private MethodCallRequests() {}

  static TaskRequest of(MethodInvocationContext<Object, Object> context, PayloadCodec codec) {
    String beanType = context.getDeclaringType().getName();
    String where = "@OutboxAsync method " + beanType + "." + context.getMethodName();
    if (!context.getReturnType().isVoid()) {
      throw new OutboxException(where + " must return void: it runs later, on a worker");
    }
    Object[] args = context.getParameterValues();
    List<String> types = new ArrayList<>();
    for (Argument<?> argument : context.getArguments()) {
      types.add(argument.getType().getName());
    }
    JsonNode json;
    try {
      json = WireCodec.readTree(codec.encode(args));
    } catch (Exception e) {
      throw new InvalidTaskException(
          "payload", "the arguments of " + where + " cannot be encoded as JSON: " + e);
    }
    var call = new MethodCall(beanType, context.getMethodName(), types, json);

    AnnotationMetadata meta = context.getAnnotationMetadata();
    TaskRequest request =
        TaskRequest.to(
                meta.stringValue(OutboxAsync.class, "handler").orElse(MethodCall.DEFAULT_HANDLER))
            .payload(call);
    String delay = meta.stringValue(OutboxAsync.class, "delay").orElse("");
    if (!delay.isEmpty()) {
      request = request.delay(duration(where, "delay", delay));
    }
    String timeout = meta.stringValue(OutboxAsync.class, "timeout").orElse("");
    if (!timeout.isEmpty()) {
      request = request.timeout(duration(where, "timeout", timeout));
    }
    int attempts = meta.intValue(OutboxAsync.class, "maxAttempts").orElse(0);
    if (attempts != 0) {
      request = request.maxAttempts(attempts);
    }
    String key = meta.stringValue(OutboxAsync.class, "key").orElse("");
    if (!key.isEmpty()) {
      request = request.key(expandKey(key, args));
    }
    return request;
  }

  /** Replaces {@code {0}}, {@code {1}}... by the arguments' {@code String.valueOf}. */
  static String expandKey(String template, Object[] args) {
    String key = template;
    for (int i = 0; i < args.length; i++) {
      key = key.replace("{" + i + "}", String.valueOf(args[i]));
    }
    return key;
  }

  private static Duration duration(String where, String attribute, String text) {
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw new OutboxException(
          where + ": " + attribute + " '" + text + "' is not an ISO-8601 duration like PT30M");
    }
  }
}
