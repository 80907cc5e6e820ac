package io.tasklane.worker.internal;

import com.fasterxml.jackson.databind.JavaType;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.TaskType;
import io.tasklane.core.WireCodec;
import io.tasklane.worker.Recurring;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TypedHandler;
import io.tasklane.worker.WorkerException;
import io.tasklane.worker.spi.HandlerBeans;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Turns the context's {@link TypedHandler} beans into handler definitions, at start-up. */
final class TypedHandlers {
  private TypedHandlers() {}

  /** One definition per {@link TypedHandler} bean; runs on the start-up thread. */
  static List<HandlerDefinition> scan(HandlerBeans beans, Supplier<PayloadCodec> codec) {
    List<HandlerDefinition> found = new ArrayList<>();
    for (HandlerBeans.TypedBean bean : beans.typedHandlers()) {
      found.add(definition(bean.handler(), codec));
    }
    return found;
  }

  /** The {@link Recurring} annotations on {@link TypedHandler} bean classes; start-up thread. */
  static List<RecurringSpec> recurring(HandlerBeans beans) {
    List<RecurringSpec> found = new ArrayList<>();
    for (HandlerBeans.TypedBean bean : beans.typedHandlers()) {
      TaskType<?> type = bean.handler().type();
      String source = "typed handler bean " + bean.handler().getClass().getName();
      for (Recurring r : bean.recurring()) {
        found.add(new RecurringSpec(type == null ? null : type.name(), source, r));
      }
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
