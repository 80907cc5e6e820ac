package io.tasklane.scheduler.internal.lifecycle;

/**
 * The schedules' timers in the stream task's due-index ({@link TimerKind#SCHEDULE} entries under a
 * timer id of their own, which never collides with a task id): all that the schedules may write
 * there. Task entries are written by the {@link TaskLifecycle} only. Used on the stream task's
 * thread.
 */
public interface ScheduleTimerEntries {
  /** Arms the timer {@code timerId} for {@code at}. */
  void put(long at, String timerId);

  /** Disarms the timer {@code timerId} armed for {@code at}. */
  void delete(long at, String timerId);

  /** Whether the timer {@code timerId} is armed for {@code at}. */
  boolean has(long at, String timerId);
}
