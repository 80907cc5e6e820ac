package io.tasklane.worker.internal;

import static org.apache.kafka.clients.consumer.CloseOptions.GroupMembershipOperation.LEAVE_GROUP;

import io.tasklane.worker.HandlerConfig;
import io.tasklane.worker.spi.WorkerMetrics;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer thread of one handler: polls its topic, hands records to the handler's own pool
 * (which starts those it holds highest priority first, {@link PoolOrder}), pauses every partition
 * while {@code max-in-flight} records are in the pool (queued or running) or {@link
 * #MAX_AWAITING_ACK} results are not yet acknowledged by the broker (a small buffer of at most one
 * poll holds the overflow), and commits per partition up to the lowest unacknowledged offset.
 * Stopping drains in-flight work until the grace deadline, commits, closes.
 */
final class HandlerConsumer implements Runnable, WorkerMetrics.Gauges, Heartbeats.Source {
  private static final Logger LOG = LoggerFactory.getLogger(HandlerConsumer.class);
  private static final Duration POLL = Duration.ofMillis(100);

  /**
   * Results handed to the producer and not yet acknowledged. A finished handler frees its pool slot
   * at once: waiting for {@code acks=all} inside the {@code max-in-flight} window capped a handler
   * at {@code max-in-flight / ack latency} tasks per second.
   */
  static final int MAX_AWAITING_ACK = 1_000;

  private static final long LAG_EVERY_MS = 5_000;

  private final HandlerDefinition handler;
  private final HandlerConfig config;
  private final WorkerServices services;
  private final Consumer<byte[], byte[]> consumer;
  private final String topic;
  private final HandlerPool pool;
  private final WorkerMetrics.HandlerMetrics metrics;
  private final Commits commits;
  private final ArrayDeque<ConsumerRecord<byte[], byte[]>> buffer = new ArrayDeque<>();
  private final AtomicBoolean waiting = new AtomicBoolean();
  private final Runnable releasedCallback = this::released;
  private final BooleanSupplier abandonedFlag = () -> this.abandoned;

  private volatile boolean running = true;
  private boolean assigned; // consumer thread: an assignment came (possibly empty)
  private volatile boolean fetching;
  private volatile boolean abandoned;
  private volatile long stopDeadline = Long.MAX_VALUE;
  private volatile long lag;
  private long lagAt;

  HandlerConsumer(
      HandlerDefinition handler,
      HandlerConfig config,
      WorkerServices services,
      Consumer<byte[], byte[]> consumer,
      WorkerMetrics metrics) {
    this.handler = handler;
    this.config = config;
    this.services = services;
    this.consumer = consumer;
    this.topic = services.config().topics().handler(handler.name());
    this.commits = new Commits(handler.name(), consumer);
    this.pool = new HandlerPool(handler.name(), config.concurrency(), config.maxInFlight());
    this.metrics = metrics.forHandler(handler.name(), this);
  }

  @Override
  public void run() {
    consumer.subscribe(List.of(topic), new Rebalance());
    while (running) {
      try {
        step();
      } catch (WakeupException e) {
        // a completion or stop() woke the poll
      } catch (Throwable t) {
        LOG.error("consumer loop of {} failed; continuing: {}", handler.name(), t.toString(), t);
        pauseAfterError();
      }
    }
    shutdown();
  }

  private void step() {
    commits.drain();
    commits.commitIfDue();
    submitBuffered();
    waiting.set(true); // before the check: a slot freed after it wakes the poll
    boolean full = !buffer.isEmpty() || !hasRoom();
    if (full) {
      consumer.pause(consumer.assignment());
    } else if (!consumer.paused().isEmpty()) {
      consumer.resume(consumer.paused());
    }
    waiting.set(full);
    Duration timeout = full && commits.hasCompletions() ? Duration.ZERO : POLL;
    try {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(timeout)) {
        buffer.add(r);
      }
    } finally {
      waiting.set(false);
    }
    if (assigned && !fetching) {
      fetching = true;
    }
    submitBuffered();
    updateLag();
  }

  private void submitBuffered() {
    while (!buffer.isEmpty() && hasRoom()) {
      ConsumerRecord<byte[], byte[]> r = buffer.poll();
      TopicPartition tp = new TopicPartition(r.topic(), r.partition());
      commits.started(tp, r.offset());
      TaskExecution exec =
          new TaskExecution(
              r,
              handler,
              config,
              services,
              metrics,
              () -> completed(tp, r.offset()),
              releasedCallback,
              abandonedFlag,
              pool.executor());
      if (!pool.submit(exec)) {
        exec.rejected();
        released();
      }
    }
  }

  private boolean hasRoom() {
    return pool.inPool() < config.maxInFlight()
        && commits.unacked() < Math.max(MAX_AWAITING_ACK, config.maxInFlight());
  }

  /** Pool thread: the handler returned (its result may still be on its way to the broker). */
  private void released() {
    pool.released();
    if (waiting.getAndSet(false)) {
      consumer.wakeup();
    }
  }

  /** Any thread (usually the producer's): the record's result or dead letter was acknowledged. */
  private void completed(TopicPartition tp, long offset) {
    commits.completed(tp, offset);
    if (waiting.getAndSet(false)) {
      consumer.wakeup();
    }
  }

  private void updateLag() {
    long now = System.currentTimeMillis();
    if (now - lagAt < LAG_EVERY_MS) {
      return;
    }
    lagAt = now;
    long sum = 0;
    for (TopicPartition tp : consumer.assignment()) {
      sum += consumer.currentLag(tp).orElse(0);
    }
    lag = sum;
  }

  private void shutdown() {
    try {
      buffer.clear();
      consumer.pause(consumer.assignment());
      try {
        consumer.poll(Duration.ZERO); // consumes a pending wake-up
      } catch (WakeupException e) {
        // expected
      }
      commits.awaitIdle(tp -> true, stopDeadline);
      commits.commit(true, tp -> true);
    } catch (Throwable t) {
      LOG.warn("shutting down the consumer of {}: {}", handler.name(), t.toString());
    } finally {
      int left = commits.pending();
      if (left > 0) {
        LOG.warn(
            "{}: {} task(s) unfinished at the end of the grace period; redelivered later",
            handler.name(),
            left);
      }
      abandoned = true;
      pool.shutdownNow();
      // a static member (kafka.group.instance.id) leaves too: its partitions move on at once
      consumer.close(
          CloseOptions.timeout(Duration.ofSeconds(5)).withGroupMembershipOperation(LEAVE_GROUP));
    }
  }

  /** Any thread: stop fetching; in-flight work may finish until {@code deadline} (epoch ms). */
  void stop(long deadline) {
    stopDeadline = deadline;
    running = false;
    consumer.wakeup();
  }

  private void pauseAfterError() {
    try {
      Thread.sleep(500);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  /** Any thread: joined its group (an assignment came) and a poll returned since. */
  boolean fetching() {
    return fetching;
  }

  @Override
  public int inFlight() {
    return commits.unacked();
  }

  @Override
  public int busyThreads() {
    return pool.busyThreads();
  }

  @Override
  public int concurrency() {
    return pool.concurrency();
  }

  /**
   * Settings thread: the pool takes {@code threads} (null: the configured concurrency) now, without
   * a restart; running handlers are not disturbed (a smaller pool lets its extra threads end as
   * they finish). {@code max-in-flight} stays as configured, so it caps the pool's useful size.
   */
  void resize(Integer threads) {
    int n = threads == null ? config.concurrency() : threads;
    pool.resize(n);
    LOG.info("{}: concurrency {} (max in flight {})", handler.name(), n, config.maxInFlight());
  }

  @Override
  public String name() {
    return handler.name();
  }

  @Override
  public int inPool() {
    return pool.inPool();
  }

  @Override
  public long lag() {
    return lag;
  }

  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      waiting.set(false);
      buffer.removeIf(r -> partitions.contains(new TopicPartition(r.topic(), r.partition())));
      try {
        long deadline =
            Math.min(
                stopDeadline,
                System.currentTimeMillis() + services.config().shutdownGrace().toMillis());
        commits.awaitIdle(partitions::contains, deadline);
        commits.commit(true, partitions::contains);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        LOG.warn("commit on revocation of {} failed: {}", partitions, e.toString());
      }
      commits.remove(partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      buffer.removeIf(r -> partitions.contains(new TopicPartition(r.topic(), r.partition())));
      commits.remove(partitions);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      assigned = true;
      LOG.info("{} assigned {}", handler.name(), partitions);
    }
  }
}
