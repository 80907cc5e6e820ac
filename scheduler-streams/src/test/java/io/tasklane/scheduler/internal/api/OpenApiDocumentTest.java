package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.http.HttpMethod;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The OpenAPI document says for each operation the role {@link ApiRoles} asks for. */
class OpenApiDocumentTest {
  @Test
  @SuppressWarnings("unchecked")
  void everyOperationNamesTheRoleTheTableAsks() {
    Map<String, Object> doc = new Yaml().load(OpenApiController.read());
    Map<String, Map<String, Map<String, Object>>> paths =
        (Map<String, Map<String, Map<String, Object>>>) doc.get("paths");
    List<String> wrong = new ArrayList<>();
    int operations = 0;
    for (var path : paths.entrySet()) {
      String sample = path.getKey().replaceAll("\\{[^}]*}", "x");
      for (var op : path.getValue().entrySet()) {
        operations++;
        String said = String.valueOf(op.getValue().get("x-tasklane-role"));
        boolean open =
            path.getKey().startsWith("/health")
                || TokenFilter.consoleAsset(HttpMethod.GET, sample)
                || (path.getKey().equals("/api/session") && op.getKey().equals("post"));
        String asked =
            open
                ? "none"
                : ApiRoles.required(HttpMethod.parse(op.getKey().toUpperCase(Locale.ROOT)), sample)
                    .label();
        if (!said.equals(asked)) {
          wrong.add(op.getKey() + " " + path.getKey() + ": document " + said + ", table " + asked);
        }
      }
    }
    assertThat(operations).isGreaterThan(30);
    assertThat(wrong).isEmpty();
  }
}
