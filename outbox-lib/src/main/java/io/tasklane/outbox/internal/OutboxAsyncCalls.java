package io.tasklane.outbox.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.MethodCall;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.WireCodec;
import io.tasklane.outbox.NoActiveTransactionException;
import io.tasklane.outbox.OutboxAsync;
import io.tasklane.outbox.OutboxException;
import io.tasklane.outbox.TaskRequest;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The framework-neutral part of {@link OutboxAsync}, shared by the Micronaut interceptor and the
 * Spring advice: which methods are {@code @OutboxAsync}, the task a call records (the {@link
 * MethodCall} of the method's declaring type, name, parameter type names and JSON arguments, with
 * the annotation's options), the refusal outside a transaction, and the per-thread marker that
 * tells an adapter's interceptor to run one recorded call instead of recording it again. Stateless
 * apart from that marker; called on the caller's thread.
 */
public final class OutboxAsyncCalls {
  private static final ThreadLocal<Executing> EXECUTING = new ThreadLocal<>();

  private OutboxAsyncCalls() {}

  /**
   * The options of one {@code @OutboxAsync} (the method's annotation, else its class's).
   *
   * @param handler the task's handler name
   * @param delay ISO-8601 delay, empty for none
   * @param maxAttempts attempts, 0 for the outbox default
   * @param timeout ISO-8601 timeout, empty for the outbox default
   * @param key idempotency key template, empty for none
   */
  public record Options(String handler, String delay, int maxAttempts, String timeout, String key) {
    /** The options an annotation carries. */
    public static Options of(OutboxAsync a) {
      return new Options(a.handler(), a.delay(), a.maxAttempts(), a.timeout(), a.key());
    }
  }

  /** A recorded call being executed on this thread: {@code beanType.method}. */
  private record Executing(String beanType, String method) {}

  /**
   * The {@code @OutboxAsync} of {@code method} called on a bean of {@code targetClass}: the
   * method's own annotation, else the one on the class (for its public methods not declared by
   * {@link Object}); null when neither applies.
   */
  public static OutboxAsync annotation(Class<?> targetClass, Method method) {
    OutboxAsync own = method.getAnnotation(OutboxAsync.class);
    if (own != null) {
      return own;
    }
    if (method.getDeclaringClass() == Object.class
        || !Modifier.isPublic(method.getModifiers())
        || Modifier.isStatic(method.getModifiers())) {
      return null;
    }
    OutboxAsync onClass = targetClass.getAnnotation(OutboxAsync.class);
    return onClass != null ? onClass : method.getDeclaringClass().getAnnotation(OutboxAsync.class);
  }

  /** The parameter type names a call of {@code method} records (and the worker matches). */
  public static List<String> parameterTypeNames(Class<?>[] types) {
    List<String> names = new ArrayList<>(types.length);
    for (Class<?> t : types) {
      names.add(t.getName());
    }
    return names;
  }

  /**
   * The task recording one call.
   *
   * @param beanType the name of the class declaring the method
   * @param method the method's name
   * @param parameterTypes the names of its parameters' classes
   * @param returnsVoid whether it returns {@code void} (anything else is refused)
   * @param args the call's arguments, encoded with {@code codec}
   * @throws OutboxException when the method does not return void or an option is malformed
   * @throws InvalidTaskException when the arguments cannot be encoded
   */
  public static TaskRequest request(
      Options options,
      String beanType,
      String method,
      List<String> parameterTypes,
      boolean returnsVoid,
      Object[] args,
      PayloadCodec codec) {
    String where = "@OutboxAsync method " + beanType + "." + method;
    if (!returnsVoid) {
      throw new OutboxException(where + " must return void: it runs later, on a worker");
    }
    JsonNode json;
    try {
      json = WireCodec.readTree(codec.encode(args));
    } catch (Exception e) {
      throw new InvalidTaskException(
          "payload", "the arguments of " + where + " cannot be encoded as JSON: " + e);
    }
    var call = new MethodCall(beanType, method, parameterTypes, json);
    String handler = options.handler().isEmpty() ? MethodCall.DEFAULT_HANDLER : options.handler();
    TaskRequest request = TaskRequest.to(handler).payload(call);
    if (!options.delay().isEmpty()) {
      request = request.delay(duration(where, "delay", options.delay()));
    }
    if (!options.timeout().isEmpty()) {
      request = request.timeout(duration(where, "timeout", options.timeout()));
    }
    if (options.maxAttempts() != 0) {
      request = request.maxAttempts(options.maxAttempts());
    }
    if (!options.key().isEmpty()) {
      request = request.key(expandKey(options.key(), args));
    }
    return request;
  }

  /** The task recording a call of {@code method} (reflection: the Spring advice's view). */
  public static TaskRequest request(
      OutboxAsync annotation, Method method, Object[] args, PayloadCodec codec) {
    return request(
        Options.of(annotation),
        method.getDeclaringClass().getName(),
        method.getName(),
        parameterTypeNames(method.getParameterTypes()),
        method.getReturnType() == void.class,
        args,
        codec);
  }

  /** The refusal of a call outside a transaction, naming the method and the setting. */
  public static NoActiveTransactionException outsideTransaction(String beanType, String method) {
    return new NoActiveTransactionException(
        "@OutboxAsync method "
            + beanType
            + "."
            + method
            + " was called outside a transaction; call it from a @Transactional method, or set"
            + " tasklane.outbox.async-outside-transaction: OWN_TRANSACTION to record it in a"
            + " transaction of its own");
  }

  /** Replaces {@code {0}}, {@code {1}}... by the arguments' {@code String.valueOf}. */
  public static String expandKey(String template, Object[] args) {
    String key = template;
    for (int i = 0; i < args.length; i++) {
      key = key.replace("{" + i + "}", String.valueOf(args[i]));
    }
    return key;
  }

  /**
   * Runs {@code call} on this thread with the marker for {@code beanType.method} in place: the
   * worker executing a recorded call through the bean's proxy. The marker is consumed by the first
   * {@link #claimExecution} of that method, so nested {@code @OutboxAsync} calls are recorded.
   */
  public static <T> T runExecuting(String beanType, String method, Callable<T> call)
      throws Exception {
    Executing previous = EXECUTING.get();
    EXECUTING.set(new Executing(beanType, method));
    try {
      return call.call();
    } finally {
      if (previous == null) {
        EXECUTING.remove();
      } else {
        EXECUTING.set(previous);
      }
    }
  }

  /**
   * True (and the marker consumed) when this thread is executing the recorded call of {@code
   * beanType.method}: the interceptor runs the method instead of recording it.
   */
  public static boolean claimExecution(String beanType, String method) {
    Executing e = EXECUTING.get();
    if (e != null && e.beanType().equals(beanType) && e.method().equals(method)) {
      EXECUTING.remove();
      return true;
    }
    return false;
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
