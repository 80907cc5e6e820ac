package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;

/**
 * Exclusive use of a stack's base dir by this JVM (a file lock, released when the JVM dies) and
 * removal of what a killed run left there. Used by the thread that starts or closes the stack.
 */
public final class StackDir implements AutoCloseable {

  private final StackLayout layout;
  private final FileChannel channel;
  private final FileLock lock;

  private StackDir(StackLayout layout, FileChannel channel, FileLock lock) {
    this.layout = layout;
    this.channel = channel;
    this.lock = lock;
  }

  /** Locks the base dir; empty if another live JVM holds it. */
  public static Optional<StackDir> tryLock(StackLayout layout) throws IOException {
    Files.createDirectories(layout.baseDir());
    FileChannel channel =
        FileChannel.open(layout.lockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (java.nio.channels.OverlappingFileLockException e) {
      lock = null; // held by this very JVM (another LocalStack on the same dir)
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      channel.close();
      return Optional.empty();
    }
    return Optional.of(new StackDir(layout, channel, lock));
  }

  /** Locks the base dir or fails naming it. */
  public static StackDir lock(StackLayout layout) throws IOException {
    return tryLock(layout)
        .orElseThrow(
            () ->
                new LocalStackException(
                    "stack dir " + layout.baseDir() + " is in use by another JVM (lock held)"));
  }

  /**
   * Stops servers that a killed run started from THIS dir: the pid in the pid file or any process
   * whose command line names our datadir / server.properties. Other servers are never touched.
   *
   * @return how many stale processes were stopped
   */
  public int stopStaleProcesses() throws IOException {
    int stopped = 0;
    for (ProcessHandle p :
        Processes.findOurs(
            layout.kafkaProperties().toString(), Processes.readPidFile(layout.kafkaPidFile()))) {
      Processes.stop(p, Duration.ofSeconds(10));
      stopped++;
    }
    for (ProcessHandle p :
        Processes.findOurs(
            layout.mariaDbMarker(), Processes.readPidFile(layout.mariaDbPidFile()))) {
      Processes.stop(p, Duration.ofSeconds(20));
      stopped++;
    }
    stopped += ClusterProcesses.stopAll(layout.kafkaClusterDir(), Duration.ofSeconds(10));
    Files.deleteIfExists(layout.kafkaPidFile());
    Files.deleteIfExists(layout.mariaDbPidFile());
    Files.deleteIfExists(layout.socket());
    return stopped;
  }

  public StackLayout layout() {
    return layout;
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
