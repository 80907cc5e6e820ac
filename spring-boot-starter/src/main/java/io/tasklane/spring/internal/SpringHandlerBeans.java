package io.tasklane.spring.internal;

import io.tasklane.core.PayloadCodec;
import io.tasklane.worker.Recurring;
import io.tasklane.worker.TaskHandler;
import io.tasklane.worker.TypedHandler;
import io.tasklane.worker.spi.HandlerBeans;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The handler beans of a Spring context: every bean whose class (the application's class, not a
 * generated proxy's) carries {@link TaskHandler} or has methods carrying it, and every {@link
 * TypedHandler} bean. Listed when the worker starts, on the start-up thread, after every singleton
 * exists; beans are looked up on first use and methods are called on the bean as Spring hands it
 * out (its proxy), so {@code @Transactional} and other advice apply; so are the
 * {@code @OutboxAsync} methods of {@link #asyncMethods}.
 */
final class SpringHandlerBeans implements HandlerBeans {
  private static final boolean OUTBOX_PRESENT =
      ClassUtils.isPresent(
          "io.tasklane.outbox.internal.OutboxAsyncCalls",
          SpringHandlerBeans.class.getClassLoader());
  private final ListableBeanFactory beans;

  SpringHandlerBeans(ListableBeanFactory beans) {
    this.beans = beans;
  }

  /**
   * Whether {@code type} is a handler bean's class: @TaskHandler on it or on a method, typed, or
   * with {@code @OutboxAsync} methods (which the worker runs).
   */
  static boolean isHandler(Class<?> type) {
    Class<?> user = ClassUtils.getUserClass(type);
    if (TypedHandler.class.isAssignableFrom(user)
        || AnnotatedElementUtils.hasAnnotation(user, TaskHandler.class)) {
      return true;
    }
    for (Method m : methods(user)) {
      if (m.isAnnotationPresent(TaskHandler.class)) {
        return true;
      }
    }
    return OUTBOX_PRESENT
        && !user.getName().startsWith("org.springframework.")
        && !AsyncMethods.of(user, () -> null).isEmpty();
  }

  /**
   * The methods that may carry {@link TaskHandler}: none on Spring's own classes, nor on a class
   * whose signatures name a class missing from the classpath (Spring's optional integrations).
   */
  private static Method[] methods(Class<?> user) {
    if (user.getName().startsWith("org.springframework.")) {
      return new Method[0];
    }
    try {
      return ReflectionUtils.getUniqueDeclaredMethods(user);
    } catch (LinkageError e) {
      return new Method[0];
    }
  }

  @Override
  public List<AnnotatedHandler> taskHandlers() {
    List<AnnotatedHandler> found = new ArrayList<>();
    for (String name : beans.getBeanDefinitionNames()) {
      Class<?> type = beans.getType(name, false);
      if (type == null) {
        continue;
      }
      Class<?> user = ClassUtils.getUserClass(type);
      TaskHandler onClass = AnnotatedElementUtils.findMergedAnnotation(user, TaskHandler.class);
      if (onClass != null) {
        found.add(
            AnnotatedHandler.ofClass(
                onClass.value(), user, () -> beans.getBean(name), recurring(user)));
      }
      for (Method m : methods(user)) {
        TaskHandler onMethod = m.getAnnotation(TaskHandler.class);
        if (onMethod != null) {
          found.add(
              new AnnotatedHandler(
                  onMethod.value(),
                  user,
                  m,
                  () -> beans.getBean(name),
                  (bean, args) -> invoke(m, bean, args),
                  recurring(m)));
        }
      }
    }
    return found;
  }

  @Override
  @SuppressWarnings("rawtypes")
  public List<TypedBean> typedHandlers() {
    List<TypedBean> found = new ArrayList<>();
    for (Map.Entry<String, TypedHandler> e : beans.getBeansOfType(TypedHandler.class).entrySet()) {
      found.add(
          new TypedBean(e.getValue(), recurring(ClassUtils.getUserClass(e.getValue().getClass()))));
    }
    return found;
  }

  /**
   * The public {@code void} methods of the context's beans that carry outbox-lib's
   * {@code @OutboxAsync} (on the method or the bean's class), named as the Spring advice records
   * them; run through the bean's proxy with outbox-lib's execution marker set, so the advice runs
   * the call instead of recording it again and {@code @Transactional} applies. Empty without
   * outbox-lib.
   */
  @Override
  public List<AsyncMethod> asyncMethods() {
    if (!OUTBOX_PRESENT) {
      return List.of();
    }
    List<AsyncMethod> found = new ArrayList<>();
    for (String name : beans.getBeanDefinitionNames()) {
      Class<?> type = beans.getType(name, false);
      if (type == null || type.getName().startsWith("org.springframework.")) {
        continue;
      }
      found.addAll(AsyncMethods.of(ClassUtils.getUserClass(type), () -> beans.getBean(name)));
    }
    return found;
  }

  @Override
  public Optional<PayloadCodec> payloadCodec() {
    return Optional.ofNullable(beans.getBeanProvider(PayloadCodec.class).getIfAvailable());
  }

  private static List<Recurring> recurring(AnnotatedElement element) {
    return List.copyOf(
        AnnotatedElementUtils.findMergedRepeatableAnnotations(element, Recurring.class));
  }

  /**
   * Calls {@code method} on {@code bean} (its proxy's matching method when Spring proxied it); what
   * the method throws propagates unchanged.
   */
  static Object invoke(Method method, Object bean, Object... args) throws Exception {
    Method target = AopUtils.selectInvocableMethod(method, bean.getClass());
    ReflectionUtils.makeAccessible(target);
    try {
      return target.invoke(bean, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception ex) {
        throw ex;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }
}
