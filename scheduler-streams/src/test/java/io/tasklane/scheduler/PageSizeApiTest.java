package io.tasklane.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.Topics;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Page sizes of every paged read (tasks, schedules, audit): 0, negative, above the 500 maximum, too
 * large for an int, or not a number are a 400 naming {@code limit} and its range; the largest page
 * is answered.
 */
@TasklaneStack
class PageSizeApiTest {
  static final String ADMIN = Tokens.random();

  @TempDir Path stateDir;

  @Test
  void everyPagedReadRefusesAPageSizeOutsideItsRangeNamingIt(LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    Map<String, Object> p =
        StackSupport.rolesConfig(
            stack.bootstrapServers(), topics, stateDir, ADMIN, "page.size", "/secret");
    try (EmbeddedServer s = ApplicationContext.run(EmbeddedServer.class, p)) {
      for (String path : List.of("/api/tasks", "/api/schedules", "/api/audit")) {
        for (String bad : List.of("0", "-1", "501", "99999999999", "ten")) {
          HttpResponse<String> r = StackSupport.get(s.getPort(), path + "?limit=" + bad, ADMIN);
          assertThat(r.statusCode()).as(path + "?limit=" + bad + " " + r.body()).isEqualTo(400);
          assertThat(r.body()).as(path + "?limit=" + bad).contains("limit");
        }
        HttpResponse<String> most = StackSupport.get(s.getPort(), path + "?limit=500", ADMIN);
        assertThat(most.statusCode()).as(path + " " + most.body()).isIn(200, 503);
      }
    }
  }
}
