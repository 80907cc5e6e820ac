package io.tasklane.spring.internal;

import io.tasklane.core.PayloadCodec;
import io.tasklane.outbox.AsyncOutsideTransaction;
import io.tasklane.outbox.OutboxAsync;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.outbox.internal.OutboxAsyncCalls;
import io.tasklane.outbox.internal.OutboxSettings;
import java.lang.reflect.Method;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Records a call of an {@link OutboxAsync} method of a Spring bean as a task in the caller's
 * transaction instead of running it (Spring AOP, outermost advice: the method's own
 * {@code @Transactional} applies when the worker runs it, not when it is recorded). The task, the
 * refusal outside a transaction and the execution marker are outbox-lib's neutral {@link
 * OutboxAsyncCalls}, as on Micronaut. Runs on the caller's thread; the outbox and the transaction
 * manager are looked up on the first call, so creating the advisor creates no other bean.
 */
final class OutboxAsyncAdvice implements MethodInterceptor {
  private final ObjectProvider<TaskOutbox> outbox;
  private final ObjectProvider<OutboxSettings> settings;
  private final ObjectProvider<PlatformTransactionManager> transactions;
  private final ObjectProvider<PayloadCodec> codec;

  OutboxAsyncAdvice(
      ObjectProvider<TaskOutbox> outbox,
      ObjectProvider<OutboxSettings> settings,
      ObjectProvider<PlatformTransactionManager> transactions,
      ObjectProvider<PayloadCodec> codec) {
    this.outbox = outbox;
    this.settings = settings;
    this.transactions = transactions;
    this.codec = codec;
  }

  /** Matches the methods {@link OutboxAsyncCalls#annotation} finds an annotation for. */
  static final class Pointcut extends StaticMethodMatcherPointcut {
    @Override
    public boolean matches(Method method, Class<?> targetClass) {
      Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
      return OutboxAsyncCalls.annotation(targetClass, specific) != null;
    }
  }

  @Override
  public Object invoke(MethodInvocation invocation) throws Throwable {
    Class<?> target =
        invocation.getThis() != null
            ? AopUtils.getTargetClass(invocation.getThis())
            : invocation.getMethod().getDeclaringClass();
    // the application's method (not an interface's): the names the worker's allow-list holds
    Method method = AopUtils.getMostSpecificMethod(invocation.getMethod(), target);
    String beanType = method.getDeclaringClass().getName();
    if (OutboxAsyncCalls.claimExecution(beanType, method.getName())) {
      return invocation.proceed(); // the worker runs the recorded call; nested calls are recorded
    }
    TaskRequest request =
        OutboxAsyncCalls.request(
            OutboxAsyncCalls.annotation(target, method),
            method,
            invocation.getArguments(),
            codec.getIfAvailable(PayloadCodec::jackson));
    TaskOutbox out = outbox.getObject();
    if (TransactionSynchronizationManager.isActualTransactionActive()) {
      out.enqueue(request);
    } else if (policy() == AsyncOutsideTransaction.OWN_TRANSACTION
        && transactions.getIfUnique() != null) {
      new TransactionTemplate(transactions.getIfUnique())
          .executeWithoutResult(status -> out.enqueue(request));
    } else {
      throw OutboxAsyncCalls.outsideTransaction(beanType, method.getName());
    }
    return null;
  }

  private AsyncOutsideTransaction policy() {
    OutboxSettings s = settings.getIfAvailable();
    return s == null ? AsyncOutsideTransaction.REFUSE : s.asyncOutsideTransaction();
  }
}
