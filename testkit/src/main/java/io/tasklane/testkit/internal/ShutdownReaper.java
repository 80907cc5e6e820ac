package io.tasklane.testkit.internal;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Kills registered child processes from a JVM shutdown hook, so that an interrupted test JVM does
 * not leave servers behind. Thread-safe; {@link #register} and {@link #unregister} may be called
 * from any thread.
 */
public final class ShutdownReaper {

  private static final Set<ProcessHandle> PROCESSES = ConcurrentHashMap.newKeySet();
  private static final AtomicBoolean INSTALLED = new AtomicBoolean();
  private static final Duration GRACE = Duration.ofSeconds(5);

  private ShutdownReaper() {}

  /** Registers a process to be killed (with its descendants) when this JVM exits. */
  public static void register(ProcessHandle process) {
    if (INSTALLED.compareAndSet(false, true)) {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(ShutdownReaper::killAll, "tasklane-stack-reaper"));
    }
    PROCESSES.add(process);
  }

  /** Forgets a process that was stopped normally. */
  public static void unregister(ProcessHandle process) {
    PROCESSES.remove(process);
  }

  private static void killAll() {
    List<ProcessHandle> alive = PROCESSES.stream().filter(ProcessHandle::isAlive).toList();
    List<ProcessHandle> all =
        alive.stream()
            .flatMap(
                p -> java.util.stream.Stream.concat(java.util.stream.Stream.of(p), p.descendants()))
            .toList();
    alive.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + GRACE.toNanos();
    for (ProcessHandle p : alive) {
      long left = Math.max(0, deadline - System.nanoTime());
      Processes.awaitExit(p, Duration.ofNanos(left));
    }
    all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }
}
