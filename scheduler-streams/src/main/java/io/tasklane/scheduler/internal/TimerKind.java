package io.tasklane.scheduler.internal;

/** What a due-index entry means when its time comes. Stored as one byte in the index value. */
enum TimerKind {
  /** Dispatch a PENDING, RETRYING or NO_HANDLER task. */
  DUE((byte) 'D'),
  /** The attempt of a DISPATCHED task timed out. */
  DEADLINE((byte) 'T'),
  /** The retention of a finished task (or a cancel that came first) ended: forget it. */
  PURGE((byte) 'P');

  final byte code;

  TimerKind(byte code) {
    this.code = code;
  }

  static TimerKind of(byte code) {
    for (TimerKind k : values()) {
      if (k.code == code) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown timer kind " + code);
  }
}
