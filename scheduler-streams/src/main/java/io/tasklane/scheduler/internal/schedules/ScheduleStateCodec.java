package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import io.tasklane.scheduler.internal.lifecycle.CompactBytes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored form of a {@link ScheduleState}: a format byte ({@link #FORMAT}), the definition as
 * JSON (null: none), then the other components as {@link CompactBytes} numbers and strings, its
 * watched fires as the fire log writes them ({@link FireLogCodec#write}). A value whose first byte is
 * {@code '{'} is a state of the earlier JSON form and is still read. A new component needs a new
 * format byte (and this one still read): {@code ScheduleStateCodecTest} fails until then.
 *
 * <p>A schedule's state is written at every fire with the same definition object, so the
 * definition's JSON is kept per thread by identity ({@link #DEFINITIONS_KEPT} of them) and not
 * encoded again. Stateless otherwise; any thread.
 */
final class ScheduleStateCodec {
  /** The format byte of this layout. */
  static final byte FORMAT = 1;

  private static final byte JSON = '{';

  /** How many encoded definitions a thread keeps before it starts over. */
  static final int DEFINITIONS_KEPT = 16_384;

  private static final ThreadLocal<Map<ScheduleDefinition, byte[]>> DEFINITIONS =
      ThreadLocal.withInitial(IdentityHashMap::new);

  private ScheduleStateCodec() {}

  static byte[] encode(ScheduleState s) {
    byte[] definition = definition(s.definition());
    CompactBytes.Writer o =
        new CompactBytes.Writer(
            48 + (definition == null ? 0 : definition.length) + 64 * s.fires().size());
    o.raw(FORMAT);
    o.blob(definition);
    o.num(s.version());
    o.bool(s.deleted());
    o.num(s.nextFireAt());
    o.num(s.lastFireAt());
    o.num(s.fires().size());
    for (FireRecord f : s.fires()) {
      FireLogCodec.write(o, f);
    }
    o.str(s.waiting());
    o.num(s.logged());
    return o.toByteArray();
  }

  private static byte[] definition(ScheduleDefinition d) {
    if (d == null) {
      return null;
    }
    Map<ScheduleDefinition, byte[]> kept = DEFINITIONS.get();
    byte[] json = kept.get(d);
    if (json == null) {
      if (kept.size() >= DEFINITIONS_KEPT) {
        kept.clear();
      }
      json = WireCodec.encode(d);
      kept.put(d, json);
    }
    return json;
  }

  /**
   * A stored state: {@link #FORMAT}, or the JSON form (first byte {@code '{'}); anything else, or a
   * value that runs short or long, is a {@link WireFormatException}.
   */
  static ScheduleState decode(byte[] bytes) {
    try {
      if (bytes.length > 0 && bytes[0] == JSON) {
        return WireCodec.mapper().readValue(bytes, ScheduleState.class);
      }
      if (bytes.length == 0 || bytes[0] != FORMAT) {
        throw new IllegalStateException(
            "unknown format " + (bytes.length == 0 ? "(empty)" : String.valueOf(bytes[0])));
      }
      CompactBytes.Reader in = new CompactBytes.Reader(bytes, 1);
      ScheduleDefinition definition = in.json(ScheduleDefinition.class);
      long version = in.num();
      boolean deleted = in.bool();
      long nextFireAt = in.num();
      long lastFireAt = in.num();
      int n = in.count();
      List<FireRecord> fires = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        fires.add(FireLogCodec.read(in));
      }
      String waiting = in.str();
      int logged = in.integer();
      if (!in.atEnd()) {
        throw new IllegalStateException("bytes left after the state");
      }
      return new ScheduleState(
          definition, version, deleted, nextFireAt, lastFireAt, fires, waiting, logged);
    } catch (IOException | RuntimeException e) {
      throw new WireFormatException("corrupt schedule in store: " + e.getMessage(), e);
    }
  }
}
