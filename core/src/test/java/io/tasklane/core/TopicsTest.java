package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TopicsTest {
  @Test
  void defaultNamesFollowTheDesign() {
    Topics t = Topics.DEFAULT;
    assertThat(t.tasks()).isEqualTo("tasklane.tasks");
    assertThat(t.results()).isEqualTo("tasklane.results");
    assertThat(t.control()).isEqualTo("tasklane.control");
    assertThat(t.handler("order.cancel")).isEqualTo("tasklane.handler.order.cancel");
    assertThat(t.handlerDlt("order.cancel")).isEqualTo("tasklane.handler.order.cancel.dlt");
    assertThat(t.relayOffsets()).isEqualTo("tasklane.relay.offsets");
    assertThat(t.schedulerDlt()).isEqualTo("tasklane.scheduler.dlt");
  }

  @Test
  void handlerOfRecognisesDispatchTopicsOnly() {
    Topics t = new Topics("test1");
    assertThat(t.handlerOf("test1.handler.email.send")).isEqualTo("email.send");
    assertThat(t.handlerOf("test1.handler.email.send.dlt")).isNull();
    assertThat(t.handlerOf("tasklane.handler.email.send")).isNull();
  }

  @Test
  void badNamesAreRefused() {
    assertThatThrownBy(() -> new Topics("bad name")).hasMessageStartingWith("namespace:");
    assertThatThrownBy(() -> Topics.DEFAULT.handler("Bad")).hasMessageStartingWith("handler:");
  }
}
