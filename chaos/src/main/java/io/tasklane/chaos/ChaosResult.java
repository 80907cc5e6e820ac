package io.tasklane.chaos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.WireCodec;
import java.util.List;
import java.util.Map;

/**
 * The verdict of a chaos run.
 *
 * @param cycles kill -9 cycles carried out
 * @param tasks tasks known to be committed (including probes and ambiguous commits found in the
 *     outbox)
 * @param lost committed tasks without an effect row after the drain
 * @param duplicateEffects task ids with more than one effect row
 * @param duplicateDeliveries deliveries absorbed by the idempotency store, as seen on the results
 *     topic (results beyond the first for the same task id and attempt)
 * @param lostFires fires of the 1-second schedule the scheduler made that have no effect row
 * @param duplicateFires effect rows or tasks beyond the first per fire instant of that schedule
 * @param earlyFires its fires whose handler started before the fire instant
 * @param misfiresOutsideFaults its fires skipped by the misfire policy at a time when no scheduler
 *     was killed and the broker was up (the policy may only skip fires a fault made late)
 * @param orderedTasks committed tasks with an ordering key
 * @param orderViolations ordered tasks that took effect, or had a run start, before the task of
 *     their lane before them took effect
 * @param overlaps pairs of runs of different tasks of one lane that overlapped in time
 * @param maxRecoveryS longest time from a fault to the first task committed after it taking effect
 * @param faults one line per fault: what, which process, recovery seconds
 * @param notes anything odd (unexpected process exits, load errors, drain timeout)
 */
public record ChaosResult(
    int cycles,
    long tasks,
    long lost,
    long duplicateEffects,
    long duplicateDeliveries,
    long lostFires,
    long duplicateFires,
    long earlyFires,
    long misfiresOutsideFaults,
    long orderedTasks,
    long orderViolations,
    long overlaps,
    double maxRecoveryS,
    List<String> faults,
    List<String> notes,
    Map<String, Object> extra) {

  /**
   * lost = 0, no effect written twice, every schedule fire ran once, never early, and was only
   * skipped during a fault, every ordered lane ran its tasks one at a time and in order, and no key
   * unique until its task ends got a second task while the first was pending or running, and no
   * second saw more starts of the rate-limited tasks than their limit's rate + burst, and every
   * committed batch's callback ran once, counted every member and started after them.
   */
  public boolean passed() {
    return lost == 0
        && duplicateEffects == 0
        && lostFires == 0
        && duplicateFires == 0
        && earlyFires == 0
        && misfiresOutsideFaults == 0
        && orderViolations == 0
        && overlaps == 0
        && ((Number) extra.getOrDefault("topics_not_rf3_min_isr2", 0)).intValue() == 0
        && ((Number) extra.getOrDefault("unique_overlaps", 0L)).longValue() == 0
        && ((Number) extra.getOrDefault("unique_keys_retaken_after_drain", 0L)).longValue()
            == ((Number) extra.getOrDefault("unique_keys", 0L)).longValue()
        && ((Number) extra.getOrDefault("rate_over_limit", 0L)).longValue() == 0
        && ((Number) extra.getOrDefault("batch_violations", 0L)).longValue() == 0;
  }

  /** results.json: the verdict's fields, then the details. */
  public String toJson() {
    ObjectNode n = WireCodec.mapper().createObjectNode();
    n.put("cycles", cycles);
    n.put("tasks", tasks);
    n.put("lost", lost);
    n.put("duplicate_effects", duplicateEffects);
    n.put("ordered_tasks", orderedTasks);
    n.put("order_violations", orderViolations);
    n.put("overlaps", overlaps);
    n.put("duplicate_deliveries", duplicateDeliveries);
    n.put("schedule_fires_lost", lostFires);
    n.put("schedule_fires_duplicate", duplicateFires);
    n.put("schedule_fires_early", earlyFires);
    n.put("schedule_misfires_outside_faults", misfiresOutsideFaults);
    n.put("max_recovery_s", Math.round(maxRecoveryS * 10) / 10.0);
    n.put("passed", passed());
    n.set("faults", WireCodec.mapper().valueToTree(faults));
    n.set("notes", WireCodec.mapper().valueToTree(notes));
    n.set("details", WireCodec.mapper().valueToTree(extra));
    try {
      return WireCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(n);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new ChaosException("cannot write the results", e);
    }
  }
}
