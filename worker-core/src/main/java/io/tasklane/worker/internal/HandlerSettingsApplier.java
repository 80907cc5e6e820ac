package io.tasklane.worker.internal;

import io.tasklane.core.HandlerSetting;
import io.tasklane.core.LogText;
import io.tasklane.core.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one record of {@code <ns>.handler-settings} to this worker's pools (thread {@code
 * tasklane-worker-settings}): the handler's pool takes the setting's concurrency, or its configured
 * one for a setting without concurrency or a tombstone. A setting whose concurrency is outside 1 to
 * {@link HandlerSetting#MAX_CONCURRENCY} (only a forged or hand-written record has one) is skipped
 * with a WARN and the pool keeps its size; the next records are applied as usual.
 */
final class HandlerSettingsApplier implements Consumer<ConsumerRecord<byte[], byte[]>> {
  private static final Logger LOG = LoggerFactory.getLogger(HandlerSettingsApplier.class);

  private final BiConsumer<String, Integer> resize;

  /** {@code resize} gets the handler name and its new concurrency (null: configured). */
  HandlerSettingsApplier(BiConsumer<String, Integer> resize) {
    this.resize = resize;
  }

  @Override
  public void accept(ConsumerRecord<byte[], byte[]> r) {
    HandlerSetting s = r.value() == null ? null : WireCodec.decodeHandlerSetting(r.value());
    String handler =
        s != null
            ? s.handler()
            : r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
    if (handler == null) {
      return;
    }
    Integer n = s == null ? null : s.concurrency();
    if (n != null && (n < 1 || n > HandlerSetting.MAX_CONCURRENCY)) {
      LOG.warn(
          "skipping handler setting keyed {} at {}-{}@{}: concurrency {} of handler {} is outside"
              + " 1 to {}; its pools keep their size",
          LogText.escape(r.key()),
          r.topic(),
          r.partition(),
          r.offset(),
          n,
          LogText.escape(handler),
          HandlerSetting.MAX_CONCURRENCY);
      return;
    }
    resize.accept(handler, n);
  }
}
