package io.tasklane.worker.spi;

import io.tasklane.core.PayloadCodec;
import io.tasklane.worker.Handler;
import io.tasklane.worker.Recurring;
import io.tasklane.worker.TaskHandler;
import io.tasklane.worker.TypedHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the worker needs from the application's dependency-injection container: the handler beans
 * with their annotation data. Implemented by the framework adapter (e.g. tasklane-worker-runtime
 * for Micronaut). The worker calls the listing methods once, on the start-up thread, when it
 * starts; the {@link Supplier}s and {@link MethodInvoker}s they return are called later, on pool
 * threads.
 */
public interface HandlerBeans {
  /**
   * The {@link TaskHandler} classes and methods of the application's beans, in discovery order (the
   * order of duplicate-name errors and of the consumers' start).
   */
  List<AnnotatedHandler> taskHandlers();

  /** The application's {@link TypedHandler} beans. */
  List<TypedBean> typedHandlers();

  /**
   * The {@code void} methods carrying outbox-lib's {@code @OutboxAsync} (on the method or its
   * class) of the application's beans: the only methods an after-commit method task may name. Empty
   * when outbox-lib is absent.
   */
  List<AsyncMethod> asyncMethods();

  /**
   * The application's {@link PayloadCodec} bean, the one its outbox encodes with; empty for
   * Tasklane's Jackson default. Called on first use, after start-up, from any thread.
   */
  Optional<PayloadCodec> payloadCodec();

  /** Calls a method on a bean; what the method throws propagates unchanged. */
  @FunctionalInterface
  interface MethodInvoker {
    Object invoke(Object bean, Object... args) throws Exception;
  }

  /**
   * A {@link TaskHandler} on a bean class (then {@code method} and {@code invoker} are null, and
   * the class implements {@link Handler}) or on one of its methods.
   *
   * @param name the annotation's value
   * @param beanType the application's class of the bean (not a generated proxy's)
   * @param method the annotated method, or null for a class handler
   * @param bean the bean as the container hands it out, looked up on first use (the worker calls it
   *     at most once per handler)
   * @param invoker calls {@code method} on the bean, or null for a class handler
   * @param recurring the {@link Recurring} annotations beside the {@link TaskHandler}
   */
  record AnnotatedHandler(
      String name,
      Class<?> beanType,
      Method method,
      Supplier<Object> bean,
      MethodInvoker invoker,
      List<Recurring> recurring) {
    public AnnotatedHandler {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(beanType, "beanType");
      Objects.requireNonNull(bean, "bean");
      recurring = List.copyOf(recurring);
    }

    /** A class handler: {@code beanType} implements {@link Handler}. */
    public static AnnotatedHandler ofClass(
        String name, Class<?> beanType, Supplier<Object> bean, List<Recurring> recurring) {
      return new AnnotatedHandler(name, beanType, null, bean, null, recurring);
    }
  }

  /**
   * A {@link TypedHandler} bean.
   *
   * @param handler the bean
   * @param recurring the {@link Recurring} annotations on its class
   */
  record TypedBean(TypedHandler<?> handler, List<Recurring> recurring) {
    public TypedBean {
      Objects.requireNonNull(handler, "handler");
      recurring = List.copyOf(recurring);
    }
  }

  /**
   * One {@code @OutboxAsync void} method of one bean.
   *
   * @param beanType the application's class of the bean (not a generated proxy's)
   * @param declaringType the name of the class declaring the method, as outbox-lib records it
   * @param name the method's name
   * @param parameterTypes the names of its parameters' classes, as outbox-lib records them
   * @param genericParameterTypes its parameters' types, to decode the call's arguments to
   * @param bean the bean as the container hands it out (its proxy, so interceptors such as
   *     {@code @Transactional} apply), looked up on first use
   * @param invoker calls the method on the bean
   */
  record AsyncMethod(
      Class<?> beanType,
      String declaringType,
      String name,
      List<String> parameterTypes,
      List<Type> genericParameterTypes,
      Supplier<Object> bean,
      MethodInvoker invoker) {
    public AsyncMethod {
      parameterTypes = List.copyOf(parameterTypes);
      genericParameterTypes = List.copyOf(genericParameterTypes);
    }
  }
}
