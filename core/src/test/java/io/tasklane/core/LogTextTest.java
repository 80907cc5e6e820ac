package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LogTextTest {
  @Test
  void crLfAndControlCharactersCannotStartANewLogLine() {
    String key = "k1\r\nFAKE LOG LINE\u0000\u001b[31m\u2028x\\y\t";
    String escaped = LogText.escape(key);
    assertThat(escaped).isEqualTo("k1\\r\\nFAKE LOG LINE\\u0000\\u001b[31m\\u2028x\\\\y\\t");
    assertThat(escaped).doesNotContain("\r", "\n", "\u0000", "\u001b", "\u2028");
    assertThat(LogText.escape(key.getBytes(StandardCharsets.UTF_8))).isEqualTo(escaped);
    assertThat(LogText.escape(null)).isEqualTo("null");
    assertThat(LogText.escape("mail.send")).isEqualTo("mail.send");
  }

  @Test
  void longTextIsCutNamingWhatWasLeftOut() {
    String escaped = LogText.escape("a".repeat(10_000));
    assertThat(escaped).startsWith("a".repeat(LogText.MAX_CHARS)).endsWith("…(+9800 chars)");
    assertThat(escaped).hasSize(LogText.MAX_CHARS + "…(+9800 chars)".length());
  }
}
