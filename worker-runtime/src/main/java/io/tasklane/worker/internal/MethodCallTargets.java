package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.context.BeanContext;
import io.micronaut.core.type.Argument;
import io.micronaut.inject.BeanDefinition;
import io.micronaut.inject.ExecutableMethod;
import io.micronaut.inject.ProxyBeanDefinition;
import io.tasklane.core.MethodCall;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.WireCodec;
import io.tasklane.worker.PermanentTaskException;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The only methods a {@link MethodCall} may name: the {@code void} methods of this context's beans
 * that carry outbox-lib's {@code @OutboxAsync} (on the method or its class). Built once at start
 * from Micronaut's bean definitions and their executable methods, keyed by (type name, method name,
 * parameter type names) as outbox-lib records them. A record's names are only ever compared with
 * these strings: no class is loaded, no static initialiser runs, no private or unannotated method
 * is reachable. Immutable after {@link #scan}; {@link #prepare} runs on pool threads.
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
    final BeanDefinition<?> definition;
    final ExecutableMethod<Object, Object> method;
    final JavaType[] parameterTypes;
    private final BeanContext beans;
    private final AtomicReference<Object> bean = new AtomicReference<>();

    @SuppressWarnings("unchecked")
    Target(BeanContext beans, BeanDefinition<?> definition, ExecutableMethod<?, ?> method) {
      this.beans = beans;
      this.definition = definition;
      this.method = (ExecutableMethod<Object, Object>) method;
      Type[] generic = method.getTargetMethod().getGenericParameterTypes();
      this.parameterTypes = new JavaType[generic.length];
      for (int i = 0; i < generic.length; i++) {
        parameterTypes[i] = WireCodec.mapper().getTypeFactory().constructType(generic[i]);
      }
    }

    /** The bean as the context hands it out: its AOP proxy, so every interceptor applies. */
    Object bean() {
      Object b = bean.get();
      if (b == null) {
        b = beans.getBean(definition);
        bean.compareAndSet(null, b);
      }
      return b;
    }

    /** The type name outbox-lib's interceptor matches its execution marker against. */
    String declaringType() {
      return method.getDeclaringType().getName();
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

  /** Start-up thread: every {@code @OutboxAsync} void method of the context's beans. */
  static MethodCallTargets scan(BeanContext beans, Supplier<PayloadCodec> codec) {
    Map<Key, List<Target>> found = new LinkedHashMap<>();
    Map<Class<?>, BeanDefinition<?>> byType = new HashMap<>();
    for (BeanDefinition<?> def : beans.getAllBeanDefinitions()) {
      if (def.isAbstract() || !hasOutboxAsync(def)) {
        continue;
      }
      // a subclass proxy and the class it extends describe one bean: keep the proxy
      BeanDefinition<?> previous = byType.get(beanType(def));
      if (previous == null || (def.isProxy() && !previous.isProxy())) {
        byType.put(beanType(def), def);
      }
    }
    for (BeanDefinition<?> def : byType.values()) {
      boolean classLevel = def.hasAnnotation(OUTBOX_ASYNC);
      for (ExecutableMethod<?, ?> m : def.getExecutableMethods()) {
        if ((classLevel || m.hasAnnotation(OUTBOX_ASYNC)) && m.getReturnType().isVoid()) {
          Target target = new Target(beans, def, m);
          List<String> types = new ArrayList<>();
          for (Argument<?> a : m.getArguments()) {
            types.add(a.getType().getName());
          }
          List<String> params = List.copyOf(types);
          add(found, new Key(target.declaringType(), m.getMethodName(), params), target);
          String beanType = beanType(def).getName();
          if (!beanType.equals(target.declaringType())) {
            add(found, new Key(beanType, m.getMethodName(), params), target);
          }
        }
      }
    }
    return new MethodCallTargets(found, codec);
  }

  /** The application's class of the bean, not the generated proxy's. */
  private static Class<?> beanType(BeanDefinition<?> def) {
    return def instanceof ProxyBeanDefinition<?> p ? p.getTargetType() : def.getBeanType();
  }

  private static boolean hasOutboxAsync(BeanDefinition<?> def) {
    if (def.hasAnnotation(OUTBOX_ASYNC)) {
      return true;
    }
    for (ExecutableMethod<?, ?> m : def.getExecutableMethods()) {
      if (m.hasAnnotation(OUTBOX_ASYNC)) {
        return true;
      }
    }
    return false;
  }

  private static void add(Map<Key, List<Target>> found, Key key, Target target) {
    List<Target> list = found.computeIfAbsent(key, k -> new ArrayList<>());
    if (list.stream().noneMatch(t -> t.definition == target.definition)) {
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
              + String.join(
                  ", ", matches.stream().map(t -> beanType(t.definition).getName()).toList())
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
