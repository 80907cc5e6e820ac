package io.tasklane.outbox.internal;

import io.micronaut.aop.InterceptorBean;
import io.micronaut.aop.MethodInterceptor;
import io.micronaut.aop.MethodInvocationContext;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.propagation.PropagatedContext;
import io.micronaut.transaction.TransactionOperations;
import io.tasklane.core.PayloadCodec;
import io.tasklane.outbox.AsyncOutsideTransaction;
import io.tasklane.outbox.OutboxAsync;
import io.tasklane.outbox.OutboxAsyncExecution;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.hibernate.Session;

/**
 * Records a call of an {@link OutboxAsync} method as a task instead of running it; runs it when the
 * worker executes the recorded call ({@link OutboxAsyncExecution}). Runs on the caller's thread.
 */
@Internal
@Singleton
@Requires(classes = {Session.class, TransactionOperations.class})
@InterceptorBean(OutboxAsync.class)
public final class OutboxAsyncInterceptor implements MethodInterceptor<Object, Object> {
  private final TaskOutbox outbox;
  private final TransactionOperations<Session> transactions;
  private final AsyncOutsideTransaction outsideTransaction;
  private final PayloadCodec codec;

  OutboxAsyncInterceptor(
      TaskOutbox outbox,
      TransactionOperations<Session> transactions,
      OutboxProperties properties,
      @Nullable PayloadCodec codec) {
    this.outbox = outbox;
    this.transactions = transactions;
    this.outsideTransaction = properties.getAsyncOutsideTransaction();
    this.codec = codec != null ? codec : PayloadCodec.jackson();
  }

  @Override
  public Object intercept(MethodInvocationContext<Object, Object> context) {
    String beanType = context.getDeclaringType().getName();
    Optional<OutboxAsyncExecution> executing =
        PropagatedContext.find()
            .flatMap(c -> c.find(OutboxAsyncExecution.class))
            .filter(e -> e.matches(beanType, context.getMethodName()));
    if (executing.isPresent()) {
      // The worker is executing the recorded call: run it, and record nested calls as usual.
      try (PropagatedContext.Scope ignored =
          PropagatedContext.get().minus(executing.get()).propagate()) {
        return context.proceed();
      }
    }
    TaskRequest request = MethodCallRequests.of(context, codec);
    if (transactions.findTransactionStatus().isPresent()) {
      outbox.enqueue(request);
    } else if (outsideTransaction == AsyncOutsideTransaction.OWN_TRANSACTION) {
      transactions.executeWrite(status -> outbox.enqueue(request));
    } else {
      throw OutboxAsyncCalls.outsideTransaction(beanType, context.getMethodName());
    }
    return null;
  }
}
