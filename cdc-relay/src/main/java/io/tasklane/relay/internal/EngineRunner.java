package io.tasklane.relay.internal;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.io.IOException;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the asynchronous Debezium engine on its own thread. {@link #completion()} completes
 * when the engine stops: normally with null, or with the error that stopped it. Owned by the leader
 * loop thread.
 */
final class EngineRunner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EngineRunner.class);

  private final DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
  private final ExecutorService executor;
  private final CompletableFuture<Throwable> completion = new CompletableFuture<>();
  private final AtomicBoolean stopping;

  EngineRunner(Properties props, BatchConsumer consumer, AtomicBoolean stopping) {
    this.stopping = stopping;
    this.engine =
        DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(props)
            .notifying(consumer)
            .using(
                (success, message, error) -> {
                  if (success || stopping.get()) {
                    completion.complete(null);
                  } else {
                    completion.complete(error != null ? error : new IllegalStateException(message));
                  }
                })
            .build();
    this.executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "tasklane-relay-engine");
              t.setDaemon(true);
              return t;
            });
  }

  void start() {
    executor.execute(
        () -> {
          try {
            engine.run();
          } catch (Throwable t) {
            completion.complete(t);
          } finally {
            completion.complete(null);
          }
        });
  }

  CompletableFuture<Throwable> completion() {
    return completion;
  }

  @Override
  public void close() {
    stopping.set(true);
    try {
      engine.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("closing the Debezium engine failed", e);
    }
    executor.shutdown();
    try {
      if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("the Debezium engine did not stop within 30 s");
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
