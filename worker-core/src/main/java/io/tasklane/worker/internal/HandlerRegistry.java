package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.type.TypeFactory;
import io.tasklane.core.HandlerNames;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.WireCodec;
import io.tasklane.worker.Handler;
import io.tasklane.worker.Recurring;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import io.tasklane.worker.WorkerException;
import io.tasklane.worker.spi.HandlerBeans;
import io.tasklane.worker.spi.HandlerBeans.AnnotatedHandler;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The handlers of one worker: the {@link TaskHandler} classes and methods the framework adapter
 * found ({@link HandlerBeans}), then whatever the runtime adds. Fails start-up on a duplicate name
 * or a malformed handler. Filled on the start-up thread; read by any thread.
 */
public final class HandlerRegistry {
  private final HandlerBeans beans;
  private final AtomicReference<PayloadCodec> codec = new AtomicReference<>();
  private final Map<String, HandlerDefinition> handlers = new LinkedHashMap<>();
  private final List<RecurringSpec> recurring = new ArrayList<>();

  HandlerRegistry(HandlerBeans beans) {
    this.beans = beans;
  }

  /** Registers every {@link TaskHandler} the adapter found, in its order; start-up thread. */
  synchronized void registerAnnotated() {
    for (AnnotatedHandler a : beans.taskHandlers()) {
      HandlerDefinition h = a.method() == null ? classHandler(a) : methodHandler(a);
      register(h);
      for (Recurring r : a.recurring()) {
        recurring.add(new RecurringSpec(h.name(), h.source(), r));
      }
    }
  }

  /** The {@link Recurring} annotations of the {@link TaskHandler}s found, in discovery order. */
  synchronized List<RecurringSpec> recurring() {
    return List.copyOf(recurring);
  }

  /** Adds a handler (a typed handler, the after-commit method handler). */
  synchronized void register(HandlerDefinition handler) {
    try {
      HandlerNames.check(handler.name());
    } catch (InvalidTaskException e) {
      throw new WorkerException(
          "@TaskHandler(\""
              + handler.name()
              + "\") on "
              + handler.source()
              + ": "
              + e.getMessage());
    }
    HandlerDefinition previous = handlers.putIfAbsent(handler.name(), handler);
    if (previous != null && !previous.source().equals(handler.source())) {
      throw new WorkerException(
          "duplicate task handler name '"
              + handler.name()
              + "': "
              + previous.source()
              + " and "
              + handler.source());
    }
  }

  synchronized List<HandlerDefinition> handlers() {
    return new ArrayList<>(handlers.values());
  }

  /**
   * The application's {@link PayloadCodec} bean (the one its outbox encodes with), or {@link
   * PayloadCodec#jackson()} without one; looked up on first use, after start-up.
   */
  PayloadCodec codec() {
    PayloadCodec c = codec.get();
    if (c == null) {
      c = beans.payloadCodec().orElseGet(PayloadCodec::jackson);
      codec.compareAndSet(null, c);
    }
    return c;
  }

  private HandlerDefinition classHandler(AnnotatedHandler a) {
    Class<?> type = a.beanType();
    String name = a.name();
    if (!Handler.class.isAssignableFrom(type)) {
      throw new WorkerException(
          "@TaskHandler(\""
              + name
              + "\") on class "
              + type.getName()
              + " needs the class to implement io.tasklane.worker.Handler<T>, or the annotation"
              + " on a method");
    }
    Supplier<Object> instance = once(a.bean());
    TypeFactory tf = WireCodec.mapper().getTypeFactory();
    JavaType[] params = tf.constructType(type).findTypeParameters(Handler.class);
    JavaType payload = params.length == 1 ? params[0] : tf.constructType(Object.class);
    return HandlerDefinition.of(
        name,
        "bean " + type.getName(),
        payload,
        this::codec,
        (p, ctx) -> invokeHandler(instance.get(), p, ctx));
  }

  /** The bean, looked up once on first use (handlers are resolved lazily, after start-up). */
  static Supplier<Object> once(Supplier<Object> lookup) {
    AtomicReference<Object> ref = new AtomicReference<>();
    return () -> {
      Object o = ref.get();
      if (o == null) {
        o = lookup.get();
        ref.compareAndSet(null, o);
      }
      return o;
    };
  }

  @SuppressWarnings("unchecked")
  private static void invokeHandler(Object bean, Object payload, TaskContext ctx) throws Exception {
    ((Handler<Object>) bean).handle(payload, ctx);
  }

  private HandlerDefinition methodHandler(AnnotatedHandler a) {
    String name = a.name();
    Method method = a.method();
    String source = "bean " + a.beanType().getName() + "#" + method.getName();
    Class<?>[] types = method.getParameterTypes();
    boolean withContext = types.length == 2 && types[1] == TaskContext.class;
    if (types.length < 1 || types.length > 2 || (types.length == 2 && !withContext)) {
      throw new WorkerException(
          "@TaskHandler(\""
              + name
              + "\") method "
              + source
              + " must take (payload) or (payload, TaskContext)");
    }
    JavaType payload =
        WireCodec.mapper().getTypeFactory().constructType(method.getGenericParameterTypes()[0]);
    Supplier<Object> instance = once(a.bean());
    HandlerBeans.MethodInvoker m = a.invoker();
    return HandlerDefinition.of(
        name,
        source,
        payload,
        this::codec,
        (p, ctx) -> {
          Object target = instance.get();
          if (withContext) {
            m.invoke(target, p, ctx);
          } else {
            m.invoke(target, p);
          }
        });
  }
}
