package io.tasklane.worker.internal;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.core.UnsafeReplicationException;
import io.tasklane.core.WireCodec;
import io.tasklane.core.tracing.Tracing;
import io.tasklane.worker.HandlerConfig;
import io.tasklane.worker.IdempotencyStore;
import io.tasklane.worker.WorkerConfig;
import io.tasklane.worker.WorkerException;
import io.tasklane.worker.spi.HandlerBeans;
import io.tasklane.worker.spi.WorkerMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker, without a framework: {@link #start} registers the handlers the framework adapter
 * found ({@link HandlerBeans}), creates the topics it needs, publishes the app's {@code @Recurring}
 * schedules ({@link RecurringPublisher}) and starts one {@link HandlerConsumer} per enabled
 * handler; {@link #stop} stops them within the grace period. The adapter calls {@link #start} once
 * the application has started and {@link #stop} when it closes. Lifecycle state moves NEW → RUNNING
 * → STOPPED by compare-and-set.
 */
public final class WorkerRuntime {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerRuntime.class);

  private enum State {
    NEW,
    RUNNING,
    STOPPED
  }

  private final WorkerSettings settings;
  private final HandlerRegistry registry;
  private final IdempotencyStore store;
  private final WorkerMetrics metrics;
  private final HandlerBeans beans;
  private final Clock clock;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private final List<HandlerConsumer> consumers = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final Map<String, Thread> consumerThreads = new ConcurrentSkipListMap<>();
  private ScheduledExecutorService timers;
  private Publisher publisher;
  private final RunningAttempts attempts = new RunningAttempts();
  private final List<TopicFollower> followers = new ArrayList<>();
  private Heartbeats heartbeats;
  private Tracing tracing = Tracing.off();

  /**
   * A worker of {@code settings}'s handlers among those {@code beans} lists.
   *
   * @param store {@link IdempotencyStore#NONE} without one
   * @param metrics {@link WorkerMetrics#NOOP} without a meter registry
   */
  public WorkerRuntime(
      WorkerSettings settings,
      HandlerBeans beans,
      IdempotencyStore store,
      WorkerMetrics metrics,
      Clock clock) {
    this.settings = settings;
    this.beans = beans;
    this.registry = new HandlerRegistry(beans);
    this.store = store;
    this.metrics = metrics;
    this.clock = clock;
  }

  /**
   * Registers the handlers, creates topics and starts the consumers; called once, on the
   * application's start-up thread. A malformed or duplicate handler, a bad {@code @Recurring} or
   * unreachable Kafka fails it with a {@link WorkerException}.
   */
  public synchronized void start() {
    if (!state.compareAndSet(State.NEW, State.RUNNING)) {
      return;
    }
    WorkerConfig config = settings.config();
    registry.registerAnnotated();
    TypedHandlers.scan(beans, registry::codec).forEach(registry::register);
    registerMethodCalls(config);
    List<RecurringSpec> specs = new ArrayList<>(registry.recurring());
    specs.addAll(TypedHandlers.recurring(beans));
    List<ScheduleDefinition> recurring = RecurringDefinitions.of(specs, config.recurringApp());
    List<HandlerDefinition> handlers = new ArrayList<>();
    for (HandlerDefinition h : registry.handlers()) {
      if (settings.handler(h.name()).enabled()) {
        handlers.add(h);
      }
    }
    ensureTopics(config, handlers);
    new RecurringPublisher(config, clock).publish(recurring);
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "tasklane-worker-timer");
              t.setDaemon(true);
              return t;
            });
    // every attempt arms its timeout and cancels it when it ends: a cancelled timeout leaves the
    // queue at once instead of staying in it until its instant (five minutes by default)
    timer.setRemoveOnCancelPolicy(true);
    // and a no-op every second stays at the head of the queue, so that arming a timeout (later
    // than it) does not wake the timer thread each time the queue was empty
    timer.scheduleAtFixedRate(() -> {}, 1, 1, TimeUnit.SECONDS);
    timers = timer;
    publisher =
        new Publisher(KafkaClients.producer(config), config.topics(), config.workerName(), timers);
    tracing = Tracing.fromEnvironment("io.tasklane.worker", "tasklane-worker");
    WorkerServices services =
        new WorkerServices(config, publisher, store, timers, clock, tracing, attempts);
    startInterruptListener(config);
    for (HandlerDefinition h : handlers) {
      HandlerConfig hc = settings.handler(h.name());
      HandlerConsumer c =
          new HandlerConsumer(
              h, hc, services, KafkaClients.consumer(config, h.name(), hc), metrics);
      Thread t = new Thread(c, "tasklane-consumer-" + h.name());
      consumers.add(c);
      threads.add(t);
      consumerThreads.put(h.name(), t);
      t.start();
      LOG.info(
          "worker {} consumes {} ({}, concurrency {}, max in flight {})",
          config.workerName(),
          config.topics().handler(h.name()),
          h.source(),
          hc.concurrency(),
          hc.maxInFlight());
    }
    startSettingsListener(config);
    heartbeats = new Heartbeats(config, publisher, clock, () -> consumers, attempts);
    heartbeats.start();
    LOG.info("worker {} publishes heartbeats as {}", config.workerName(), heartbeats.id());
  }

  /** Follows {@code <ns>.interrupts} from its end before any handler runs. */
  private void startInterruptListener(WorkerConfig config) {
    follow(
        config,
        config.topics().interrupts(),
        true,
        "interrupts",
        r -> {
          if (r.value() != null) {
            attempts.interrupt(WireCodec.decodeInterrupt(r.value()));
          }
        });
  }

  /**
   * Follows {@code <ns>.handler-settings} from its beginning: each handler's pool here takes the
   * operator's concurrency (or its configured one when the setting has none).
   */
  private void startSettingsListener(WorkerConfig config) {
    follow(
        config,
        config.topics().handlerSettings(),
        false,
        "settings",
        new HandlerSettingsApplier(
            (handler, n) -> {
              for (HandlerConsumer c : consumers) {
                if (c.name().equals(handler)) {
                  c.resize(n);
                }
              }
            }));
  }

  private void follow(
      WorkerConfig config,
      String topic,
      boolean fromEnd,
      String purpose,
      java.util.function.Consumer<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>>
          apply) {
    TopicFollower f =
        new TopicFollower(KafkaClients.groupless(config, purpose), topic, fromEnd, apply);
    f.assign();
    Thread t = new Thread(f, "tasklane-worker-" + purpose);
    t.setDaemon(true);
    followers.add(f);
    t.start();
  }

  /**
   * The after-commit method handler, over the allow-list of the application's @OutboxAsync methods.
   */
  private void registerMethodCalls(WorkerConfig config) {
    if (config.methodCalls() == WorkerConfig.MethodCalls.DISABLED) {
      return;
    }
    MethodCallTargets targets = MethodCallTargets.of(beans.asyncMethods(), registry::codec);
    if (MethodCallHandler.wanted(config.methodCalls(), targets)) {
      registry.register(MethodCallHandler.definition(targets));
      LOG.info("after-commit methods runnable here ({}): {}", targets.size(), targets.keys());
    }
  }

  private void ensureTopics(WorkerConfig config, List<HandlerDefinition> handlers) {
    Topics topics = config.topics();
    List<TopicAdmin.Spec> specs = new ArrayList<>();
    specs.add(TopicAdmin.Spec.of(topics.results(), TopicAdmin.DEFAULT_PARTITIONS));
    specs.add(TopicAdmin.Spec.of(topics.logs(), TopicAdmin.DEFAULT_PARTITIONS));
    specs.addAll(TopicAdmin.operatorTopics(topics));
    for (HandlerDefinition h : handlers) {
      int partitions = settings.handler(h.name()).partitions();
      specs.add(TopicAdmin.Spec.of(topics.handler(h.name()), partitions));
      specs.add(TopicAdmin.Spec.of(topics.handlerDlt(h.name()), partitions));
    }
    try (Admin admin = KafkaClients.admin(config)) {
      TopicAdmin.ensure(admin, specs, config.replication());
    } catch (UnsafeReplicationException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new WorkerException("cannot create the worker's topics: " + e.getMessage(), e);
    }
  }

  /** NEW, RUNNING or STOPPED; any thread. */
  public String state() {
    return state.get().name();
  }

  /** Each handler this worker consumes, with whether its consumer thread is alive; any thread. */
  public Map<String, Boolean> consumers() {
    Map<String, Boolean> out = new LinkedHashMap<>();
    consumerThreads.forEach((name, t) -> out.put(name, t.isAlive()));
    return out;
  }

  /**
   * Each handler this worker consumes, with whether its consumer joined its group and fetches (a
   * poll returned after its first assignment); any thread.
   */
  public Map<String, Boolean> fetching() {
    Map<String, Boolean> out = new LinkedHashMap<>();
    consumers.forEach(c -> out.put(c.name(), c.fetching()));
    return out;
  }

  /**
   * Stops fetching, lets in-flight work finish until the grace period ends, commits, closes; called
   * by the adapter when the application closes, on its closing thread. Blocks up to the grace
   * period (plus 15 s per consumer thread that does not end).
   */
  public synchronized void stop() {
    if (!state.compareAndSet(State.RUNNING, State.STOPPED)) {
      state.set(State.STOPPED);
      return;
    }
    Duration grace = settings.config().shutdownGrace();
    long deadline = System.currentTimeMillis() + grace.toMillis();
    consumers.forEach(c -> c.stop(deadline));
    for (Thread t : threads) {
      try {
        t.join(Math.max(1, deadline - System.currentTimeMillis()) + 15_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    followers.forEach(TopicFollower::stop);
    if (heartbeats != null) { // null when start failed
      heartbeats.stop(Duration.ofSeconds(5));
    }
    if (publisher != null) {
      publisher.close(Duration.ofSeconds(5));
    }
    tracing.close();
    if (timers != null) {
      timers.shutdownNow();
    }
    LOG.info("worker {} stopped", settings.config().workerName());
  }
}
