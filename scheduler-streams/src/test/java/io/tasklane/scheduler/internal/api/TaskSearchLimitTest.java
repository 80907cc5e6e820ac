package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpRequest;
import io.tasklane.scheduler.SchedulerConfig.Role;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/tasks} searches are bounded per instance like {@code GET /api/audit}: with every
 * permit taken by searches in flight, another caller's search answers 429 and another forwarded one
 * 503, before any search work starts.
 */
class TaskSearchLimitTest {
  // No search, sender or store: a call that got past the limit would fail on them.
  private final TaskController controller =
      new TaskController(null, null, null, null, null, null, Optional.empty());

  @Test
  void aSearchBeyondTheConcurrentLimitAnswers429AndAForwardedOne503() {
    assertThat(controller.searches.tryAcquire(TaskController.SEARCHES)).isTrue();
    HttpResponse<String> busy =
        controller.byKey(request("state", "DEAD"), null, null, null, Role.VIEWER);
    assertThat(busy.getStatus().getCode()).isEqualTo(429);
    assertThat(busy.body()).contains("\"busy\"").contains("task searches");
    assertThat(controller.searches.availablePermits()).isZero(); // nothing leaked or taken

    assertThat(controller.forwardedSearches.tryAcquire(TaskController.FORWARDED_SEARCHES)).isTrue();
    HttpResponse<String> forwarded =
        controller.byKey(
            request("state", "DEAD", "forwarded", "true"), null, null, null, Role.VIEWER);
    assertThat(forwarded.getStatus().getCode()).isEqualTo(503);
    assertThat(controller.forwardedSearches.availablePermits()).isZero();
  }

  private static HttpRequest<?> request(String... nameValues) {
    MutableHttpRequest<?> r = HttpRequest.GET("/api/tasks");
    for (int i = 0; i < nameValues.length; i += 2) {
      r.getParameters().add(nameValues[i], nameValues[i + 1]);
    }
    assertThat(SearchController.params(r)).hasSize(nameValues.length / 2);
    return r;
  }
}
