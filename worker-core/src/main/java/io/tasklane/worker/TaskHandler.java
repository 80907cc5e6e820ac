package io.tasklane.worker;

import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.DefaultScope;
import io.micronaut.context.annotation.Executable;
import jakarta.inject.Singleton;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a task handler, found at start-up by the framework adapter (on Micronaut, by its
 * executable-method processing).
 *
 * <p>On a class implementing {@link Handler}: the class becomes a singleton bean and receives the
 * tasks of the named handler, the payload bound to the handler's type argument:
 *
 * <pre>{@code
 * @TaskHandler("order.cancel")
 * class CancelOrder implements Handler<OrderRef> {
 *   public void handle(OrderRef ref, TaskContext ctx) { ... }
 * }
 * }</pre>
 *
 * <p>On a method of a bean: the method receives the tasks; its first parameter is the payload and
 * an optional second parameter the {@link TaskContext}: {@code @TaskHandler("order.cancel") void
 * cancel(OrderRef ref, TaskContext ctx)}.
 *
 * <p>Handler names match {@code [a-z0-9][a-z0-9._-]{0,99}}; two handlers with the same name fail
 * start-up. Handlers run on the handler's own pool threads (never the consumer thread), outside any
 * transaction unless they open one ({@link TaskContext#inTransaction}).
 *
 * <p>The annotation carries Micronaut's bean and executable-method meta-annotations, so a Micronaut
 * application compiles its handlers into beans with no further set-up. They are the only reference
 * to Micronaut in tasklane-worker-core, and only a compile-time one: without Micronaut on the
 * classpath, reflection ignores them and javac compiles annotated code without a word (only {@code
 * -Xlint:classfile} notes the missing classes).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Bean
@DefaultScope(Singleton.class)
@Executable(processOnStartup = true)
public @interface TaskHandler {
  /** The handler name, e.g. {@code order.cancel}; tasks are consumed from its handler topic. */
  String value();
}
