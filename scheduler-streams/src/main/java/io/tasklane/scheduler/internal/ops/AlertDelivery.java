package io.tasklane.scheduler.internal.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tasklane.core.SecretMasker;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.AlertConfig;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers alerts on its own thread ({@code tasklane-alerts}): a bounded queue that {@link
 * Alerts#raise} offers to without blocking (a full queue drops the alert, counted in {@code
 * tasklane.scheduler.alerts.dropped}), POSTs each as signed JSON ({@link AlertSignature}, one
 * delivery id per alert, a fresh timestamp per attempt) to the webhook with up to {@link #ATTEMPTS}
 * attempts and exponential backoff (a 4xx answer other than 408 and 429 is not retried; a post
 * given up is counted in {@code tasklane.scheduler.alerts.failed}), and once a second closes the
 * ended alert groups ({@link Alerts#tick}). Without a webhook URL alerts are only logged. A dead
 * receiver delays only other alerts, never the stream threads.
 */
public final class AlertDelivery implements Alerts.Sink, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AlertDelivery.class);
  static final int ATTEMPTS = 5;
  private static final long FIRST_BACKOFF_MS = 500;
  private static final long MAX_BACKOFF_MS = 10_000;

  /** One alert to post; {@code deliveryId} stays the same on each of its attempts. */
  private record Pending(Map<String, Object> payload, AlertGroup group, String deliveryId) {}

  private final AlertConfig config;
  private final Clock clock;
  private final String instance;
  private final BlockingQueue<Pending> queue;
  private final Counter dropped;
  private final Counter failed;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private volatile Alerts alerts;
  private volatile boolean running = true;
  private Thread thread;

  public AlertDelivery(AlertConfig config, Clock clock, MeterRegistry registry, String instance) {
    this.config = config;
    this.clock = clock;
    this.instance = instance;
    this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
    this.dropped =
        Counter.builder("tasklane.scheduler.alerts.dropped")
            .description("alerts dropped because the delivery queue was full")
            .register(registry);
    this.failed =
        Counter.builder("tasklane.scheduler.alerts.failed")
            .description("alert posts given up after their attempts")
            .register(registry);
  }

  /** Starts the delivery thread, which also ticks {@code alerts}. */
  public synchronized void start(Alerts alerts) {
    this.alerts = alerts;
    thread = new Thread(this::run, "tasklane-alerts");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void offer(Map<String, Object> payload, AlertGroup group) {
    if (!queue.offer(new Pending(payload, group, UUID.randomUUID().toString()))) {
      dropped.increment();
    }
  }

  private void run() {
    long nextTick = 0;
    while (running) {
      try {
        Pending p = queue.poll(200, TimeUnit.MILLISECONDS);
        if (p != null) {
          deliver(p);
        }
        long now = clock.millis();
        if (now >= nextTick) {
          alerts.tick();
          nextTick = now + 1_000;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        LOG.error("alert delivery failed", e);
      }
    }
  }

  private void deliver(Pending p) throws InterruptedException {
    if (config.webhookUrl() == null) {
      return;
    }
    long backoff = FIRST_BACKOFF_MS;
    for (int attempt = 1; attempt <= ATTEMPTS && running; attempt++) {
      String why = post(p);
      if (why == null) {
        p.group().markSent();
        return;
      }
      boolean retry = !why.startsWith("refused");
      LOG.warn(
          "alert post {} of {} (delivery {}) to {} failed: {}",
          attempt,
          ATTEMPTS,
          p.deliveryId(),
          SecretMasker.maskText(config.webhookUrl().toString()),
          SecretMasker.maskText(why));
      if (!retry) {
        break;
      }
      if (attempt < ATTEMPTS) {
        Thread.sleep(backoff);
        backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
      }
    }
    failed.increment();
  }

  /** POSTs once: null when the receiver took it, else why not ("refused ..." is final). */
  private String post(Pending p) throws InterruptedException {
    long sentAt = clock.millis();
    Map<String, Object> body = new java.util.LinkedHashMap<>(p.payload());
    body.put("instance", instance);
    body.put("sentAt", sentAt);
    body.put("sentAtIso", Instant.ofEpochMilli(sentAt).toString());
    byte[] bytes = WireCodec.encode(body);
    HttpRequest req =
        HttpRequest.newBuilder(config.webhookUrl())
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .header(AlertSignature.DELIVERY_HEADER, p.deliveryId())
            .header(AlertSignature.TIMESTAMP_HEADER, String.valueOf(sentAt))
            .header(
                AlertSignature.HEADER,
                AlertSignature.sign(config.webhookSecret(), p.deliveryId(), sentAt, bytes))
            .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
            .build();
    try {
      int status = http.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
      if (status >= 200 && status < 300) {
        return null;
      }
      boolean retryable = status >= 500 || status == 408 || status == 429;
      return (retryable ? "status " : "refused with status ") + status;
    } catch (IOException e) {
      return e.toString();
    }
  }

  @Override
  public synchronized void close() {
    running = false;
    if (thread != null) {
      thread.interrupt();
    }
  }
}
