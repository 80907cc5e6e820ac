package io.tasklane.scheduler.internal.ops;

import io.tasklane.core.HandlerSetting;
import io.tasklane.core.LogText;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import io.tasklane.scheduler.HandlerDefaults;
import io.tasklane.scheduler.RateLimit;
import io.tasklane.scheduler.internal.lifecycle.HandlerControls;
import io.tasklane.scheduler.internal.lifecycle.LanePolicy;
import io.tasklane.scheduler.internal.lifecycle.RateSpacing;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latest {@link HandlerSetting} of every handler, read from the compacted {@code
 * <ns>.handler-settings} from the beginning by its own thread ({@code tasklane-handler-settings},
 * {@link CompactedTopicReader}), on every instance, so every partition's dispatcher sees a pause.
 * Thread-safe: written by the reader thread, read by stream threads and the API.
 */
public final class HandlerSettingsStore implements HandlerControls, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HandlerSettingsStore.class);

  private final Map<String, HandlerSetting> settings = new ConcurrentHashMap<>();
  private final Map<String, HandlerDefaults> defaults;
  private final RateLimitStore rates;
  private CompactedTopicReader reader;

  /** A store without configured lane settings. */
  public HandlerSettingsStore() {
    this(Map.of());
  }

  /**
   * @param defaults the configured lane settings per handler ({@code handlers.<name>.*}), used
   *     where an operator's setting leaves them out
   */
  public HandlerSettingsStore(Map<String, HandlerDefaults> defaults) {
    this(defaults, Map.of());
  }

  /**
   * @param defaults as {@link #HandlerSettingsStore(Map)}, and each handler's configured rate
   * @param limits the configured named rate limits ({@code limits.<name>.*})
   */
  public HandlerSettingsStore(
      Map<String, HandlerDefaults> defaults, Map<String, RateLimit> limits) {
    this.defaults = Map.copyOf(defaults);
    this.rates = new RateLimitStore(defaults, limits);
  }

  /** The limit set at run time ({@code <ns>.rate-limits}), else the configured one. */
  @Override
  public RateSpacing rate(String limit) {
    RateLimit rate = rates.current(limit);
    return rate == null ? null : new RateSpacing(rate.intervalMicros(), rate.burst());
  }

  @Override
  public boolean handlerLimited(String handler) {
    return rates.handlerLimited(handler);
  }

  /** Every rate limit, configured and set at run time. */
  public RateLimitStore rates() {
    return rates;
  }

  /** Starts reading {@code topic} with {@code clients} settings. */
  public void start(Properties clients, String topic) {
    reader = new CompactedTopicReader(clients, topic, "tasklane-handler-settings", this::apply);
    reader.start();
  }

  /** Reader thread: one record. */
  void apply(ConsumerRecord<String, byte[]> r) {
    if (r.key() == null) {
      return;
    }
    if (r.value() == null) {
      settings.remove(r.key());
      return;
    }
    try {
      HandlerSetting s = WireCodec.decodeHandlerSetting(r.value());
      if (r.key().equals(s.handler())) {
        settings.put(r.key(), s);
      } else {
        LOG.warn(
            "skipping handler setting keyed {} for handler {}",
            LogText.escape(r.key()),
            LogText.escape(s.handler()));
      }
    } catch (WireFormatException e) {
      LOG.warn(
          "skipping handler setting {} at offset {}: {}",
          LogText.escape(r.key()),
          r.offset(),
          LogText.escape(e.getMessage(), 1_000));
    }
  }

  @Override
  public boolean paused(String handler) {
    HandlerSetting s = settings.get(handler);
    return s != null && s.paused();
  }

  @Override
  public int maxPerKey(String handler) {
    Integer n = effective(handler).maxPerKey();
    return n == null ? UNLIMITED : n;
  }

  /** From the configuration ({@code handlers.<name>.weights}); not changed at run time. */
  @Override
  public int weight(String handler, String key) {
    HandlerDefaults d = defaults.get(handler);
    return d == null ? 1 : d.weight(key);
  }

  @Override
  public LanePolicy onDead(String handler) {
    return "SKIP".equals(effective(handler).onDead()) ? LanePolicy.SKIP : LanePolicy.BLOCK;
  }

  /**
   * The setting of {@code handler} as dispatch obeys it: the operator's lane settings, else the
   * configured ones; {@code maxPerKey} null when there is no limit, {@code onDead} never null.
   */
  public HandlerSetting effective(String handler) {
    HandlerSetting s = get(handler);
    HandlerDefaults d = defaults.getOrDefault(handler, HandlerDefaults.NONE);
    Integer perKey = s.maxPerKey() == null ? d.maxPerKey() : s.maxPerKey();
    String dead = s.onDead() != null ? s.onDead() : d.onDead() != null ? d.onDead() : "BLOCK";
    return s.withLanes(
        perKey == null || perKey == HandlerSetting.NO_LIMIT ? null : perKey,
        dead,
        s.updatedAt(),
        s.actor());
  }

  /** The operator's setting of {@code handler} (the defaults when nobody changed it). */
  public HandlerSetting get(String handler) {
    return settings.getOrDefault(handler, HandlerSetting.defaults(handler));
  }

  /** Every handler with a setting, by name. */
  public Map<String, HandlerSetting> all() {
    return new TreeMap<>(settings);
  }

  @Override
  public void close() {
    rates.close();
    if (reader != null) {
      reader.close();
    }
  }
}
