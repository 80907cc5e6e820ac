package io.tasklane.scheduler.internal.lifecycle;

import java.util.Map;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.WindowStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The report stores of one stream task and the moments the figures its {@link ReportRecorder}
 * gathered are merged into them: once a second, and when the stream task closes. Owned by its
 * {@link TaskStore}, used on the stream task's thread only.
 */
final class ReportStores {
  private static final Logger LOG = LoggerFactory.getLogger(ReportStores.class);
  private final TaskId taskId;
  private final Map<ReportGrain, WindowStore<String, byte[]>> stores;
  private boolean segmentsOpen;

  ReportStores(ProcessingContext context) {
    this.taskId = context.taskId();
    this.stores = ReportRecorder.stores(context);
  }

  /**
   * The stream task's clock is known ({@code now}, its first tick or record): opens the stores'
   * current segments, once ({@link ReportSegments}).
   */
  void opened(long now) {
    if (segmentsOpen) {
      return;
    }
    segmentsOpen = true;
    try {
      ReportSegments.open(stores, now);
    } catch (RuntimeException e) {
      LOG.debug("report segments of {} not opened ahead: {}", taskId, e.toString());
    }
  }

  /**
   * The stream task closes (moved, crashed or shut down): the figures not yet merged are merged
   * (best effort).
   */
  void closed(ReportRecorder recorder) {
    try {
      recorder.closed(taskId);
      recorder.flush(0, true, stores);
    } catch (RuntimeException e) {
      LOG.debug("report figures of {} not merged at close: {}", taskId, e.toString());
    }
  }

  /** Merges the figures and hands the queued counts to the backlog rule (punctuator, 1/s). */
  void tick(TaskMemory memory, long now) {
    memory.reports.flush(now, false, stores);
    memory.reports.backlog(taskId, memory.load, now);
  }
}
