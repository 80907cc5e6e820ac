package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JavaType;
import io.micronaut.context.BeanContext;
import io.micronaut.context.BeanRegistration;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.TaskType;
import io.tasklane.core.WireCodec;
import io.tasklane.worker.Recurring;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TypedHandler;
import io.tasklane.worker.WorkerException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Turns the context's {@link TypedHandler} beans into handler definitions, at start-up. */
final class TypedHandlers {
  private TypedHandlers() {}

  /** One definition per {@link TypedHandler} bean; runs on the start-up thread. */
  @SuppressWarnings("rawtypes")
  static List<HandlerDefinition> scan(BeanContext beans, Supplier<PayloadCodec> codec) {
    List<HandlerDefinition> found = new ArrayList<>();
    for (TypedHandler handler : beans.getBeansOfType(TypedHandler.class)) {
      found.add(definition(handler, codec));
    }
    return found;
  }

  /** The {@link Recurring} annotations on {@link TypedHandler} bean classes; start-up thread. */
  @SuppressWarnings("rawtypes")
  static List<RecurringSpec> recurring(BeanContext beans) {
    List<RecurringSpec> found = new ArrayList<>();
    for (BeanRegistration<TypedHandler> r : beans.getBeanRegistrations(TypedHandler.class)) {
      TaskType<?> type = r.getBean().type();
      String source = "typed handler bean " + r.getBean().getClass().getName();
      r.getBeanDefinition().getAnnotationValuesByType(Recurring.class).stream()
          .map(a -> new RecurringSpec(type == null ? null : type.name(), source, a))
          .forEach(found::add);
    }
    return found;
  }

  /**
   * The definition of {@code handler}: the type's name, payloads bound to the type's payload class.
   * Throws {@link WorkerException} when the bean has no type or its type argument is another class.
   */
  static HandlerDefinition definition(TypedHandler<?> handler, Supplier<PayloadCodec> codec) {
    Class<?> beanClass = handler.getClass();
    String source = "typed handler bean " + beanClass.getName();
    TaskType<?> type = handler.type();
    if (type == null) {
      throw new WorkerException(source + " returns no task type from type()");
    }
    JavaType[] params =
        WireCodec.mapper()
            .getTypeFactory()
            .constructType(beanClass)
            .findTypeParameters(TypedHandler.class);
    if (params.length == 1
        && params[0].getRawClass() != Object.class
        && !params[0].getRawClass().equals(type.payloadType())) {
      throw new WorkerException(
          source
              + " handles "
              + params[0].getRawClass().getName()
              + " but its task type '"
              + type.name()
              + "' carries "
              + type.payloadType().getName()
              + "; declare TypedHandler<"
              + type.payloadType().getSimpleName()
              + "> or use a task type of "
              + params[0].getRawClass().getSimpleName());
    }
    return HandlerDefinition.of(
        type.name(), source, type.payloadType(), codec, (p, ctx) -> invoke(handler, p, ctx));
  }

  @SuppressWarnings("unchecked")
  private static void invoke(TypedHandler<?> handler, Object payload, TaskContext ctx)
      throws Exception {
    ((TypedHandler<Object>) handler).handle(payload, ctx);
  }
}
