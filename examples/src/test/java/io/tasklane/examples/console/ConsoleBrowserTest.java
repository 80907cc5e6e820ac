package io.tasklane.examples.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import io.tasklane.examples.orders.ScenarioHandlers;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The web console in a real Chromium against the full pipeline ({@link ConsolePipeline}) on demo
 * data: sign in, search a DEAD task, open it, read its logs, retry it and see it SUCCEEDED; retry a
 * filter of 100 DEAD tasks in one bulk job; a viewer sees no action and its forged write is 403; a
 * write without the CSRF header is 403; no page logs a console error. Saves a PNG of each page
 * under docs/console/ and prints each page's time to interactive.
 */
@TasklaneStack
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final Path HOME = Path.of("").toAbsolutePath().getParent();
  static final Path SHOTS = HOME.resolve("docs/console");
  static final int INVOICES = 101;

  static ConsolePipeline pipeline;
  static Browser browser;
  static long repairedAt;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    String missing = Browser.missing();
    Assumptions.assumeTrue(missing == null, () -> "console browser tests skipped: " + missing);
    pipeline = new ConsolePipeline(stack, HOME);
    try {
      repairedAt = System.currentTimeMillis() + 45_000;
      for (int i = 1; i <= INVOICES; i++) {
        pipeline.scenarios.repairableInvoice(i, repairedAt);
      }
      for (int i = 1; i <= 3; i++) {
        pipeline.scenarios.brokenReport(i);
        pipeline.scenarios.flakyPartner(i);
        pipeline.scenarios.pipeline(i);
        pipeline.scenarios.grantCoupon(i);
      }
      Awaitility.await("101 invoices and 3 reports DEAD")
          .atMost(Duration.ofSeconds(90))
          .until(
              () ->
                  count(ScenarioHandlers.REPAIRABLE, "DEAD") == INVOICES
                      && count(ScenarioHandlers.BROKEN, "DEAD") == 3);
      browser = new Browser(pipeline.base());
    } catch (Exception | Error e) {
      stop();
      throw e;
    }
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (browser != null) {
        browser.close();
      }
    } finally {
      if (pipeline != null) {
        pipeline.close();
      }
    }
  }

  @Test
  @Order(1)
  void anOperatorSearchesADeadTaskReadsItsLogsRetriesItAndSeesItSucceed() throws Exception {
    browser.signIn(pipeline.operator);
    browser.go("#/tasks");
    browser.ready("tasks");
    browser.click("#task-filter select[name=state] option[value=DEAD]");
    WebElement handler = browser.find("#task-filter input[name=handler]");
    handler.sendKeys(ScenarioHandlers.REPAIRABLE);
    browser.click("#search");
    browser.waiting(Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("state=DEAD"));
    assertThat(browser.driver.getCurrentUrl()).contains("handler=" + ScenarioHandlers.REPAIRABLE);
    browser
        .waiting(Duration.ofSeconds(20))
        .until(
            d ->
                d.findElements(
                            By.cssSelector(
                                ".page-root[data-ready='true'] #task-results [data-state=DEAD]"))
                        .size()
                    == 50); // the first page of the 101 DEAD invoices
    assertThat(browser.driver.findElements(By.cssSelector("#task-results [data-state]")))
        .hasSize(50);
    browser.screenshot(SHOTS.resolve("tasks.png"));

    browser.driver.findElement(By.cssSelector("#task-results a.mono")).click();
    browser.ready("task");
    assertThat(browser.find("#task-state").getText()).isEqualTo("DEAD");
    browser
        .waiting(Duration.ofSeconds(20))
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("task-logs"), "not deployed yet"));
    Awaitility.await("the invoice handler's fix is deployed")
        .atMost(Duration.ofSeconds(60))
        .until(() -> System.currentTimeMillis() > repairedAt);
    browser.click("#task-actions [data-action=retry-dead]");
    browser
        .waiting(Duration.ofSeconds(30))
        .until(ExpectedConditions.textToBe(By.id("task-state"), "SUCCEEDED"));
    browser
        .waiting(Duration.ofSeconds(20))
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("task-logs"), "rendered the invoice"));
    browser // the handler's last progress update, sent when the attempt ended
        .waiting(Duration.ofSeconds(20))
        .until(ExpectedConditions.textToBePresentInElementLocated(By.id("task-progress"), "100%"));
    assertThat(browser.find("#task-progress").getText()).contains("stored");
    assertThat(browser.driver.findElements(By.cssSelector("#attempts [data-state=SUCCEEDED]")))
        .hasSize(1);
    browser.screenshot(SHOTS.resolve("task-detail.png"));
    browser.assertNoConsoleErrors("task detail", null);
    browser.signOut();
  }

  @Test
  @Order(2)
  void anAdminRetriesAFilterOf100DeadTasksInOneBulkJob() throws Exception {
    browser.signIn(pipeline.admin);
    browser.go("#/dead?handler=" + ScenarioHandlers.REPAIRABLE);
    browser.ready("dead");
    assertThat(browser.find("#dead-count").getText()).isEqualTo("100 dead");
    browser.screenshot(SHOTS.resolve("dead-letters.png"));
    browser.click("#retry-all");
    WebElement dialog = browser.find("dialog[open]");
    assertThat(dialog.getText()).contains("Retry 100 DEAD tasks matching handler=invoice.render");
    dialog.findElement(By.cssSelector("[data-action=confirm]")).click();
    WebElement job =
        browser
            .waiting(Duration.ofSeconds(60))
            .until(
                ExpectedConditions.presenceOfElementLocated(
                    By.cssSelector("#bulk-job[data-state=DONE]")));
    assertThat(job.getText()).contains("matched 100", "applied 100");
    Awaitility.await("the 100 retried invoices succeed")
        .atMost(Duration.ofSeconds(60))
        .until(() -> count(ScenarioHandlers.REPAIRABLE, "SUCCEEDED") == INVOICES);
    assertThat(count(ScenarioHandlers.REPAIRABLE, "DEAD")).isZero();
    browser.assertNoConsoleErrors("dead letters", null);
    browser.signOut();
  }

  @Test
  @Order(3)
  void everyPageRendersWithoutConsoleErrorsAndItsTimeToInteractiveIsPrinted() throws Exception {
    browser.signIn(pipeline.operator);
    String dead = firstTask(ScenarioHandlers.BROKEN, "DEAD");
    Map<String, String> pages = new LinkedHashMap<>();
    pages.put("overview", "#/overview");
    pages.put("tasks", "#/tasks?state=DEAD");
    pages.put("task", "#/tasks/" + dead);
    pages.put("dead", "#/dead");
    pages.put("schedules", "#/schedules");
    pages.put("workers", "#/workers");
    pages.put("reports", "#/reports");
    for (var page : pages.entrySet()) {
      browser.go(page.getValue());
      browser.ready(page.getKey());
      browser.driver.navigate().refresh(); // a new document: the time counts from its navigation
      browser.ready(page.getKey());
      Object ms =
          browser.driver.executeScript(
              "const m = performance.getEntriesByName(arguments[0]);"
                  + " return m.length === 1 ? Math.round(m[0].startTime) : -m.length;",
              "tasklane:ready:" + page.getKey());
      assertThat(((Number) ms).longValue()).as(page.getKey() + " rendered once").isPositive();
      System.out.printf("console page %-9s interactive after %s ms%n", page.getKey(), ms);
      browser.assertNoConsoleErrors(page.getKey(), null);
    }
    browser.open("#/overview");
    browser.ready("overview");
    browser.find("#throughput-chart .uplot");
    browser.screenshot(SHOTS.resolve("overview.png"));
    browser.click("#theme-toggle");
    browser.screenshot(SHOTS.resolve("overview-dark.png"));
    browser.click("#theme-toggle");
    browser.assertNoConsoleErrors("overview", null);
    browser.signOut();
  }

  @Test
  @Order(4)
  void aViewerSeesNoActionAndItsForgedWriteIs403() throws Exception {
    browser.signIn(pipeline.viewer);
    String dead = firstTask(ScenarioHandlers.BROKEN, "DEAD");
    browser.go("#/tasks/" + dead);
    browser.ready("task");
    assertThat(browser.find("#task-state").getText()).isEqualTo("DEAD");
    assertThat(browser.driver.findElements(By.id("task-actions"))).isEmpty();
    browser.go("#/dead");
    WebElement page = browser.ready("dead");
    assertThat(page.findElements(By.tagName("button"))).isEmpty();
    assertThat(page.findElements(By.cssSelector("input[type=checkbox]"))).isEmpty();
    browser.assertNoConsoleErrors("viewer pages", null);

    String forged = browser.fetch("POST", "/api/tasks/" + dead + "/retry-dead", true);
    assertThat(forged).startsWith("403 ").contains("\"forbidden\"");
    assertThat(state(dead)).isEqualTo("DEAD");
    browser.assertNoConsoleErrors("forged write", Pattern.compile("retry-dead .*status of 403"));
    browser.signOut();
  }

  @Test
  @Order(5)
  void aWriteWithoutTheCsrfHeaderIs403() throws Exception {
    browser.signIn(pipeline.operator);
    String dead = firstTask(ScenarioHandlers.BROKEN, "DEAD");
    String refused = browser.fetch("POST", "/api/tasks/" + dead + "/discard", false);
    assertThat(refused).startsWith("403 ").contains("\"csrf\"");
    assertThat(state(dead)).isEqualTo("DEAD");
    browser.assertNoConsoleErrors("write without CSRF", Pattern.compile("discard .*status of 403"));
    browser.signOut();
    browser.assertNoConsoleErrors("sign-out", Browser.SIGN_IN_401);
  }

  private static JsonNode api(String path) throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(pipeline.base() + path))
                .header("Authorization", "Bearer " + pipeline.admin)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return WireCodec.readTree(r.body());
  }

  private static long count(String handler, String state) throws Exception {
    long n = 0;
    for (JsonNode c : api("/api/tasks/counts?handler=" + handler).path("counts")) {
      if (c.path("state").asText().equals(state)) {
        n += c.path("count").asLong();
      }
    }
    return n;
  }

  private static String firstTask(String handler, String state) throws Exception {
    return api("/api/tasks?handler=" + handler + "&state=" + state + "&limit=1")
        .path("tasks")
        .path(0)
        .path("id")
        .asText();
  }

  private static String state(String id) throws Exception {
    return api("/api/tasks/" + id).path("state").asText();
  }
}
