package io.tasklane.scheduler.internal.lifecycle;

/** What a due-index entry means when its time comes. Stored as one byte in the index value. */
public enum TimerKind {
  /** Dispatch a PENDING, RETRYING or NO_HANDLER task. */
  DUE((byte) 'D'),
  /** The attempt of a DISPATCHED task timed out. */
  DEADLINE((byte) 'T'),
  /** The retention of a finished task (or a cancel that came first) ended: forget it. */
  PURGE((byte) 'P'),
  /**
   * Due, but its handler already has {@code max-dispatched} attempts out in this partition: waits
   * in the handler's queue (a key range of the due-index, see {@link DueIndexKey#queued}) until a
   * result frees a slot. Never fires by time.
   */
  QUEUED((byte) 'Q'),
  /**
   * The next fire of a recurring schedule: the entry's id is {@code ScheduleStore#TIMER_PREFIX} and
   * the schedule's name, and its time the fire instant ({@code ScheduleMachine#fire}).
   */
  SCHEDULE((byte) 'S'),
  /**
   * A task's wait timeout passes ({@link WaitTimers}): the entry's id is {@link WaitTimers#PREFIX}
   * and the task id, its time the task's due time plus its wait timeout. Beside the task's own
   * timer, never instead of it.
   */
  WAIT((byte) 'W'),
  /**
   * Due, and waiting in its lane ({@link Lanes}): the timer's time is the task's place in the lane
   * (not a time), its entry a waiting key of the lanes store. Never fires by time.
   */
  LANE((byte) 'L'),
  /**
   * Due, and waiting for a start slot of its rate limit ({@link RateGate}): the timer's time is
   * when the task asks again (the current ask's token, see {@link RateGate#current}).
   */
  RATE((byte) 'R');

  public final byte code;

  TimerKind(byte code) {
    this.code = code;
  }

  /**
   * Whether a task's timer of this kind is a due-index entry: not a deadline (held in memory,
   * {@link DeadlineTimers}) nor a place in a queue (the task's search entry, {@link TaskIndexKey}).
   */
  boolean inDueIndex() {
    return this != DEADLINE && this != QUEUED && this != LANE;
  }

  /**
   * {@link #values()} once: that method copies the array at every call (once per decoded record).
   */
  private static final TimerKind[] KINDS = values();

  static TimerKind of(byte code) {
    for (TimerKind k : KINDS) {
      if (k.code == code) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown timer kind " + code);
  }
}
