package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.ControlCommand.RateAnswer;
import io.tasklane.core.ControlCommand.RateAsk;
import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The granting side of rate limits: the one stream task that every ask of a limit reaches (asks are
 * keyed by the limit, {@link RateAsk#key}) hands out that limit's start slots, so a limit holds
 * across every scheduler instance and partition without any share to balance.
 *
 * <p>Slots follow the generic cell rate algorithm, kept as two numbers per limit in {@link #STORE}:
 * {@code tat}, the theoretical arrival time of the next slot, and {@code tail}, where the asks told
 * to come back later stand in line. An ask at {@code now} may take the slot {@code s = max(now, tat
 * - (burst - 1) × interval)}; {@code tat} then moves to {@code max(tat, s) + interval}. So in any
 * window of one period at most {@code permits + burst - 1} slots are granted, and a limit whose
 * tasks are many gets them one interval apart. A slot is granted only within {@link #HORIZON_MS} of
 * now, so a change of the limit reaches the slots soon and a worker holds a granted task at most
 * that long; an ask beyond it is told to come back when its place in line ({@code tail}, one
 * interval per ask) is within the horizon. A first ask goes behind the asks told to come back, an
 * ask that comes back when told goes first. Used on the stream task's thread only; the store's
 * write and the answer go out with the stream task's next commit, so a crash repeats an ask (a slot
 * granted twice is a slot not used: fewer starts, never more).
 */
final class RateOwner {
  /** The store of the limits' state, by limit key: {@code tat} and {@code tail}, microseconds. */
  static final String STORE = "tasklane-rate-limits";

  /** How far beyond the lead a slot may be granted. */
  static final long HORIZON_MS = 1_000;

  /**
   * The earliest slot is this far ahead of the ask's arrival: time for the answer and the dispatch
   * to reach the worker before the slot, so that the worker starts the task at its slot and not
   * later than the next one.
   */
  static final long LEAD_MS = 200;

  private final KeyValueStore<String, byte[]> limits;
  private final Engine engine;
  private final Outputs out;

  RateOwner(ProcessorContext<String, Object> context, Engine engine, Outputs out) {
    this.limits = context.getStateStore(STORE);
    this.engine = engine;
    this.out = out;
  }

  /** The store, cached: under load an owner's many writes of one limit fold into one a commit. */
  static StoreBuilder<KeyValueStore<String, byte[]>> builder() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
            org.apache.kafka.streams.state.Stores.persistentKeyValueStore(STORE),
            Serdes.String(),
            Serdes.ByteArray())
        .withCachingEnabled();
  }

  /** Answers {@code ask}, received at {@code now}: a slot, or when to ask again. */
  void ask(RateAsk ask, long now) {
    RateSpacing limit = engine.controls().rate(ask.limit());
    if (limit == null) { // not defined here (yet): the task asks again later
      long later = now + engine.settings().noHandlerRecheckMs();
      answer(ask, RateAnswer.later(ask.id(), ask.limit(), ask.ask(), later), now);
      engine.metrics().count(SchedulerEvent.RATE_UNDEFINED);
      return;
    }
    long[] state = read(ask.limit());
    long tat = state[0];
    long tail = state[1];
    long nowUs = now * 1_000;
    long horizonUs = HORIZON_MS * 1_000;
    long interval = limit.intervalMicros();
    long slot = Math.max(nowUs + LEAD_MS * 1_000, tat - (limit.burst() - 1) * interval);
    boolean behind = ask.turn() == 0 && tail > nowUs; // others stand in line: a first ask goes last
    if (!behind && slot <= nowUs + LEAD_MS * 1_000 + horizonUs) {
      write(ask.limit(), Math.max(tat, slot) + interval, tail);
      long slotMs = (slot + 999) / 1_000;
      answer(ask, RateAnswer.granted(ask.id(), ask.limit(), ask.ask(), slotMs), now);
      engine.metrics().count(SchedulerEvent.RATE_GRANTED);
      return;
    }
    long comeBack;
    if (ask.turn() == 0) {
      long place = Math.max(tail, slot);
      write(ask.limit(), tat, place + interval);
      comeBack = place - horizonUs;
    } else {
      comeBack = slot - horizonUs; // back when told: first in line, not last
    }
    long retryAt = Math.max(now + 1, (comeBack + 999) / 1_000);
    answer(ask, RateAnswer.later(ask.id(), ask.limit(), ask.ask(), retryAt), now);
    engine.metrics().count(SchedulerEvent.RATE_LATER);
  }

  private void answer(RateAsk ask, RateAnswer answer, long now) {
    out.control(ask.routingKey(), answer, now);
  }

  private long[] read(String limit) {
    byte[] raw = limits.get(limit);
    if (raw == null || raw.length != 16) {
      return new long[] {Long.MIN_VALUE / 2, Long.MIN_VALUE / 2};
    }
    ByteBuffer b = ByteBuffer.wrap(raw);
    return new long[] {b.getLong(), b.getLong()};
  }

  private void write(String limit, long tat, long tail) {
    limits.put(limit, ByteBuffer.allocate(16).putLong(tat).putLong(tail).array());
  }
}
