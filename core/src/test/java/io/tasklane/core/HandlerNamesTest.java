package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hand-written check of a handler name agrees with its pattern. */
class HandlerNamesTest {
  private static final String CHARS = "az09._-AZ/ é\u0000";

  @Test
  void theCheckAgreesWithThePatternOnEveryKindOfName() {
    Random r = new Random(48);
    for (int n = 0; n < 200_000; n++) {
      StringBuilder s = new StringBuilder();
      int length = r.nextInt(10) == 0 ? 95 + r.nextInt(10) : r.nextInt(6);
      for (int i = 0; i < length; i++) {
        s.append(CHARS.charAt(r.nextInt(r.nextInt(8) == 0 ? CHARS.length() : 7)));
      }
      String name = s.toString();
      assertThat(HandlerNames.isValid(name))
          .as("'%s'", name)
          .isEqualTo(HandlerNames.PATTERN.matcher(name).matches());
    }
    assertThat(HandlerNames.isValid(null)).isFalse();
    assertThat(HandlerNames.isValid("mail.send")).isTrue();
    assertThat(HandlerNames.isValid("a".repeat(100))).isTrue();
    assertThat(HandlerNames.isValid("a".repeat(101))).isFalse();
    assertThat(HandlerNames.isValid(".mail")).isFalse();
  }
}
