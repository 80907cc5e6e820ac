package io.tasklane.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.SchedulerConfig;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdvertisedHostTest {
  private static SchedulerConfig config(String advertised) {
    return SchedulerConfig.builder()
        .bootstrapServers("127.0.0.1:9092")
        .apiTokens(
            List.of(
                new ApiToken(
                    "ops", io.tasklane.scheduler.Tokens.random(), SchedulerConfig.Role.VIEWER)))
        .advertisedHost(advertised)
        .build();
  }

  @Test
  void withoutABindAddressTheDefaultIsAnAddressOtherHostsCanReachNotLoopback() throws Exception {
    String host = AdvertisedHost.detect(); // this machine has a network interface (eth0)
    assertThat(host).isNotEqualTo("localhost");
    assertThat(InetAddress.getByName(host).isLoopbackAddress()).as(host).isFalse();
    assertThat(AdvertisedHost.of(config(null), "0.0.0.0")).isEqualTo(host);
    assertThat(AdvertisedHost.of(config(null), null)).isEqualTo(host);
  }

  @Test
  void aServerBoundToLoopbackAdvertisesItsBindAddress() {
    assertThat(AdvertisedHost.of(config(null), "127.0.0.1")).isEqualTo("127.0.0.1");
    assertThat(AdvertisedHost.of(config("sched-1.internal"), "127.0.0.1"))
        .isEqualTo("sched-1.internal");
  }
}
