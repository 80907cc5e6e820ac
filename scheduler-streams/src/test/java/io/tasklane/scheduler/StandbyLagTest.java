package io.tasklane.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.Topics;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances with one standby replica each: the standby gauges show the changelog partitions a
 * standby updates and how far behind it is, which falls to 0 once it has read what the active
 * instance wrote (the figure to watch before taking an instance down).
 */
@TasklaneStack
class StandbyLagTest {
  static final String HANDLER = "standby.lag";
  static final Pattern PARTITIONS =
      Pattern.compile("(?m)^tasklane_scheduler_standby_partitions (\\S+)$");
  static final Pattern LAG = Pattern.compile("(?m)^tasklane_scheduler_standby_lag (\\S+)$");

  @TempDir Path stateDir;

  private Map<String, Object> config(LocalStack stack, Topics topics, String name) {
    Map<String, Object> p = StackSupport.instanceConfig(stack, topics, stateDir, name, 2);
    p.put("tasklane.scheduler.num-standby-replicas", 1);
    p.put("tasklane.scheduler.api.tokens", "viewer:" + StackSupport.VIEWER + ":viewer");
    return p;
  }

  private static double gauge(EmbeddedServer s, Pattern p) throws Exception {
    HttpResponse<String> r = StackSupport.get(s.getPort(), "/prometheus", StackSupport.VIEWER);
    assertThat(r.statusCode()).isEqualTo(200);
    Matcher m = p.matcher(r.body());
    assertThat(m.find()).as(p + " in /prometheus").isTrue();
    return Double.parseDouble(m.group(1));
  }

  @Test
  void aStandbyShowsItsChangelogPartitionsAndCatchesUpToLagZero(LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 2));
    try (EmbeddedServer a =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "a"));
        EmbeddedServer b =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "b"));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      for (int i = 0; i < 2_000; i++) {
        StackSupport.send(
            producer, topics, StackSupport.task(HANDLER, System.currentTimeMillis() + 3_600_000));
      }
      producer.flush();
      // Every changelog partition has one standby, on the instance that is not its active: with
      // two instances the standby partitions add up to the stores × partitions, each instance
      // holding some, and the lag they report falls to 0 once the load has been read.
      await()
          .atMost(Duration.ofSeconds(120))
          .untilAsserted(
              () -> {
                double pa = gauge(a, PARTITIONS);
                double pb = gauge(b, PARTITIONS);
                assertThat(pa).isPositive();
                assertThat(pb).isPositive();
                assertThat(gauge(a, LAG) + gauge(b, LAG)).isZero();
              });
    }
  }
}
