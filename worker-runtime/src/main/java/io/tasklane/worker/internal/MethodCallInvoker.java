package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.aop.Intercepted;
import io.micronaut.aop.InterceptedProxy;
import io.micronaut.context.BeanContext;
import io.micronaut.core.annotation.Internal;
import io.tasklane.core.MethodCall;
import io.tasklane.core.WireCodec;
import io.tasklane.worker.PermanentTaskException;
import jakarta.inject.Singleton;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.List;

/**
 * Runs an after-commit method task ({@link MethodCall}): finds the bean by type, the method by name
 * and parameter types, converts the JSON arguments and invokes the <em>original</em> method.
 *
 * <p>The bean is usually an AOP proxy whose {@code @OutboxAsync} interceptor would record the call
 * again instead of running it. With outbox-lib on the classpath the proxy is called inside {@code
 * OutboxAsyncExecution.run}, which tells that interceptor to run the call, so every other
 * interceptor ({@code @Transactional}, ...) still applies. Without it, a subclass proxy's method is
 * called with {@code invokespecial} semantics (the superclass's body, bypassing every interceptor
 * of that method) and a target proxy's target is called directly. Problems that retrying cannot fix
 * (no such class, bean or method, arguments that do not convert) are permanent failures.
 */
@Singleton
@Internal
public final class MethodCallInvoker {
  private final BeanContext beans;

  MethodCallInvoker(BeanContext beans) {
    this.beans = beans;
  }

  void invoke(MethodCall call) throws Throwable {
    Class<?> type;
    try {
      type = Class.forName(call.beanType(), true, Thread.currentThread().getContextClassLoader());
    } catch (ClassNotFoundException e) {
      throw new PermanentTaskException("no class " + call.beanType(), e);
    }
    Object bean = beans.findBean(type).orElse(null);
    if (bean == null) {
      throw new PermanentTaskException("no bean of type " + call.beanType());
    }
    Method method = find(type, call.method(), call.parameterTypes());
    Object[] args = convert(call, method.getGenericParameterTypes());
    if (bean instanceof Intercepted && OUTBOX_PRESENT && OutboxMarker.isOutboxAsync(method)) {
      OutboxMarker.invokeThroughProxy(call, method, bean, args);
    } else if (bean instanceof InterceptedProxy<?> proxy) {
      invokeReflectively(method, proxy.interceptedTarget(), args);
    } else if (bean instanceof Intercepted && !method.getDeclaringClass().isInterface()) {
      MethodHandle original =
          MethodHandles.privateLookupIn(bean.getClass(), MethodHandles.lookup())
              .findSpecial(
                  method.getDeclaringClass(),
                  method.getName(),
                  MethodType.methodType(method.getReturnType(), method.getParameterTypes()),
                  bean.getClass());
      original.bindTo(bean).invokeWithArguments(args);
    } else {
      invokeReflectively(method, bean, args);
    }
  }

  private static final boolean OUTBOX_PRESENT =
      io.micronaut.core.reflect.ClassUtils.isPresent(
          "io.tasklane.outbox.OutboxAsyncExecution", MethodCallInvoker.class.getClassLoader());

  /** Loaded only when outbox-lib is on the classpath. */
  private static final class OutboxMarker {
    static boolean isOutboxAsync(Method method) {
      return method.isAnnotationPresent(io.tasklane.outbox.OutboxAsync.class)
          || method.getDeclaringClass().isAnnotationPresent(io.tasklane.outbox.OutboxAsync.class);
    }

    static void invokeThroughProxy(MethodCall call, Method method, Object bean, Object[] args)
        throws Throwable {
      Throwable[] failure = new Throwable[1];
      io.tasklane.outbox.OutboxAsyncExecution.run(
          call.beanType(),
          call.method(),
          () -> {
            try {
              invokeReflectively(method, bean, args);
            } catch (Throwable t) {
              failure[0] = t;
            }
            return null;
          });
      if (failure[0] != null) {
        throw failure[0];
      }
    }
  }

  private static void invokeReflectively(Method method, Object target, Object[] args)
      throws Throwable {
    try {
      method.setAccessible(true);
      method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Method find(Class<?> type, String name, List<String> parameterTypes) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Method m : c.getDeclaredMethods()) {
        if (m.getName().equals(name) && !m.isBridge() && matches(m, parameterTypes)) {
          return m;
        }
      }
    }
    for (Method m : type.getMethods()) {
      if (m.getName().equals(name) && matches(m, parameterTypes)) {
        return m;
      }
    }
    throw new PermanentTaskException(
        "no method " + type.getName() + "." + name + "(" + String.join(", ", parameterTypes) + ")");
  }

  private static boolean matches(Method m, List<String> parameterTypes) {
    Class<?>[] actual = m.getParameterTypes();
    if (actual.length != parameterTypes.size()) {
      return false;
    }
    for (int i = 0; i < actual.length; i++) {
      String want = parameterTypes.get(i);
      if (!want.equals(actual[i].getName()) && !want.equals(actual[i].getTypeName())) {
        return false;
      }
    }
    return true;
  }

  private static Object[] convert(MethodCall call, Type[] types) {
    JsonNode args = call.args();
    int n = args == null || args.isNull() ? 0 : args.size();
    if (n != types.length || (n > 0 && !args.isArray())) {
      throw new PermanentTaskException(
          "method " + call.method() + " takes " + types.length + " arguments, the task has " + n);
    }
    ObjectMapper mapper = WireCodec.mapper();
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      try {
        out[i] = mapper.convertValue(args.get(i), mapper.getTypeFactory().constructType(types[i]));
      } catch (IllegalArgumentException e) {
        throw new PermanentTaskException(
            "argument " + i + " of " + call.method() + " does not convert to " + types[i], e);
      }
    }
    return n == 0 ? new Object[0] : Arrays.copyOf(out, n);
  }
}
