package io.tasklane.worker.micronaut.internal;

import io.micronaut.context.BeanContext;
import io.micronaut.context.BeanRegistration;
import io.micronaut.context.processor.ExecutableMethodProcessor;
import io.micronaut.core.annotation.AnnotationValue;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.reflect.ClassUtils;
import io.micronaut.core.type.Argument;
import io.micronaut.inject.BeanDefinition;
import io.micronaut.inject.ExecutableMethod;
import io.micronaut.inject.ProxyBeanDefinition;
import io.tasklane.core.PayloadCodec;
import io.tasklane.worker.Recurring;
import io.tasklane.worker.TaskHandler;
import io.tasklane.worker.TypedHandler;
import io.tasklane.worker.spi.HandlerBeans;
import jakarta.inject.Singleton;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The handler beans of a Micronaut context: collects the {@link TaskHandler} classes and methods
 * while Micronaut processes executable methods at start-up (on the start-up thread, before the
 * worker starts), and reads the {@link TypedHandler} beans and the {@code @OutboxAsync} methods
 * from the context's bean definitions when the worker asks. Beans are looked up on first use.
 */
@Singleton
@Internal
public final class MicronautHandlerBeans
    implements ExecutableMethodProcessor<TaskHandler>, HandlerBeans {
  static final String OUTBOX_ASYNC = "io.tasklane.outbox.OutboxAsync";
  private static final boolean OUTBOX_PRESENT =
      ClassUtils.isPresent(
          "io.tasklane.outbox.OutboxAsyncExecution", MicronautHandlerBeans.class.getClassLoader());

  private final BeanContext beans;
  private final List<AnnotatedHandler> annotated = new ArrayList<>();
  private final Set<BeanDefinition<?>> classHandlers =
      Collections.newSetFromMap(new IdentityHashMap<>());

  MicronautHandlerBeans(BeanContext beans) {
    this.beans = beans;
  }

  @Override
  public synchronized void process(BeanDefinition<?> bean, ExecutableMethod<?, ?> method) {
    if (method.getAnnotationMetadata().hasDeclaredAnnotation(TaskHandler.class)) {
      @SuppressWarnings("unchecked")
      ExecutableMethod<Object, Object> m = (ExecutableMethod<Object, Object>) method;
      annotated.add(
          new AnnotatedHandler(
              method.stringValue(TaskHandler.class).orElseThrow(),
              bean.getBeanType(),
              method.getTargetMethod(),
              () -> beans.getBean(bean),
              m::invoke,
              recurring(
                  method
                      .getAnnotationMetadata()
                      .getDeclaredAnnotationValuesByType(Recurring.class))));
    } else if (classHandlers.add(bean)) {
      annotated.add(
          AnnotatedHandler.ofClass(
              bean.stringValue(TaskHandler.class).orElseThrow(),
              bean.getBeanType(),
              () -> beans.getBean(bean),
              recurring(bean.getAnnotationMetadata().getAnnotationValuesByType(Recurring.class))));
    }
  }

  @Override
  public synchronized List<AnnotatedHandler> taskHandlers() {
    return List.copyOf(annotated);
  }

  @Override
  @SuppressWarnings("rawtypes")
  public List<TypedBean> typedHandlers() {
    List<TypedBean> found = new ArrayList<>();
    for (BeanRegistration<TypedHandler> r : beans.getBeanRegistrations(TypedHandler.class)) {
      found.add(
          new TypedBean(
              r.getBean(),
              recurring(r.getBeanDefinition().getAnnotationValuesByType(Recurring.class))));
    }
    return found;
  }

  /**
   * Every {@code @OutboxAsync} void method of the context's beans, from Micronaut's bean
   * definitions and their executable methods; a subclass proxy and the class it extends are one
   * bean, called through the proxy.
   */
  @Override
  public List<AsyncMethod> asyncMethods() {
    Map<Class<?>, BeanDefinition<?>> byType = new LinkedHashMap<>();
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
    List<AsyncMethod> found = new ArrayList<>();
    for (BeanDefinition<?> def : byType.values()) {
      boolean classLevel = def.hasAnnotation(OUTBOX_ASYNC);
      for (ExecutableMethod<?, ?> m : def.getExecutableMethods()) {
        if ((classLevel || m.hasAnnotation(OUTBOX_ASYNC)) && m.getReturnType().isVoid()) {
          found.add(asyncMethod(def, m));
        }
      }
    }
    return found;
  }

  private AsyncMethod asyncMethod(BeanDefinition<?> def, ExecutableMethod<?, ?> method) {
    @SuppressWarnings("unchecked")
    ExecutableMethod<Object, Object> m = (ExecutableMethod<Object, Object>) method;
    List<String> types = new ArrayList<>();
    for (Argument<?> a : m.getArguments()) {
      types.add(a.getType().getName());
    }
    List<Type> generic = List.of(m.getTargetMethod().getGenericParameterTypes());
    String declaringType = m.getDeclaringType().getName();
    MethodInvoker invoker =
        OUTBOX_PRESENT
            ? (bean, args) -> OutboxExecution.run(declaringType, m, bean, args)
            : m::invoke;
    return new AsyncMethod(
        beanType(def),
        declaringType,
        m.getMethodName(),
        types,
        generic,
        () -> beans.getBean(def),
        invoker);
  }

  @Override
  public Optional<PayloadCodec> payloadCodec() {
    return beans.findBean(PayloadCodec.class);
  }

  private static List<Recurring> recurring(List<AnnotationValue<Recurring>> values) {
    List<Recurring> out = new ArrayList<>();
    values.forEach(v -> out.add(new RecurringValue(v)));
    return out;
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

  /**
   * Loaded only when outbox-lib is on the classpath: outbox-lib's {@code @OutboxAsync} interceptor
   * is told by {@code OutboxAsyncExecution} to run this one call instead of recording it again.
   */
  private static final class OutboxExecution {
    static Object run(
        String declaringType, ExecutableMethod<Object, Object> m, Object bean, Object[] args) {
      return io.tasklane.outbox.OutboxAsyncExecution.run(
          declaringType, m.getMethodName(), () -> m.invoke(bean, args));
    }
  }
}
