package io.tasklane.scheduler.internal.ops;

import io.tasklane.core.ControlCommand;
import io.tasklane.core.LogText;
import io.tasklane.core.RateLimitSetting;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import io.tasklane.scheduler.HandlerDefaults;
import io.tasklane.scheduler.RateLimit;
import io.tasklane.scheduler.SchedulerException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every rate limit this scheduler knows: the configured ones ({@code limits.<name>.*}, {@code
 * handlers.<name>.rate}) and those set at run time through the API, read from the compacted {@code
 * <ns>.rate-limits} from the beginning by its own thread ({@code tasklane-rate-limits}) on every
 * instance. A limit set at run time wins over the configured one until it is removed (a tombstone).
 * Keys are a limit's name, or {@code handler/<name>} for a handler's own rate. Thread-safe: written
 * by the reader thread, read by stream threads (the limit owners) and the API.
 */
public final class RateLimitStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RateLimitStore.class);
  private static final String HANDLER = ControlCommand.RateAsk.HANDLER_LIMIT;

  /** One limit as the API shows it: what applies, what is configured, and who set it. */
  public record View(String key, RateLimit current, RateLimit configured, RateLimitSetting set) {
    /** The handler whose own rate this is, or null for a named limit. */
    public String handler() {
      return key.startsWith(HANDLER) ? key.substring(HANDLER.length()) : null;
    }
  }

  private final Map<String, HandlerDefaults> defaults;
  private final Map<String, RateLimit> limits;
  private final Map<String, RateLimitSetting> settings = new ConcurrentHashMap<>();
  private final Map<String, RateLimit> parsed = new ConcurrentHashMap<>();
  private CompactedTopicReader reader;

  /**
   * @param defaults the configured settings per handler, with their rates
   * @param limits the configured named limits
   */
  public RateLimitStore(Map<String, HandlerDefaults> defaults, Map<String, RateLimit> limits) {
    this.defaults = Map.copyOf(defaults);
    this.limits = Map.copyOf(limits);
  }

  /** The limit that applies to {@code key}: the one set at run time, else the configured one. */
  public RateLimit current(String key) {
    RateLimit set = parsed.get(key);
    return set != null ? set : configured(key);
  }

  /** The configured limit of {@code key}, or null. */
  public RateLimit configured(String key) {
    if (key.startsWith(HANDLER)) {
      HandlerDefaults d = defaults.get(key.substring(HANDLER.length()));
      return d == null ? null : d.rate();
    }
    return limits.get(key);
  }

  /** The setting made at run time for {@code key}, or null. */
  public RateLimitSetting setting(String key) {
    return settings.get(key);
  }

  /** Whether the tasks of {@code handler} that name no limit count against its own rate. */
  public boolean handlerLimited(String handler) {
    return current(HANDLER + handler) != null;
  }

  /** Every limit configured or set, by key. */
  public Map<String, View> all() {
    Map<String, View> out = new TreeMap<>();
    limits.keySet().forEach(k -> out.put(k, view(k)));
    defaults.forEach(
        (h, d) -> {
          if (d.rate() != null) {
            out.put(HANDLER + h, view(HANDLER + h));
          }
        });
    settings.keySet().forEach(k -> out.put(k, view(k)));
    return out;
  }

  /** The view of {@code key} (every part null when nothing is known of it). */
  public View view(String key) {
    return new View(key, current(key), configured(key), settings.get(key));
  }

  /** Starts reading {@code topic} with {@code clients} settings. */
  public void start(Properties clients, String topic) {
    reader = new CompactedTopicReader(clients, topic, "tasklane-rate-limits", this::apply);
    reader.start();
  }

  /** Reader thread: one record; one that does not parse is skipped with a WARN. */
  void apply(ConsumerRecord<String, byte[]> r) {
    if (r.key() == null) {
      return;
    }
    if (r.value() == null) {
      settings.remove(r.key());
      parsed.remove(r.key());
      return;
    }
    try {
      RateLimitSetting s = WireCodec.decodeRateLimitSetting(r.value());
      if (!r.key().equals(s.limit())) {
        throw new WireFormatException("keyed " + r.key() + " for limit " + s.limit());
      }
      RateLimit limit = RateLimit.parse(s.rate(), s.burst());
      parsed.put(r.key(), limit);
      settings.put(r.key(), s);
    } catch (WireFormatException | SchedulerException e) {
      LOG.warn(
          "skipping rate limit {} at offset {}: {}",
          LogText.escape(r.key()),
          r.offset(),
          LogText.escape(e.getMessage(), 1_000));
    }
  }

  @Override
  public void close() {
    if (reader != null) {
      reader.close();
    }
  }
}
