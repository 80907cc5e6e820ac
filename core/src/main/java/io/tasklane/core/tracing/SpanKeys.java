package io.tasklane.core.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.tasklane.core.ReservedHeaders;
import java.util.Map;

/**
 * The attributes every Tasklane span carries (OpenTelemetry's messaging semantic conventions plus
 * {@code tasklane.*}), and the reading of a task's W3C {@code traceparent} header into a parent
 * context. Stateless; used from any thread.
 */
public final class SpanKeys {
  public static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
  public static final AttributeKey<String> DESTINATION =
      AttributeKey.stringKey("messaging.destination.name");
  public static final AttributeKey<String> OPERATION_TYPE =
      AttributeKey.stringKey("messaging.operation.type");
  public static final AttributeKey<String> OPERATION_NAME =
      AttributeKey.stringKey("messaging.operation.name");
  public static final AttributeKey<String> KEY =
      AttributeKey.stringKey("messaging.kafka.message.key");
  public static final AttributeKey<String> PARTITION =
      AttributeKey.stringKey("messaging.destination.partition.id");
  public static final AttributeKey<Long> OFFSET = AttributeKey.longKey("messaging.kafka.offset");
  public static final AttributeKey<String> TASK_ID = AttributeKey.stringKey("tasklane.task.id");
  public static final AttributeKey<String> HANDLER = AttributeKey.stringKey("tasklane.handler");
  public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("tasklane.attempt");

  /** The header (and task header) carrying a W3C trace context. */
  public static final String TRACEPARENT = ReservedHeaders.TRACEPARENT;

  private static final TextMapGetter<Map<String, String>> MAP_GETTER =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
          return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
          return carrier == null ? null : carrier.get(key);
        }
      };

  private SpanKeys() {}

  /**
   * The context named by the {@code traceparent} entry of {@code headers}, under the root context;
   * the root context itself when there is none or it does not parse.
   */
  public static Context parentOf(Map<String, String> headers) {
    return W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, MAP_GETTER);
  }
}
