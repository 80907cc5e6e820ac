package io.tasklane.examples.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven through {@code /usr/bin/chromedriver} (never a downloaded
 * browser: both paths are explicit, so Selenium Manager does not run), on a fresh profile that is
 * deleted on {@link #close}. Collects the browser console: {@link #assertNoConsoleErrors} fails on
 * any SEVERE entry not explicitly expected. Used from the test thread only.
 */
final class Browser implements AutoCloseable {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  /** The sign-in screen's who-am-I before signing in answers 401 on purpose. */
  static final Pattern SIGN_IN_401 = Pattern.compile("/api/session .*status of 401");

  final ChromeDriver driver;
  private final Path profile;
  private final String base;

  /** Why the browser tests cannot run here, or null when Chromium and its driver are installed. */
  static String missing() {
    for (Path p : List.of(CHROMIUM, CHROMEDRIVER)) {
      if (!Files.isExecutable(p)) {
        return p
            + " is not installed (bin/test installs it with apt-get install chromium"
            + " chromium-driver as root on Debian)";
      }
    }
    return null;
  }

  Browser(String base) throws IOException {
    this.base = base;
    this.profile = Files.createTempDirectory("tasklane-chromium-");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
        "--user-data-dir=" + profile);
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    this.driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
  }

  /** Loads the console at {@code hash} (e.g. {@code #/overview}). */
  void open(String hash) {
    driver.get(base + "/console/" + hash);
  }

  /** Goes to {@code hash} inside the loaded console (no reload). */
  void go(String hash) {
    driver.executeScript("window.location.hash = arguments[0]", hash);
  }

  WebDriverWait waiting(Duration timeout) {
    return new WebDriverWait(driver, timeout);
  }

  /** Waits until page {@code id} finished rendering; returns its root. */
  WebElement ready(String id) {
    return waiting(Duration.ofSeconds(20))
        .until(
            ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector(".page-root[data-page='" + id + "'][data-ready='true']")));
  }

  WebElement find(String css) {
    return waiting(Duration.ofSeconds(20))
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(css)));
  }

  /**
   * Clicks the element at {@code css}, trying again while something lies over it (a toast of an
   * earlier action stays 5 s in the corner it may share with the element) or a refresh replaced it.
   */
  void click(String css) {
    waiting(Duration.ofSeconds(20))
        .ignoring(org.openqa.selenium.ElementClickInterceptedException.class)
        .ignoring(StaleElementReferenceException.class)
        .until(
            d -> {
              d.findElement(By.cssSelector(css)).click();
              return true;
            });
  }

  /**
   * Replaces the value of the input at {@code css} with {@code text}. The input is focused first,
   * since a page's periodic refresh leaves a focused input alone; a refresh that replaced the input
   * between finding and typing (a stale element) makes it find the new one and type again.
   */
  void type(String css, String text) {
    waiting(Duration.ofSeconds(20))
        .ignoring(StaleElementReferenceException.class)
        .until(
            d -> {
              WebElement input = d.findElement(By.cssSelector(css));
              input.click();
              input.clear();
              input.sendKeys(text);
              return text.equals(input.getDomProperty("value"));
            });
  }

  /** Signs in on the sign-in screen with {@code token}; waits for the shell. */
  void signIn(String token) {
    open("#/overview");
    driver.manage().deleteAllCookies(); // a session a failed test left behind
    open("#/overview");
    WebElement input = find("#token");
    input.sendKeys(token);
    driver.findElement(By.id("signin-submit")).click();
    find("#signout");
    ready("overview");
    assertNoConsoleErrors("sign-in", SIGN_IN_401);
  }

  void signOut() {
    driver.findElement(By.id("signout")).click();
    find("#signin");
  }

  /** Saves a PNG of the window to {@code file}. */
  void screenshot(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    File shot = driver.getScreenshotAs(OutputType.FILE);
    Files.copy(shot.toPath(), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  /** Runs {@code fetch(path, init)} in the page; answers "status body". */
  String fetch(String method, String path, boolean withCsrf) {
    Object r =
        driver.executeAsyncScript(
            "const [method, path, withCsrf, done] = arguments;"
                + "fetch('/api/session').then(r => r.json()).then(s => {"
                + "  const headers = {};"
                + "  if (withCsrf) headers['X-CSRF-Token'] = s.csrf;"
                + "  return fetch(path, {method, headers, credentials: 'same-origin'});"
                + "}).then(r => r.text().then(t => done(r.status + ' ' + t)))"
                + ".catch(e => done('error ' + e));",
            method,
            path,
            withCsrf);
    return String.valueOf(r);
  }

  /**
   * Fails on any SEVERE browser console entry since the last call, except those matching {@code
   * expected} (a request the test made fail on purpose).
   */
  void assertNoConsoleErrors(String where, Pattern expected) {
    List<LogEntry> severe =
        driver.manage().logs().get(LogType.BROWSER).getAll().stream()
            .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
            .filter(e -> expected == null || !expected.matcher(e.getMessage()).find())
            .toList();
    assertThat(severe).as("browser console errors on " + where).isEmpty();
  }

  @Override
  public void close() throws IOException {
    try {
      driver.quit();
    } finally {
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
