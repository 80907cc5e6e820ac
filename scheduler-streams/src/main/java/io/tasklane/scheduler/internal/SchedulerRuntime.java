package io.tasklane.scheduler.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.env.Environment;
import io.micronaut.core.annotation.Internal;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import io.tasklane.core.ReplicationCheck;
import io.tasklane.core.TopicReplication;
import io.tasklane.core.Topics;
import io.tasklane.core.tracing.Tracing;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.internal.api.InterInstance;
import io.tasklane.scheduler.internal.api.InterInstanceClient;
import io.tasklane.scheduler.internal.lifecycle.Engine;
import io.tasklane.scheduler.internal.lifecycle.EngineSettings;
import io.tasklane.scheduler.internal.lifecycle.TaskMemory;
import io.tasklane.scheduler.internal.lifecycle.TaskSpans;
import io.tasklane.scheduler.internal.ops.AlertDelivery;
import io.tasklane.scheduler.internal.ops.Alerts;
import io.tasklane.scheduler.internal.ops.HandlerLag;
import io.tasklane.scheduler.internal.ops.HandlerSettingsStore;
import io.tasklane.scheduler.internal.ops.MicrometerMetrics;
import io.tasklane.scheduler.internal.ops.RecordSender;
import io.tasklane.scheduler.internal.ops.StandbyLag;
import io.tasklane.scheduler.internal.ops.TopicWatcher;
import io.tasklane.scheduler.internal.ops.WorkerGroupWatcher;
import io.tasklane.scheduler.internal.ops.WorkerRegistry;
import io.tasklane.scheduler.internal.topology.TopologyFactory;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the running scheduler: validates the config and the topics when the context starts (failing
 * the start when they are wrong), creates the Kafka clients and the services around them, starts
 * Kafka Streams once the HTTP server knows its port ({@code application.server}), and closes
 * everything on shutdown. It hands nothing out itself: {@link SchedulerServices} gives each
 * controller and health indicator the services it uses. Created on the context's startup thread;
 * started on the server's startup thread; checks the partition counts on its timer thread.
 */
@Context
@Internal
public final class SchedulerRuntime {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulerRuntime.class);

  // The services below are handed to the rest of the scheduler by SchedulerServices only.
  final SchedulerConfig config;
  final Topics topics;
  private final Admin admin;
  final TopicWatcher watcher;
  final WorkerGroupWatcher workers;
  final WorkerRegistry workerRegistry;
  final HandlerSettingsStore handlerSettings;
  final HandlerLag lag;
  private final MicrometerMetrics metrics;
  private final KafkaProducer<String, byte[]> producer;
  final RecordSender sender;
  private final ScheduledExecutorService timer;
  private final Tracing tracing;
  final LocalStreams local = new LocalStreams();
  private final int partitions; // of tasks, results, control and dependencies
  private final TopicReplication.Resolved replication;

  /** {@code micronaut.server.host}: the HTTP server's bind address, null for every interface. */
  private final String bindHost;

  /** How forwarded reads reach the other instances (http or https) and the token they carry. */
  final InterInstanceClient interInstanceClient;

  /** The alert rules' groups ({@code GET /api/alerts}) and their webhook delivery. */
  final Alerts alerts;

  private final AlertDelivery delivery;

  SchedulerRuntime(Environment env, MeterRegistry registry) {
    this.config = ConfigLoader.load(env);
    this.handlerSettings = new HandlerSettingsStore(config.handlers(), config.limits());
    LOG.info("tasklane scheduler configuration: {}", config);
    String interInstanceToken = InterInstance.token(config);
    this.bindHost = env.getProperty("micronaut.server.host", String.class).orElse(null);
    this.interInstanceClient =
        InterInstanceClient.create(
            env.getProperty("micronaut.server.ssl.enabled", Boolean.class).orElse(false),
            config.interInstanceTrustStore(),
            interInstanceToken);
    this.topics = new Topics(config.namespace());
    this.admin = Admin.create(StreamsProps.clients(config));
    try {
      this.replication = ReplicationCheck.resolve(admin, config.replication());
      LOG.info(
          "topics replicated {} times, min.insync.replicas {}, on a cluster of {} broker(s)",
          replication.factor(),
          replication.minInsyncReplicas(),
          replication.brokers());
      this.partitions = TopicSetup.ensure(admin, config, topics, replication);
    } catch (RuntimeException e) {
      admin.close(Duration.ofSeconds(5));
      throw e;
    }
    this.watcher =
        new TopicWatcher(admin, topics, config.partitions(), replication, config.applicationId());
    watcher.refresh();
    watcher.registerGauge(registry);
    this.workerRegistry =
        new WorkerRegistry(java.time.Clock.systemUTC(), config.workerLostHeartbeats());
    this.workers =
        new WorkerGroupWatcher(
            admin,
            topics,
            config.workerGroupPrefix(),
            java.time.Clock.systemUTC(),
            config.topicRefreshInterval().multipliedBy(3),
            workerRegistry::allHold);
    workerRegistry.start(StreamsProps.clients(config), topics.workers());
    handlerSettings.start(StreamsProps.clients(config), topics.handlerSettings());
    handlerSettings.rates().start(StreamsProps.clients(config), topics.rateLimits());
    this.lag = new HandlerLag(admin, config.workerGroupPrefix(), java.time.Clock.systemUTC());
    this.metrics = new MicrometerMetrics(registry, local::streams);
    this.delivery =
        new AlertDelivery(
            config.alerts(), java.time.Clock.systemUTC(), registry, config.applicationId());
    this.alerts =
        new Alerts(config.alerts(), java.time.Clock.systemUTC(), registry, delivery, workers);
    this.tracing = Tracing.fromEnvironment("io.tasklane.scheduler", "tasklane-scheduler");
    this.producer =
        new KafkaProducer<>(
            StreamsProps.producer(config), new StringSerializer(), new ByteArraySerializer());
    this.sender = new RecordSender(producer);
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "tasklane-topic-watcher");
              t.setDaemon(true);
              return t;
            });
  }

  @EventListener
  void onStartup(ServerStartupEvent event) {
    start(event.getSource().getPort());
  }

  synchronized void start(int httpPort) {
    if (local.streams() != null) {
      return;
    }
    HostInfo self = new HostInfo(AdvertisedHost.of(config, bindHost), httpPort);
    local.self(self);
    EngineSettings settings = StreamsProps.engine(config, partitions);
    Engine engine =
        new Engine(
            topics,
            settings,
            watcher,
            metrics,
            ThreadLocalRandom::current,
            new TaskMemory.Shared(alerts),
            workers,
            new TaskSpans(tracing),
            handlerSettings,
            System::nanoTime);
    Properties props = StreamsProps.streams(config, self, metrics);
    StreamsProps.replication(props, replication);
    KafkaStreams s = new KafkaStreams(TopologyFactory.build(engine), props);
    s.setUncaughtExceptionHandler(
        e -> {
          LOG.error("stream thread failed; replacing it", e);
          return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
    s.setStateListener(
        (now, before) -> {
          LOG.info("kafka streams {} -> {}", before, now);
          local.state(now);
        });
    local.streams(s);
    metrics.bindStreams(s);
    StandbyLag standbyLag = new StandbyLag();
    s.setStandbyUpdateListener(standbyLag);
    metrics.bindStandbyLag(standbyLag);
    delivery.start(alerts);
    s.start();
    long every = config.topicRefreshInterval().toMillis();
    timer.scheduleWithFixedDelay(watcher::refresh, every, every, TimeUnit.MILLISECONDS);
    timer.scheduleWithFixedDelay(this::checkPartitions, every, every, TimeUnit.MILLISECONDS);
    timer.scheduleWithFixedDelay(workers::refresh, 0, every, TimeUnit.MILLISECONDS);
    LOG.info(
        "tasklane scheduler started: application {} namespace {} api {}",
        config.applicationId(),
        config.namespace(),
        self);
  }

  /**
   * On the timer thread: stops Kafka Streams (logged at ERROR, {@code /health} DOWN with the
   * reason) when tasks, results, control or dependencies no longer have the partition count the
   * scheduler started with.
   */
  private void checkPartitions() {
    try {
      String reason =
          local.haltReason() == null
              ? CoPartitioning.changed(TopicSetup.partitionCounts(admin, topics, 0), partitions)
              : null;
      if (reason != null) {
        local.halted(reason);
        LOG.error("tasklane scheduler stopped: {}", reason);
        KafkaStreams s = local.streams();
        if (s != null) {
          s.close(Duration.ofSeconds(30));
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("could not check the partition counts: {}", e.toString());
    }
  }

  @PreDestroy
  void close() {
    timer.shutdownNow();
    workerRegistry.close();
    handlerSettings.close();
    KafkaStreams s = local.streams();
    if (s != null) {
      s.close(Duration.ofSeconds(30));
    }
    delivery.close();
    producer.close(Duration.ofSeconds(5));
    admin.close(Duration.ofSeconds(5));
    tracing.close(); // after Kafka Streams: the last dispatches' spans are flushed
  }
}
