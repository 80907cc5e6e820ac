package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.type.TypeFactory;
import io.micronaut.context.BeanContext;
import io.micronaut.context.processor.ExecutableMethodProcessor;
import io.micronaut.core.annotation.Internal;
import io.micronaut.inject.BeanDefinition;
import io.micronaut.inject.ExecutableMethod;
import io.tasklane.core.HandlerNames;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.WireCodec;
import io.tasklane.worker.Handler;
import io.tasklane.worker.Recurring;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import io.tasklane.worker.WorkerException;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Collects {@link TaskHandler} classes and methods while Micronaut processes executable methods at
 * start-up; fails start-up on a duplicate name or a malformed handler.
 */
@Singleton
@Internal
public final class HandlerRegistry implements ExecutableMethodProcessor<TaskHandler> {
  private final BeanContext beans;
  private final AtomicReference<PayloadCodec> codec = new AtomicReference<>();
  private final Map<String, HandlerDefinition> handlers = new LinkedHashMap<>();
  private final Set<BeanDefinition<?>> classHandlers =
      Collections.newSetFromMap(new IdentityHashMap<>());
  private final List<RecurringSpec> recurring = new ArrayList<>();

  HandlerRegistry(BeanContext beans) {
    this.beans = beans;
  }

  @Override
  public synchronized void process(BeanDefinition<?> bean, ExecutableMethod<?, ?> method) {
    if (method.getAnnotationMetadata().hasDeclaredAnnotation(TaskHandler.class)) {
      HandlerDefinition h = methodHandler(bean, method);
      register(h);
      method.getAnnotationMetadata().getDeclaredAnnotationValuesByType(Recurring.class).stream()
          .map(a -> new RecurringSpec(h.name(), h.source(), a))
          .forEach(recurring::add);
    } else if (classHandlers.add(bean)) {
      HandlerDefinition h = classHandler(bean);
      register(h);
      bean.getAnnotationMetadata().getAnnotationValuesByType(Recurring.class).stream()
          .map(a -> new RecurringSpec(h.name(), h.source(), a))
          .forEach(recurring::add);
    }
  }

  /** The {@link Recurring} annotations of the {@link TaskHandler}s found, in discovery order. */
  synchronized List<RecurringSpec> recurring() {
    return List.copyOf(recurring);
  }

  /** Adds a handler defined by the runtime itself (the after-commit method handler). */
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
      c = beans.findBean(PayloadCodec.class).orElseGet(PayloadCodec::jackson);
      codec.compareAndSet(null, c);
    }
    return c;
  }

  private HandlerDefinition classHandler(BeanDefinition<?> bean) {
    Class<?> type = bean.getBeanType();
    String name = bean.stringValue(TaskHandler.class).orElseThrow();
    if (!Handler.class.isAssignableFrom(type)) {
      throw new WorkerException(
          "@TaskHandler(\""
              + name
              + "\") on class "
              + type.getName()
              + " needs the class to implement io.tasklane.worker.Handler<T>, or the annotation"
              + " on a method");
    }
    Supplier<Object> instance = singleton(bean);
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
  private Supplier<Object> singleton(BeanDefinition<?> bean) {
    AtomicReference<Object> ref = new AtomicReference<>();
    return () -> {
      Object o = ref.get();
      if (o == null) {
        o = beans.getBean(bean);
        ref.compareAndSet(null, o);
      }
      return o;
    };
  }

  @SuppressWarnings("unchecked")
  private static void invokeHandler(Object bean, Object payload, TaskContext ctx) throws Exception {
    ((Handler<Object>) bean).handle(payload, ctx);
  }

  private HandlerDefinition methodHandler(BeanDefinition<?> bean, ExecutableMethod<?, ?> method) {
    String name = method.stringValue(TaskHandler.class).orElseThrow();
    String source = "bean " + bean.getBeanType().getName() + "#" + method.getMethodName();
    Class<?>[] types = method.getArgumentTypes();
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
        WireCodec.mapper()
            .getTypeFactory()
            .constructType(method.getTargetMethod().getGenericParameterTypes()[0]);
    Supplier<Object> instance = singleton(bean);
    @SuppressWarnings("unchecked")
    ExecutableMethod<Object, Object> m = (ExecutableMethod<Object, Object>) method;
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
