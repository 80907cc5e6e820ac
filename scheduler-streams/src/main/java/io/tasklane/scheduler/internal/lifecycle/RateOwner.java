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
 * to come back stand in line. An ask at {@code now} may take the slot {@code s = max(now + lead,
 * tat - (b - 1) × interval)}, {@code b} the half of the burst granted at once ({@link
 * RateSpacing#grantBurst}; the other half absorbs the workers' start jitter); {@code tat} then
 * moves to {@code max(tat, s) + interval}. So in any window of one period at most {@code permits +
 * b - 1} slots are granted, and a limit whose tasks are many gets them one interval apart. The lead
 * is {@link #LEAD_MS}, time for the answer and the dispatch to reach the worker before the slot;
 * for a task whose last grant reached it after its slot (its stream thread was behind) {@link
 * #LEAD_MS} plus that delay, {@link #MAX_LEAD_MS} at most.
 *
 * <p>A slot is granted only within {@link #HORIZON_MS} after the lead, so a change of the limit
 * reaches the slots soon and a worker holds a granted task only that long. An ask beyond it is told
 * to come back when its place in line ({@code tail}, one interval per ask, so never all at once) is
 * within the horizon. A first ask goes behind the asks told to come back; an ask that comes back
 * when told may take a slot up to a second horizon ahead, and goes to the end of the line only
 * beyond that.
 *
 * <p>Used on the stream task's thread only; the store's write and the answer go out with the stream
 * task's next commit, so a crash repeats an ask (a slot granted twice is a slot not used: fewer
 * starts, never more).
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
  static final long LEAD_MS = 300;

  /** The most a lead is raised to for a task whose last grant came too late. */
  static final long MAX_LEAD_MS = 5_000;

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
    State st = read(ask.limit());
    long nowUs = now * 1_000;
    // the task's last grant reached it late (its stream thread was behind): this one goes further
    long lead = Math.min(MAX_LEAD_MS, LEAD_MS + Math.max(0, ask.late())) * 1_000;
    long horizonUs = HORIZON_MS * 1_000;
    long interval = limit.intervalMicros();
    long slot = Math.max(nowUs + lead, st.tat - (limit.grantBurst() - 1) * interval);
    boolean behind = ask.turn() == 0 && st.tail > nowUs; // others stand in line: go last
    // An ask that comes back when told may take a slot one more horizon ahead: the asks around it
    // come back in about, not exactly, the order of their places, and one told to come back at the
    // edge of the horizon would otherwise be sent back again and again by a few intervals.
    long reach = ask.turn() == 0 ? horizonUs : 2 * horizonUs;
    if (!behind && slot <= nowUs + lead + reach) {
      write(ask.limit(), new State(Math.max(st.tat, slot) + interval, st.tail));
      long slotMs = (slot + 999) / 1_000;
      answer(ask, RateAnswer.granted(ask.id(), ask.limit(), ask.ask(), slotMs), now);
      engine.metrics().count(SchedulerEvent.RATE_GRANTED);
      return;
    }
    // Told to come back at its place in line, one interval after the last: never all at once.
    // One that came back and is still too early (asks arrive a little out of turn, or its stream
    // thread took the answer late) goes to the end of the line as well.
    long place = Math.max(st.tail, slot);
    write(ask.limit(), new State(st.tat, place + interval));
    long comeBack = place - horizonUs - lead;
    long retryAt = Math.max(now + 1, (comeBack + 999) / 1_000);
    answer(ask, RateAnswer.later(ask.id(), ask.limit(), ask.ask(), retryAt), now);
    engine.metrics().count(SchedulerEvent.RATE_LATER);
  }

  private void answer(RateAsk ask, RateAnswer answer, long now) {
    out.control(ask.routingKey(), answer, now);
  }

  private State read(String limit) {
    byte[] raw = limits.get(limit);
    if (raw == null || raw.length != 16) {
      return new State(Long.MIN_VALUE / 2, Long.MIN_VALUE / 2);
    }
    ByteBuffer b = ByteBuffer.wrap(raw);
    return new State(b.getLong(), b.getLong());
  }

  private void write(String limit, State st) {
    limits.put(limit, ByteBuffer.allocate(16).putLong(st.tat).putLong(st.tail).array());
  }

  /** A limit's state: {@code tat} and {@code tail}, microseconds. */
  private record State(long tat, long tail) {}
}
