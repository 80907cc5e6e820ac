package io.tasklane.outbox;

import io.micronaut.aop.Around;
import io.tasklane.core.MethodCall;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a bean method (Micronaut or Spring) an after-commit task: calling it inside a transaction
 * does not run it but records a task (the {@link MethodCall}: bean type, method, parameter types
 * and the arguments as JSON) in that transaction. After commit, a worker (worker-runtime, or the
 * Spring Boot starter's) invokes the method on the bean with the decoded arguments, at least once;
 * after a rollback it never runs.
 *
 * <pre>{@code
 * @Singleton
 * public class Receipts {
 *   @OutboxAsync(key = "receipt-{0}", delay = "PT1M")
 *   public void send(String orderId, Receipt receipt) { ... }   // runs later, on a worker
 * }
 * }</pre>
 *
 * <p>The method must return {@code void}; its arguments must be JSON-serializable with Jackson.
 * Outside a transaction the call is refused with {@link NoActiveTransactionException}, unless
 * {@code tasklane.outbox.async-outside-transaction} is {@link
 * AsyncOutsideTransaction#OWN_TRANSACTION}. On a type, it applies to every public method. Requires
 * the Micronaut integration ({@code micronaut-hibernate-jpa} and {@code
 * micronaut-data-tx-hibernate}) or the Spring Boot starter (Spring AOP: calls through the bean's
 * proxy).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@Around
public @interface OutboxAsync {

  /** The handler name of the task; {@link MethodCall#DEFAULT_HANDLER} unless set. */
  String handler() default MethodCall.DEFAULT_HANDLER;

  /** ISO-8601 delay after the commit's enqueue, e.g. {@code "PT30M"}; empty: run now. */
  String delay() default "";

  /** Attempts before the task goes dead; 0: {@code tasklane.outbox.default-max-attempts}. */
  int maxAttempts() default 0;

  /** ISO-8601 execution timeout, e.g. {@code "PT2M"}; empty: {@code default-timeout}. */
  String timeout() default "";

  /**
   * Idempotency key template; {@code {0}}, {@code {1}}... are replaced by the arguments' {@code
   * String.valueOf}. Empty: no key (every call is a new task).
   */
  String key() default "";
}
