package io.tasklane.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class AdvertisedHostTest {
  @Test
  void theDefaultIsAnAddressOtherHostsCanReachNotLoopback() throws Exception {
    String host = AdvertisedHost.detect(); // this machine has a network interface (eth0)
    assertThat(host).isNotEqualTo("localhost");
    assertThat(InetAddress.getByName(host).isLoopbackAddress()).as(host).isFalse();
  }
}
