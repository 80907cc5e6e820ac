package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.ReportBucket;
import io.tasklane.scheduler.internal.ops.RelayWatch;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The raw figures one instance sends another for {@code GET /api/handlers}, {@code /api/relay} and
 * {@code /api/reports}: written as before (the JSON an instance of the earlier version reads), and
 * read back to the same figures.
 */
class ForwardedFiguresTest {
  @Test
  void handlerFiguresAreWrittenAsBeforeAndReadBack() {
    HandlerStats.Figures f = new HandlerStats.Figures();
    f.counts.put(TaskState.PENDING, 4L);
    f.counts.put(TaskState.DEAD, 1L);
    f.backlog = 2;
    f.recent.succeeded = 9;
    String bucket = Base64.getEncoder().encodeToString(f.recent.encode());
    String json = WireCodec.encodeToString(HandlerStats.Encoded.of(Map.of("mail.send", f)));
    assertThat(json)
        .isEqualTo(
            "{\"handlers\":{\"mail.send\":{\"counts\":{\"PENDING\":4,\"DEAD\":1},"
                + "\"backlog\":2,\"recent\":\""
                + bucket
                + "\"}}}");
    Map<String, HandlerStats.Figures> read =
        WireCodec.treeToValue(WireCodec.readTree(json), HandlerStats.Encoded.class).figures();
    HandlerStats.Figures back = read.get("mail.send");
    assertThat(back.counts).containsExactlyEntriesOf(f.counts);
    assertThat(back.backlog).isEqualTo(2);
    assertThat(back.recent.succeeded).isEqualTo(9);
  }

  @Test
  void relayFiguresAreWrittenAsBeforeAndReadBack() {
    Histogram lags = new Histogram(2);
    lags.recordValue(120);
    lags.recordValue(480);
    RelayWatch.Figures f = new RelayWatch.Figures(1_000L, 120L, 500L, lags);
    String json = WireCodec.encodeToString(RelayController.Encoded.of(f));
    assertThat(json)
        .isEqualTo(
            "{\"lastAdmittedAt\":1000,\"lastLagMs\":120,\"sinceMs\":500,\"lags\":\""
                + f.encodedLags()
                + "\"}");
    RelayWatch.Figures back =
        WireCodec.treeToValue(WireCodec.readTree(json), RelayController.Encoded.class).figures();
    assertThat(back.lastAdmittedAt()).isEqualTo(1_000L);
    assertThat(back.lastLagMs()).isEqualTo(120L);
    assertThat(back.sinceMs()).isEqualTo(500L);
    assertThat(back.lags().getTotalCount()).isEqualTo(2);
    assertThat(back.lags().getMaxValue()).isBetween(475L, 485L);
  }

  @Test
  void reportBucketsAreWrittenAsBeforeAndMergedBack() {
    ReportBucket b = new ReportBucket();
    b.succeeded = 3;
    b.dead = 1;
    TreeMap<Long, ReportBucket> mine = new TreeMap<>(Map.of(60_000L, b));
    String json = WireCodec.encodeToString(ReportQuery.Encoded.of(mine));
    assertThat(json)
        .isEqualTo(
            "{\"points\":[{\"start\":60000,\"bucket\":\""
                + Base64.getEncoder().encodeToString(b.encode())
                + "\"}]}");
    ReportBucket other = new ReportBucket();
    other.succeeded = 5;
    TreeMap<Long, ReportBucket> merged = new TreeMap<>(Map.of(60_000L, other));
    WireCodec.treeToValue(WireCodec.readTree(json), ReportQuery.Encoded.class).addTo(merged);
    assertThat(merged.get(60_000L).succeeded).isEqualTo(8);
    assertThat(merged.get(60_000L).dead).isEqualTo(1);
  }
}
