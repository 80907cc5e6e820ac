package io.tasklane.worker;

import io.micronaut.aop.Around;
import io.micronaut.aop.InterceptorBean;
import io.micronaut.aop.MethodInterceptor;
import io.micronaut.aop.MethodInvocationContext;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.propagation.PropagatedContext;
import io.micronaut.transaction.TransactionOperations;
import io.micronaut.transaction.annotation.Transactional;
import io.tasklane.outbox.OutboxAsync;
import io.tasklane.outbox.OutboxAsyncExecution;
import jakarta.inject.Singleton;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/** Beans of {@link MethodCallSecurityTest} (active when {@code test.suite=methods}). */
final class MethodCallSuite {
  private MethodCallSuite() {}

  /** Set by {@link NotABean}'s static initialiser: a forged call must never load that class. */
  static final AtomicBoolean NOT_A_BEAN_INITIALISED = new AtomicBoolean();

  static final String NOT_A_BEAN = "io.tasklane.worker.MethodCallSuite$NotABean";

  /** What ran, and what the stand-in interceptor saw. */
  @Singleton
  @Requires(property = "test.suite", value = "methods")
  static class Calls {
    final List<String> ran = new CopyOnWriteArrayList<>();
    final List<String> executedThroughProxy = new CopyOnWriteArrayList<>();
    final List<String> recordedInstead = new CopyOnWriteArrayList<>();
  }

  /**
   * Behaves like outbox-lib's {@code @OutboxAsync} interceptor (inactive here: it needs Hibernate):
   * records instead of running unless the worker's {@link OutboxAsyncExecution} marker names this
   * very call. A method reached around the proxy, or without the marker, shows up as wrong.
   */
  @Around
  @Retention(RetentionPolicy.RUNTIME)
  @Target({ElementType.METHOD, ElementType.TYPE})
  @interface RecordUnlessExecuting {}

  @InterceptorBean(RecordUnlessExecuting.class)
  @Requires(property = "test.suite", value = "methods")
  static class RecordUnlessExecutingInterceptor implements MethodInterceptor<Object, Object> {
    private final Calls calls;

    RecordUnlessExecutingInterceptor(Calls calls) {
      this.calls = calls;
    }

    @Override
    public Object intercept(MethodInvocationContext<Object, Object> context) {
      String type = context.getDeclaringType().getName();
      boolean executing =
          PropagatedContext.find()
              .flatMap(c -> c.find(OutboxAsyncExecution.class))
              .filter(e -> e.matches(type, context.getMethodName()))
              .isPresent();
      if (!executing) {
        calls.recordedInstead.add(context.getMethodName());
        return null;
      }
      calls.executedThroughProxy.add(context.getMethodName());
      return context.proceed();
    }
  }

  /** An after-commit method in a JDBC transaction, and methods a forged call must not reach. */
  @Singleton
  @Requires(property = "test.suite", value = "methods")
  static class Ledger {
    private final Calls calls;
    private final TransactionOperations<Connection> tx;

    Ledger(Calls calls, TransactionOperations<Connection> tx) {
      this.calls = calls;
      this.tx = tx;
    }

    /** Writes {@code rows} rows, then throws if {@code fail}: all or none must commit. */
    @OutboxAsync
    @RecordUnlessExecuting
    @Transactional
    public void book(String entry, int rows, boolean fail) throws SQLException {
      calls.ran.add("book:" + entry);
      Connection c = tx.getConnection();
      for (int i = 0; i < rows; i++) {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger (entry) VALUES (?)")) {
          ps.setString(1, entry + "-" + i);
          ps.executeUpdate();
        }
      }
      if (fail) {
        throw new IllegalStateException("failing after " + rows + " rows");
      }
    }

    public void unannotated(String entry) {
      calls.ran.add("unannotated:" + entry);
    }

    @SuppressWarnings("unused")
    private void secret(String entry) {
      calls.ran.add("secret:" + entry);
    }
  }

  /** {@code @OutboxAsync} on the class: its public void methods are after-commit methods. */
  @Singleton
  @OutboxAsync
  @Requires(property = "test.suite", value = "methods")
  static class Notifier {
    private final Calls calls;

    Notifier(Calls calls) {
      this.calls = calls;
    }

    public void ping(String who) {
      calls.ran.add("ping:" + who);
    }
  }

  /** Not a bean; initialising the class sets {@link #NOT_A_BEAN_INITIALISED}. */
  static class NotABean {
    static {
      NOT_A_BEAN_INITIALISED.set(true);
    }

    @OutboxAsync
    public void run(String what) {
      throw new IllegalStateException("must never run: " + what);
    }
  }
}
