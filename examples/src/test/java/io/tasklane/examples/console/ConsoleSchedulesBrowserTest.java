package io.tasklane.examples.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.TaskIds;
import io.tasklane.core.WireCodec;
import io.tasklane.examples.orders.ScenarioHandlers;
import io.tasklane.examples.orders.ScheduleHandlers;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
import org.openqa.selenium.support.ui.Select;

/**
 * The console's Schedules, Workers, Handler, Limits and Reports pages in a real Chromium against
 * the full pipeline ({@link ConsolePipeline}): an admin creates a cron schedule with seconds in
 * Tokyo's zone in the form, sees the live preview (and a bad cron refused naming the field), saves
 * it and finds the same next 5 fires on its page, pauses and resumes it, triggers it and sees the
 * fire succeed in the history; the workers page lists the live worker with its handlers and lets
 * the admin pause, resume and resize a handler; a handler's page shows its ordered lane blocked by
 * a DEAD task (the lane's key, however odd, as text; its holder and first waiting task as links to
 * their pages) and lets the admin set its max per key and on-dead policy (a bad value refused
 * naming the parameter); on the limits page the admin sets a named rate limit (a bad rate refused
 * naming the field) and a handler's own rate, and removes the first after confirming; the reports
 * page draws its charts; a viewer sees no action on these pages. No page logs a console error.
 * Saves PNGs under docs/console/.
 */
@TasklaneStack
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleSchedulesBrowserTest {
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final Path HOME = Path.of("").toAbsolutePath().getParent();
  static final Path SHOTS = HOME.resolve("docs/console");
  static final String NAME = "reports.tokyo";
  static final String CRON = "15 30 2 * * ?";

  /** An ordering key that would be markup if the page inserted it as HTML. */
  static final String LANE = "customer <i>7</i> & co";

  /** A named rate limit the limits page sets and removes. */
  static final String LIMIT = "partner-api";

  static ConsolePipeline pipeline;
  static Browser browser;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    String missing = Browser.missing();
    Assumptions.assumeTrue(missing == null, () -> "console browser tests skipped: " + missing);
    pipeline = new ConsolePipeline(stack, HOME);
    try {
      // a busy neighbour for the list and the reports: a 5-second sweep
      put(
          "/api/schedules/sweep.5s",
          "{\"handler\":\"" + ScheduleHandlers.SWEEP + "\",\"every\":\"5s\"}");
      Awaitility.await("the sweep fired twice")
          .atMost(Duration.ofSeconds(60))
          .until(() -> api("/api/schedules/sweep.5s").path("fires").size() >= 2);
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
  void anAdminCreatesACronScheduleWithALivePreviewAndSeesItsNextFires() throws Exception {
    browser.signIn(pipeline.admin);
    browser.go("#/schedules");
    browser.ready("schedules");
    browser.click("#schedule-new");
    browser.ready("schedule-form");
    browser.find("#schedule-form input[name=name]").sendKeys(NAME);
    browser.find("#schedule-form input[name=handler]").sendKeys(ScheduleHandlers.SWEEP);
    WebElement zone = browser.find("#schedule-form input[name=zone]");
    zone.clear();
    zone.sendKeys("Asia/Tokyo");
    WebElement expr = browser.find("#schedule-form input[name=expression]");
    expr.sendKeys("61 * * * *");
    WebElement bad = browser.find("#schedule-preview .preview-bad");
    assertThat(bad.getText()).startsWith("cron: '61 * * * *' is not a valid cron");
    // a 6-field cron with a numeric day of week reads differently in Quartz and Spring: refused
    expr.clear();
    expr.sendKeys("0 0 9 ? * 1-5");
    By preview = By.cssSelector("#schedule-preview .preview-bad");
    browser
        .waiting(Duration.ofSeconds(20))
        .until(ExpectedConditions.textToBePresentInElementLocated(preview, "numeric day of week"));
    assertThat(browser.find("#schedule-preview .preview-bad").getText())
        .startsWith("cron: '0 0 9 ? * 1-5' has a numeric day of week")
        .contains("MON-FRI");

    expr.clear();
    expr.sendKeys(CRON);
    browser
        .waiting(Duration.ofSeconds(20))
        .until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#preview-fires li"), 5));
    List<String> previewed = instants("#preview-fires time");
    for (WebElement li : browser.driver.findElements(By.cssSelector("#preview-fires li"))) {
      assertThat(li.getText()).contains(" 02:30:15+09:00");
    }
    browser.screenshot(SHOTS.resolve("schedule-form.png"));

    browser.click("#schedule-save");
    browser.ready("schedule");
    assertThat(browser.find("#schedule-state").getAttribute("data-state")).isEqualTo("ACTIVE");
    assertThat(instants("#next-fires time")).isEqualTo(previewed);
    for (WebElement li : browser.driver.findElements(By.cssSelector("#next-fires li"))) {
      assertThat(li.getText()).contains(" 02:30:15");
    }
    JsonNode stored = api("/api/schedules/" + NAME).path("definition");
    assertThat(stored.path("cron").asText()).isEqualTo(CRON);
    assertThat(stored.path("zone").asText()).isEqualTo("Asia/Tokyo");

    browser.go("#/schedules");
    WebElement list = browser.ready("schedules");
    browser
        .waiting(Duration.ofSeconds(20))
        .until(ExpectedConditions.textToBePresentInElement(list, NAME));
    assertThat(list.getText()).contains("sweep.5s", ScheduleHandlers.SWEEP);
    browser
        .waiting(Duration.ofSeconds(30))
        .until(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#schedule-list [data-outcome=SUCCEEDED]")));
    browser.screenshot(SHOTS.resolve("schedules.png"));
    // the live preview's answer to the bad cron is a 400 on purpose
    browser.assertNoConsoleErrors(
        "schedules", java.util.regex.Pattern.compile("schedules/preview\\?.*status of 400"));
  }

  @Test
  @Order(2)
  void anAdminPausesResumesAndTriggersTheScheduleAndSeesTheFireInTheHistory() throws Exception {
    browser.go("#/schedules/" + NAME);
    browser.ready("schedule");
    browser.click("#schedule-actions [data-action=pause]");
    awaitState("PAUSED");
    assertThat(browser.find("#next-fires").getText()).contains("Paused");
    assertThat(api("/api/schedules/" + NAME).path("paused").asBoolean()).isTrue();
    browser.click("#schedule-actions [data-action=resume]");
    awaitState("ACTIVE");
    browser
        .waiting(Duration.ofSeconds(20))
        .until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#next-fires li"), 5));

    browser.click("#schedule-actions [data-action=trigger]");
    WebElement done =
        browser
            .waiting(Duration.ofSeconds(60))
            .until(
                ExpectedConditions.presenceOfElementLocated(
                    By.cssSelector("#fire-history [data-outcome=SUCCEEDED]")));
    WebElement row = done.findElement(By.xpath("./ancestor::tr"));
    assertThat(row.getText()).contains("TRIGGER");
    assertThat(row.findElements(By.cssSelector("a.mono"))).hasSize(1);
    browser.screenshot(SHOTS.resolve("schedule-detail.png"));
    browser.assertNoConsoleErrors("schedule detail", null);
  }

  @Test
  @Order(3)
  void theWorkersPageListsTheLiveWorkerAndAnAdminPausesResumesAndResizesAHandler()
      throws Exception {
    browser.go("#/workers");
    browser.ready("workers");
    WebElement live = browser.find("#live-workers");
    assertThat(
            live.findElements(By.cssSelector("li[data-handler='" + ScheduleHandlers.SWEEP + "']")))
        .hasSize(1);
    assertThat(
            live.findElements(
                By.cssSelector("li[data-handler='" + ScenarioHandlers.REPAIRABLE + "']")))
        .hasSize(1);
    String handler = ScenarioHandlers.DUPLICATE;
    String actions = "#handlers [data-handler-actions='" + handler + "'] ";
    browser.click(actions + "[data-action=pause]");
    browser.find(actions + "[data-action=resume]");
    assertThat(api("/api/handlers/" + handler).path("paused").asBoolean()).isTrue();
    browser.click(actions + "[data-action=resume]");
    browser.find(actions + "[data-action=pause]");
    assertThat(api("/api/handlers/" + handler).path("paused").asBoolean()).isFalse();
    browser.type(actions + "input[name=concurrency]", "3");
    browser.click(actions + "[data-action=concurrency]");
    // the page re-renders its rows after an action, then toasts: type into the new row
    browser
        .waiting(Duration.ofSeconds(20))
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("toasts"), handler + ": concurrency 3"));
    Awaitility.await("concurrency 3 stored")
        .atMost(Duration.ofSeconds(20))
        .until(() -> api("/api/handlers/" + handler).path("concurrencySet").asInt() == 3);
    browser.type(actions + "input[name=concurrency]", "0");
    browser.click(actions + "[data-action=concurrency]");
    assertThat(browser.find("#handler-answer .error-box").getText())
        .contains("value: '0' must be an integer from 1 to 1000");
    browser.screenshot(SHOTS.resolve("workers.png"));
    browser.assertNoConsoleErrors(
        "workers", java.util.regex.Pattern.compile("concurrency\\?value=0 .*status of 400"));
  }

  @Test
  @Order(4)
  void aHandlersPageShowsItsBlockedLaneAndAnAdminSetsItsLanesSetting() throws Exception {
    String handler = ScenarioHandlers.BROKEN;
    List<String> ids = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      ids.add(pipeline.scenarios.brokenReportInLane(i, LANE));
    }
    String lanesPath = "/api/handlers/" + handler + "/lanes";
    Awaitility.await("the lane blocked by its first report, DEAD, two waiting behind it")
        .atMost(Duration.ofSeconds(90))
        .until(
            () -> {
              JsonNode l = api(lanesPath);
              return l.path("blocked").asLong() == 1 && l.path("waiting").asLong() == 2;
            });
    JsonNode lane = api(lanesPath).path("top").path(0);
    assertThat(lane.path("key").asText()).isEqualTo(LANE);
    String holder = lane.path("holders").fieldNames().next();
    String head = lane.path("head").asText();
    assertThat(ids).contains(holder, head);

    browser.go("#/workers");
    browser.ready("workers");
    browser.click("#handlers a[data-handler='" + handler + "']");
    browser.ready("handler");
    assertThat(browser.driver.getCurrentUrl()).endsWith("#/handlers/" + handler);
    assertThat(browser.find("#handler-max-per-key").getText()).isEqualTo("unlimited");
    assertThat(browser.find("#handler-on-dead").getText()).isEqualTo("BLOCK");
    assertThat(browser.find("#lanes-count .value").getText()).isEqualTo("1");
    assertThat(browser.find("#lanes-blocked .value").getText()).isEqualTo("1");
    assertThat(browser.find("#lanes-waiting .value").getText()).isEqualTo("2");
    WebElement key = browser.find("#handler-lanes [data-lane]");
    assertThat(key.getText()).isEqualTo(LANE);
    assertThat(key.getAttribute("data-lane")).isEqualTo(LANE);
    assertThat(key.findElements(By.tagName("i"))).as("the key is text, not markup").isEmpty();
    WebElement row = key.findElement(By.xpath("./ancestor::tr"));
    assertThat(row.findElements(By.cssSelector("[data-blocked] [data-state=BLOCKED]"))).hasSize(1);
    assertThat(row.findElements(By.cssSelector("[data-holder='" + holder + "'] [data-state=DEAD]")))
        .hasSize(1);
    assertThat(row.findElement(By.cssSelector("td.num")).getText()).isEqualTo("2");
    browser.screenshot(SHOTS.resolve("handler.png"));

    // the first waiting task's link opens its page (a lane's task is found under its key)
    WebElement headLink = row.findElement(By.cssSelector("[data-head='" + head + "'] a"));
    assertThat(headLink.getText()).isEqualTo(head);
    headLink.click();
    WebElement task = browser.ready("task");
    assertThat(browser.driver.getCurrentUrl()).contains("#/tasks/" + head + "?routingKey=");
    assertThat(task.findElement(By.tagName("h1")).getText()).contains(head);
    assertThat(browser.find("#task-state [data-state]").getAttribute("data-state"))
        .isEqualTo("PENDING");
    browser.driver.navigate().back();
    browser.ready("handler");
    browser.click("#handler-lanes [data-holder='" + holder + "'] a");
    browser.ready("task");
    assertThat(browser.find("#task-state [data-state]").getAttribute("data-state"))
        .isEqualTo("DEAD");

    browser.go("#/handlers/" + handler);
    browser.ready("handler");
    browser.type("#handler-lanes-form input[name=maxPerKey]", "4");
    new Select(browser.find("#handler-lanes-form select[name=onDead]")).selectByValue("SKIP");
    browser.click("#handler-lanes-form [data-action=set-lanes]");
    browser
        .waiting(Duration.ofSeconds(20))
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("toasts"), handler + ": max per key 4, on dead SKIP"));
    assertThat(browser.find("#handler-max-per-key").getText()).isEqualTo("4");
    assertThat(browser.find("#handler-on-dead").getText()).isEqualTo("SKIP");
    JsonNode view = api("/api/handlers/" + handler);
    assertThat(view.path("maxPerKey").asInt()).isEqualTo(4);
    assertThat(view.path("onDead").asText()).isEqualTo("SKIP");

    browser.type("#handler-lanes-form input[name=maxPerKey]", "0");
    browser.click("#handler-lanes-form [data-action=set-lanes]");
    assertThat(browser.find("#handler-lanes-answer .error-box").getText())
        .contains("maxPerKey: '0' must be an integer from 1 to 100000");
    assertThat(api("/api/handlers/" + handler).path("maxPerKey").asInt()).isEqualTo(4);
    browser.type("#handler-lanes-form input[name=maxPerKey]", "none");
    new Select(browser.find("#handler-lanes-form select[name=onDead]")).selectByValue("BLOCK");
    browser.click("#handler-lanes-form [data-action=set-lanes]");
    browser
        .waiting(Duration.ofSeconds(20))
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("handler-max-per-key"), "unlimited"));
    assertThat(api("/api/handlers/" + handler).path("maxPerKey").isNull()).isTrue();
    browser.assertNoConsoleErrors(
        "handler", java.util.regex.Pattern.compile("lanes\\?maxPerKey=0.*status of 400"));
  }

  @Test
  @Order(5)
  void anAdminSetsAndRemovesRateLimitsOnTheLimitsPage() throws Exception {
    browser.go("#/limits");
    WebElement page = browser.ready("limits");
    assertThat(browser.find("#limits").getText()).contains("No rate limit is configured or set.");

    browser.type("#limit-form input[name=name]", LIMIT);
    browser.type("#limit-form input[name=rate]", "fast");
    browser.click("#limit-form [data-action=set-limit]");
    assertThat(browser.find("#limits-answer .error-box").getText())
        .contains("rate: 'fast' must read <starts>/s");

    browser.type("#limit-form input[name=rate]", "50/s");
    browser.type("#limit-form input[name=burst]", "10");
    browser.click("#limit-form [data-action=set-limit]");
    browser
        .waiting(Duration.ofSeconds(20))
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("toasts"), LIMIT + ": 50/s, burst 10"));
    assertThat(browser.find("#limits [data-rate='" + LIMIT + "']").getText()).isEqualTo("50/s");
    assertThat(browser.find("#limits [data-source=api]").getText()).isEqualTo("RUN TIME");
    assertThat(browser.find("#limits-answer").getText()).isEmpty();
    JsonNode set = api("/api/limits/" + LIMIT);
    assertThat(set.path("burst").asInt()).isEqualTo(10);
    assertThat(set.path("updatedBy").asText()).isEqualTo("admin");

    // a handler's own rate: its row links to the handler's page
    String handler = ScenarioHandlers.DUPLICATE;
    browser.type("#limit-form input[name=name]", handler);
    browser.type("#limit-form input[name=rate]", "600/min");
    browser.type("#limit-form input[name=burst]", "2");
    browser.click("#limit-form input[name=handler]");
    browser.click("#limit-form [data-action=set-limit]");
    WebElement own =
        browser.find(
            "#limits a[data-limit='handler/" + handler + "'][href='#/handlers/" + handler + "']");
    assertThat(own.getText()).isEqualTo(handler);
    assertThat(api("/api/limits").path("limits").findValuesAsText("rate")).contains("600/min");
    browser.screenshot(SHOTS.resolve("limits.png"));

    // removing a run-time limit asks first; a name that is not configured is then gone
    browser.click("#limits [data-action=remove-limit][data-for='" + LIMIT + "']");
    WebElement dialog = browser.find("dialog[open]");
    assertThat(dialog.getText()).contains("The limit is then undefined");
    dialog.findElement(By.cssSelector("[data-action=confirm]")).click();
    browser
        .waiting(Duration.ofSeconds(20))
        .until(
            ExpectedConditions.invisibilityOfElementLocated(
                By.cssSelector("#limits [data-limit='" + LIMIT + "']")));
    assertThat(status("/api/limits/" + LIMIT)).isEqualTo(404);
    assertThat(page.findElements(By.cssSelector("[data-limit='handler/" + handler + "']")))
        .hasSize(1);
    browser.assertNoConsoleErrors(
        "limits",
        java.util.regex.Pattern.compile("limits/" + LIMIT + "\\?rate=fast.*status of 400"));
  }

  @Test
  @Order(6)
  void theBatchesPageShowsABatchFromOpenToSucceededWithItsCallback() throws Exception {
    String batch = "console-batch-1";
    try (Connection c =
        DriverManager.getConnection(
            pipeline.db.url(), pipeline.db.user(), pipeline.db.password())) {
      c.setAutoCommit(false);
      JdbcTaskOutbox.of(c)
          .batch(batch)
          .enqueueAll(
              List.of(
                  TaskRequest.to(ScheduleHandlers.SWEEP).payload("b1"),
                  TaskRequest.to(ScheduleHandlers.SWEEP).payload("b2"),
                  TaskRequest.to(ScheduleHandlers.SWEEP).payload("b3")));
      c.commit();
    }
    browser.go("#/batches");
    browser.ready("batches");
    browser.type("#batch-form input[name=batch]", batch);
    browser.click("#batch-form button[type=submit]");
    browser.waiting(Duration.ofSeconds(20)).until(ExpectedConditions.urlContains(batch));
    browser.ready("batches");
    browser
        .waiting(Duration.ofSeconds(30))
        .until(
            ExpectedConditions.attributeToBe(
                By.cssSelector("#batch [data-progress]"), "data-progress", "100"));
    assertThat(browser.find("#batch [data-state]").getText()).isEqualTo("OPEN");
    assertThat(browser.find("#batch [data-count=total]").getText()).isEqualTo("3");

    try (Connection c =
        DriverManager.getConnection(
            pipeline.db.url(), pipeline.db.user(), pipeline.db.password())) {
      c.setAutoCommit(false);
      JdbcTaskOutbox.of(c)
          .batch(batch)
          .seal(
              null,
              TaskRequest.to(ScheduleHandlers.SWEEP).payload("report").orderingKey("reports"));
      c.commit();
    }
    browser
        .waiting(Duration.ofSeconds(30))
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.cssSelector("#batch [data-state]"), "SUCCEEDED"));
    assertThat(browser.find("#batch [data-count=succeeded]").getText()).isEqualTo("3");
    // a callback with an ordering key lives under that key: the link carries it
    String callback = TaskIds.forBatchCallback(batch, "complete");
    WebElement link = browser.find("#batch a[href='#/tasks/" + callback + "?routingKey=reports']");
    assertThat(link.getText()).isEqualTo(callback);
    browser.screenshot(SHOTS.resolve("batches.png"));
    link.click();
    browser.ready("task");
    assertThat(browser.find("#task-state").getText()).isNotBlank(); // found under its key, no 404
    assertThat(browser.find(".page-root").getText()).contains(callback);

    // the list: every batch by id, narrowed by state
    browser.go("#/batches");
    browser.ready("batches");
    WebElement row =
        browser
            .waiting(Duration.ofSeconds(30))
            .until(
                ExpectedConditions.presenceOfElementLocated(
                    By.cssSelector("#batch-list a[data-batch-row='" + batch + "']")))
            .findElement(By.xpath("ancestor::tr"));
    assertThat(row.getText()).contains("SUCCEEDED", "100%");
    browser.screenshot(SHOTS.resolve("batch-list.png"));
    new Select(browser.find("#batch-state")).selectByValue("OPEN");
    browser.waiting(Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("state=OPEN"));
    browser.ready("batches");
    browser
        .waiting(Duration.ofSeconds(30))
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.cssSelector("#batch-list"), "No OPEN batches."));
    browser.go("#/batches/no-such-batch");
    browser.ready("batches");
    assertThat(browser.find("#batch .error-box").getText()).contains("no batch 'no-such-batch'");
    browser.assertNoConsoleErrors(
        "batches", java.util.regex.Pattern.compile("batches/no-such-batch .*status of 404"));
  }

  @Test
  @Order(7)
  void theReportsPageDrawsItsCharts() throws Exception {
    browser.go("#/reports?handler=" + ScheduleHandlers.SWEEP + "&bucket=hour");
    browser.ready("reports");
    browser.find("#report-counts .uplot canvas");
    browser.find("#report-runtimes .uplot canvas");
    String totals = browser.find("#report-totals").getText();
    assertThat(totals).contains("Succeeded, 30 days", "Worst p99 run time per hour");
    long succeeded =
        Long.parseLong(
            browser.find("#report-totals .stat:first-child .value").getText().replace(",", ""));
    assertThat(succeeded).isGreaterThanOrEqualTo(2);
    new Select(browser.find("#report-bucket")).selectByValue("day");
    browser.waiting(Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("bucket=day"));
    browser.ready("reports");
    browser.find("#report-counts .uplot canvas");
    browser.go("#/reports?handler=" + ScheduleHandlers.SWEEP + "&bucket=hour");
    browser.ready("reports");
    browser.find("#report-runtimes .uplot canvas");
    browser.screenshot(SHOTS.resolve("reports.png"));
    browser.assertNoConsoleErrors("reports", null);
    browser.signOut();
  }

  @Test
  @Order(8)
  void aViewerSeesNoActionOnThesePages() throws Exception {
    browser.signIn(pipeline.viewer);
    browser.go("#/schedules");
    WebElement page = browser.ready("schedules");
    assertThat(page.getText()).contains(NAME);
    assertThat(page.findElements(By.tagName("button"))).isEmpty();
    browser.go("#/schedules/" + NAME);
    page = browser.ready("schedule");
    assertThat(browser.find("#next-fires li").getText()).contains("02:30:15");
    assertThat(page.findElements(By.tagName("button"))).isEmpty();
    assertThat(browser.driver.findElements(By.id("schedule-actions"))).isEmpty();
    browser.go("#/new-schedule");
    page = browser.ready("schedule-form");
    assertThat(page.findElements(By.tagName("form"))).isEmpty();
    browser.go("#/workers");
    page = browser.ready("workers");
    assertThat(page.getText()).contains(ScheduleHandlers.SWEEP);
    assertThat(page.findElements(By.tagName("button"))).isEmpty();
    assertThat(page.findElements(By.tagName("input"))).isEmpty();
    browser.go("#/handlers/" + ScenarioHandlers.BROKEN);
    page = browser.ready("handler");
    browser.find("#handler-lanes #lanes-summary"); // the lanes panel, read-only
    assertThat(browser.find("#handler-on-dead").getText()).isEqualTo("BLOCK");
    assertThat(page.findElements(By.tagName("button"))).isEmpty();
    assertThat(page.findElements(By.tagName("input"))).isEmpty();
    assertThat(browser.driver.findElements(By.id("handler-lanes-form"))).isEmpty();
    browser.go("#/limits");
    page = browser.ready("limits");
    assertThat(page.getText()).contains("600/min");
    assertThat(page.findElements(By.tagName("button"))).isEmpty();
    assertThat(page.findElements(By.tagName("input"))).isEmpty();
    browser.go("#/batches/console-batch-1");
    page = browser.ready("batches");
    browser.find("#batch [data-state]");
    assertThat(page.findElements(By.tagName("button"))).hasSize(1); // Show: a lookup, no action
    browser.go("#/reports?handler=" + ScheduleHandlers.SWEEP);
    page = browser.ready("reports");
    browser.find("#report-counts .uplot canvas");
    assertThat(page.findElements(By.tagName("button"))).isEmpty();
    browser.assertNoConsoleErrors("viewer pages", null);
    browser.signOut();
  }

  private static void awaitState(String state) {
    browser
        .waiting(Duration.ofSeconds(20))
        .until(ExpectedConditions.attributeToBe(By.id("schedule-state"), "data-state", state));
  }

  /** The ISO instants of the time elements matching css. */
  private static List<String> instants(String css) {
    return browser.driver.findElements(By.cssSelector(css)).stream()
        .map(e -> e.getAttribute("datetime"))
        .toList();
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

  private static int status(String path) throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(pipeline.base() + path))
                .header("Authorization", "Bearer " + pipeline.admin)
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static void put(String path, String body) throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(pipeline.base() + path))
                .header("Authorization", "Bearer " + pipeline.admin)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
  }
}
