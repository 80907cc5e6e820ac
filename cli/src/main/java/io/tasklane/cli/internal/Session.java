package io.tasklane.cli.internal;

/**
 * One run's console and settings, made by the root command once picocli has parsed the command
 * line; commands reach it through the root command's user object ({@link Source}).
 */
public final class Session {
  private final Console console;
  private final CliSettings settings;
  private final boolean json;
  private ApiClient api;

  public Session(Console console, CliSettings settings, boolean json) {
    this.console = console;
    this.settings = settings;
    this.json = json;
  }

  /** The root command: gives the session of the run. */
  public interface Source {
    Session session();
  }

  public Console console() {
    return console;
  }

  public CliSettings settings() {
    return settings;
  }

  /** True when {@code --json} asks for the API's JSON instead of tables. */
  public boolean json() {
    return json;
  }

  /**
   * The API client for the resolved endpoint and token (made on first use).
   *
   * @throws UsageException when no endpoint or no token is set
   */
  public ApiClient api() {
    if (api == null) {
      var endpoint = settings.requireEndpoint();
      String token = settings.requireToken();
      String host = endpoint.getHost();
      boolean loopback =
          host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]");
      if ("http".equals(endpoint.getScheme()) && !loopback) {
        console
            .err()
            .println(
                "tasklane: warning: the token travels unencrypted to "
                    + endpoint
                    + "; use https:// (e.g. through a TLS proxy) off this host");
      }
      api = new ApiClient(endpoint, token);
    }
    return api;
  }
}
