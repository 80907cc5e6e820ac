package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

/**
 * Which table-creation failures fail start-up (access rule or syntax errors: retrying will not
 * help) and which let the worker start anyway (database unreachable, login refused, pool timeout).
 * No database needed.
 */
class ConnectivityFailureTest {
  @Test
  void accessRuleAndSyntaxErrorsAreConfigurationErrors() {
    assertThat(
            JdbcIdempotencyStore.isConfigurationError(
                new SQLException("CREATE command denied to user", "42000", 1142)))
        .isTrue();
    assertThat(JdbcIdempotencyStore.isConfigurationError(new SQLException("syntax", "42000", 1064)))
        .isTrue();
    assertThat(
            JdbcIdempotencyStore.isConfigurationError(
                new WorkerException("wrapped", new SQLException("denied", "42000", 1142))))
        .isTrue();
  }

  @Test
  void connectionLoginAndPoolFailuresAreNot() {
    assertThat(JdbcIdempotencyStore.isConfigurationError(new SQLException("refused", "08000")))
        .isFalse();
    assertThat(JdbcIdempotencyStore.isConfigurationError(new SQLException("gone", "08S01")))
        .isFalse();
    assertThat(
            JdbcIdempotencyStore.isConfigurationError(
                new SQLException("Access denied for user", "28000", 1045)))
        .isFalse();
    assertThat(
            JdbcIdempotencyStore.isConfigurationError(
                new SQLException("You must SET PASSWORD", "HY000", 1820)))
        .isFalse();
    assertThat(
            JdbcIdempotencyStore.isConfigurationError(
                new SQLException("No connection available within the specified time")))
        .isFalse();
    assertThat(
            JdbcIdempotencyStore.isConfigurationError(
                new SQLTransientConnectionException("Connection is not available")))
        .isFalse();
    assertThat(JdbcIdempotencyStore.isConfigurationError(null)).isFalse();
  }
}
