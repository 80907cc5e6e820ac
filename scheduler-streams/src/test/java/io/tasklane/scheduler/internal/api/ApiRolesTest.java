package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.http.HttpMethod;
import io.tasklane.scheduler.SchedulerConfig.Role;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ApiRolesTest {
  @ParameterizedTest
  @CsvSource({
    "GET, /api/tasks, VIEWER",
    "HEAD, /api/tasks/abc, VIEWER",
    "GET, /api/handlers/h, VIEWER",
    "GET, /api/schedules/s, VIEWER",
    "GET, /api/schedules/preview, VIEWER",
    "GET, /api/openapi.yml, VIEWER",
    "GET, /prometheus, VIEWER",
    "GET, /api/audit, OPERATOR",
    "GET, /api/config, ADMIN",
    "GET, /api/config/tokens, ADMIN",
    "GET, /api/tasks/bulk/x, ADMIN",
    "POST, /api/tasks/abc/cancel, OPERATOR",
    "POST, /api/tasks/bulk/cancel, ADMIN",
    "POST, /api/handlers/h/pause, ADMIN",
    "POST, /api/handlers/h/concurrency, ADMIN",
    "POST, /api/handlers/h/rate, ADMIN",
    "GET, /api/limits, VIEWER",
    "GET, /api/batches, VIEWER",
    "GET, /api/batches/invoices-2026-11, VIEWER",
    "POST, /api/limits/partner-api, ADMIN",
    "DELETE, /api/limits/partner-api, ADMIN",
    "POST, /api/schedules/nightly/trigger, OPERATOR",
    "POST, /api/schedules/nightly/pause, ADMIN",
    "PUT, /api/schedules/nightly, ADMIN",
    "DELETE, /api/schedules/nightly, ADMIN",
    "DELETE, /api/session, VIEWER",
    "PUT, /api/config/x, ADMIN",
  })
  void theTableGivesEachMethodAndPathItsRole(String method, String path, Role role) {
    assertThat(ApiRoles.required(HttpMethod.parse(method), path)).isEqualTo(role);
  }

  @Test
  void noSpellingOfAnAdminPathNeedsLess() {
    for (String p :
        new String[] {
          "/api/tasks/bulk/cancel/",
          "//api/tasks//bulk/cancel",
          "/API/Tasks/Bulk/cancel",
          "/api/tasks/%62ulk/cancel",
          "/api/handlers%2Fh/pause",
          "/api/schedules/a%2Fb/trigger",
        }) {
      assertThat(ApiRoles.required(HttpMethod.POST, p)).as(p).isEqualTo(Role.ADMIN);
    }
  }

  @Test
  void dotSegmentsAndBadEscapesAreRefusedNamingThem() {
    assertThatThrownBy(() -> ApiRoles.required(HttpMethod.POST, "/api/tasks/x/../bulk/cancel"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'..' segment");
    assertThatThrownBy(() -> ApiRoles.required(HttpMethod.GET, "/api/tasks/%zz"))
        .hasMessageContaining("%-escape");
  }

  @Test
  void rolesAreOrdered() {
    assertThat(Role.ADMIN.includes(Role.OPERATOR)).isTrue();
    assertThat(Role.OPERATOR.includes(Role.VIEWER)).isTrue();
    assertThat(Role.OPERATOR.includes(Role.ADMIN)).isFalse();
    assertThat(Role.VIEWER.includes(Role.OPERATOR)).isFalse();
  }
}
