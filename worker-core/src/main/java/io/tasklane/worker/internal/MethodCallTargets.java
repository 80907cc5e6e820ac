package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.MethodCall;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.WireCodec;
import io.tasklane.worker.PermanentTaskException;
import io.tasklane.worker.spi.HandlerBeans;
import io.tasklane.worker.spi.HandlerBeans.AsyncMethod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The only methods a {@link MethodCall} may name: the {@code void} methods of the application's
 * beans that carry outbox-lib's {@code @OutboxAsync} (on the method or its class), as the framework
 * adapter lists them ({@link HandlerBeans#asyncMethods()}), keyed by (type name, method name,
 * parameter type names) as outbox-lib records them. A record's names are only ever compared with
 * these strings: no class is loaded, no static initialiser runs, no private or unannotated method
 * is reachable. Immutable after {@link #of}; {@link #prepare} runs on pool threads.
 */
final class MethodCallTargets {
  static final String OUTBOX_ASYNC = "io.tasklane.outbox.OutboxAsync";

  record Key(String type, String method, List<String> parameterTypes) {
    @Override
    public String toString() {
      return type + "." + method + "(" + String.join(", ", parameterTypes) + ")";
    }
  }

  /** One allowed method of one bean; the bean (its proxy) is looked up on first use. */
  static final class Target {
    final AsyncMethod method;
    final JavaType[] parameterTypes;
    private final Supplier<Object> bean;

    Target(AsyncMethod method) {
      this.method = method;
      this.bean = HandlerRegistry.once(method.bean());
      this.parameterTypes = new JavaType[method.genericParameterTypes().size()];
      for (int i = 0; i < parameterTypes.length; i++) {
        parameterTypes[i] =
            WireCodec.mapper()
                .getTypeFactory()
                .constructType(method.genericParameterTypes().get(i));
      }
    }

    /** The bean as the container hands it out: its AOP proxy, so every interceptor applies. */
    Object bean() {
      return bean.get();
    }

    /** The type name outbox-lib's interceptor matches its execution marker against. */
    String declaringType() {
      return method.declaringType();
    }

    /** Pool thread: calls the method on the bean; what it throws propagates unchanged. */
    void invoke(Object[] args) throws Exception {
      method.invoker().invoke(bean(), args);
    }
  }

  /** A call found in the allow-list with its arguments converted: ready to run. */
  record Prepared(Target target, Object[] args) {}

  private final Map<Key, List<Target>> targets;
  private final Supplier<PayloadCodec> codec;

  private MethodCallTargets(Map<Key, List<Target>> targets, Supplier<PayloadCodec> codec) {
    this.targets = targets;
    this.codec = codec;
  }

  /** Start-up thread: the allow-list of {@code methods}. */
  static MethodCallTargets of(List<AsyncMethod> methods, Supplier<PayloadCodec> codec) {
    Map<Key, List<Target>> found = new LinkedHashMap<>();
    for (AsyncMethod m : methods) {
      Target target = new Target(m);
      add(found, new Key(m.declaringType(), m.name(), m.parameterTypes()), target);
      String beanType = m.beanType().getName();
      if (!beanType.equals(m.declaringType())) {
        add(found, new Key(beanType, m.name(), m.parameterTypes()), target);
      }
    }
    return new MethodCallTargets(found, codec);
  }

  private static void add(Map<Key, List<Target>> found, Key key, Target target) {
    List<Target> list = found.computeIfAbsent(key, k -> new ArrayList<>());
    if (list.stream().noneMatch(t -> t.method.beanType() == target.method.beanType())) {
      list.add(target);
    }
  }

  boolean isEmpty() {
    return targets.isEmpty();
  }

  int size() {
    return targets.size();
  }

  /** The allowed methods, for the start-up log line. */
  List<Key> keys() {
    return List.copyOf(targets.keySet());
  }

  /**
   * Pool thread: finds the call's method in the allow-list and converts its arguments.
   *
   * @throws PermanentTaskException naming the method and why it is refused
   */
  Prepared prepare(MethodCall call) {
    if (call.beanType() == null || call.method() == null) {
      throw new PermanentTaskException("method call refused: the task lacks beanType or method");
    }
    Key key = new Key(call.beanType(), call.method(), call.parameterTypes());
    List<Target> matches = targets.getOrDefault(key, List.of());
    if (matches.isEmpty()) {
      throw new PermanentTaskException(
          "method call refused: "
              + key
              + " is not an @OutboxAsync void method of a bean of this worker ("
              + targets.size()
              + " allowed)");
    }
    if (matches.size() > 1) {
      throw new PermanentTaskException(
          "method call refused: "
              + key
              + " is @OutboxAsync on "
              + matches.size()
              + " beans ("
              + String.join(", ", matches.stream().map(t -> t.method.beanType().getName()).toList())
              + "); the call cannot pick one");
    }
    Target target = matches.get(0);
    return new Prepared(target, convert(key, call.args(), target.parameterTypes));
  }

  /** Arguments decoded by the application's codec, the one {@code @OutboxAsync} encoded with. */
  private Object[] convert(Key key, JsonNode args, JavaType[] types) {
    int n = args == null || args.isNull() ? 0 : args.size();
    if (n != types.length || (n > 0 && !args.isArray())) {
      throw new PermanentTaskException(
          "method call refused: "
              + key
              + " takes "
              + types.length
              + " arguments, the task has "
              + n);
    }
    PayloadCodec decoder = codec.get();
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      try {
        out[i] = decoder.decode(args.get(i), types[i]);
      } catch (Exception e) {
        throw new PermanentTaskException(
            "method call refused: argument "
                + i
                + " of "
                + key
                + " does not convert to "
                + types[i],
            e);
      }
    }
    return out;
  }
}
