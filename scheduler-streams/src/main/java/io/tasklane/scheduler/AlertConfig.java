package io.tasklane.scheduler;

import io.tasklane.core.HandlerNames;
import io.tasklane.core.SecretMasker;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The alert rules and their delivery, {@code tasklane.scheduler.alerts.*} (docs/operations.md,
 * Reports and alerts). Immutable and validated: a bad value fails with a {@link SchedulerException}
 * naming the key and its limit. Without a webhook URL alerts are only logged, counted and listed by
 * {@code GET /api/alerts}.
 *
 * @param webhookUrl where alerts are POSTed as JSON, or null; {@code https}, or {@code http} only
 *     with {@code allowHttp}
 * @param webhookSecret the HMAC-SHA256 key of the {@code X-Tasklane-Signature} header; required
 *     with a URL, no default
 * @param allowHttp true to accept an {@code http} URL (a receiver on a trusted network)
 * @param groupWindow occurrences of one rule and key within this window after the first are sent as
 *     one summary at its end
 * @param deadHandlers handlers whose tasks going DEAD raise the {@code dead} rule; {@code *} for
 *     every handler; empty: the rule is off
 * @param queueCapacity alerts waiting for delivery; more are dropped and counted
 * @param noWorkerHandlers handlers whose tasks dispatched while the handler's consumer group has no
 *     live member raise the {@code no-worker} rule; {@code *} for every handler; empty: off
 * @param relayLag a task admitted longer than this after its {@code createdAt} (the outbox insert)
 *     raises the {@code relay-lag} rule; null: off
 * @param backlog the {@code backlog} rule: a handler's queued tasks above a threshold for a while;
 *     null: off
 */
public record AlertConfig(
    URI webhookUrl,
    String webhookSecret,
    boolean allowHttp,
    Duration groupWindow,
    List<String> deadHandlers,
    int queueCapacity,
    List<String> noWorkerHandlers,
    Duration relayLag,
    Backlog backlog) {

  public static final Duration DEFAULT_GROUP_WINDOW = Duration.ofSeconds(60);
  public static final int DEFAULT_QUEUE_CAPACITY = 1_000;

  /** Every rule off, no webhook. */
  public static final AlertConfig NONE =
      new AlertConfig(
          null, null, false, null, List.of(), DEFAULT_QUEUE_CAPACITY, List.of(), null, null);

  private static final String P = SchedulerConfig.PREFIX + ".alerts.";

  /**
   * The {@code backlog} rule: raised while more than {@code threshold} tasks of one handler have
   * waited in the scheduler's flow-control queues (due, not dispatched because the handler has
   * {@code max-dispatched} attempts out) for at least {@code sustained}, summed over the partitions
   * of one scheduler instance.
   *
   * @param threshold 1 to 100,000,000 queued tasks
   * @param sustained 1 s to 24 h; null: 1 minute
   */
  public record Backlog(long threshold, Duration sustained) {
    public Backlog {
      sustained = sustained == null ? Duration.ofMinutes(1) : sustained;
      require(
          "backlog.threshold",
          threshold >= 1 && threshold <= 100_000_000,
          threshold + " is outside 1 to 100000000");
      require(
          "backlog.for",
          sustained.compareTo(Duration.ofSeconds(1)) >= 0
              && sustained.compareTo(Duration.ofDays(1)) <= 0,
          sustained + " is outside PT1S to PT24H");
    }
  }

  public AlertConfig {
    groupWindow = groupWindow == null ? DEFAULT_GROUP_WINDOW : groupWindow;
    require(
        "group-window",
        groupWindow.compareTo(Duration.ofSeconds(1)) >= 0
            && groupWindow.compareTo(Duration.ofHours(1)) <= 0,
        groupWindow + " is outside PT1S to PT1H");
    deadHandlers = handlers("dead", deadHandlers);
    noWorkerHandlers = handlers("no-worker", noWorkerHandlers);
    require(
        "relay-lag",
        relayLag == null
            || (relayLag.compareTo(Duration.ofSeconds(1)) >= 0
                && relayLag.compareTo(Duration.ofDays(1)) <= 0),
        relayLag + " is outside PT1S to PT24H");
    require(
        "queue-capacity",
        queueCapacity >= 1 && queueCapacity <= 100_000,
        queueCapacity + " is outside 1 to 100000");
    if (webhookUrl != null) {
      String scheme =
          webhookUrl.getScheme() == null ? "" : webhookUrl.getScheme().toLowerCase(Locale.ROOT);
      require(
          "webhook.url",
          scheme.equals("https") || (scheme.equals("http") && allowHttp),
          "must be an https URL (http only with "
              + P
              + "webhook.allow-http=true), got scheme '"
              + scheme
              + "'");
      require("webhook.url", webhookUrl.getHost() != null, "has no host");
      require(
          "webhook.secret",
          webhookSecret != null,
          "is required with a webhook URL: receivers verify X-Tasklane-Signature with it ("
              + TokenStrength.HOW
              + ")");
      String weak = TokenStrength.weakness(webhookSecret);
      require(
          "webhook.secret",
          weak == null,
          "is refused, " + TokenStrength.HOW + " (it " + weak + ")");
    }
  }

  /** True when a task of {@code handler} going DEAD raises an alert. */
  public boolean deadAlerts(String handler) {
    return deadHandlers.contains("*") || deadHandlers.contains(handler);
  }

  /** True when a dispatch of {@code handler} without a live worker raises an alert. */
  public boolean noWorkerAlerts(String handler) {
    return noWorkerHandlers.contains("*") || noWorkerHandlers.contains(handler);
  }

  private static List<String> handlers(String key, List<String> handlers) {
    handlers = handlers == null ? List.of() : List.copyOf(handlers);
    for (String h : handlers) {
      require(
          key,
          h.equals("*") || HandlerNames.isValid(h),
          "'" + h + "' is neither * nor a handler name (" + HandlerNames.PATTERN.pattern() + ")");
    }
    return handlers;
  }

  /** The settings as they may be logged: the secret masked. */
  @Override
  public String toString() {
    return "AlertConfig[webhookUrl="
        + (webhookUrl == null ? "(none)" : SecretMasker.maskText(webhookUrl.toString()))
        + ", webhookSecret="
        + (webhookSecret == null ? "(none)" : SecretMasker.MASK)
        + ", allowHttp="
        + allowHttp
        + ", groupWindow="
        + groupWindow
        + ", dead="
        + deadHandlers
        + ", queueCapacity="
        + queueCapacity
        + ", noWorker="
        + noWorkerHandlers
        + ", relayLag="
        + (relayLag == null ? "(off)" : relayLag)
        + ", backlog="
        + (backlog == null ? "(off)" : backlog)
        + "]";
  }

  private static void require(String key, boolean ok, String message) {
    if (!ok) {
      throw new SchedulerException(P + key + ": " + message);
    }
  }
}
