package io.tasklane.cli.internal;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Where the CLI sends its requests and with which token, resolved flag &gt; environment &gt; config
 * file: {@code --endpoint} / {@code TASKLANE_ENDPOINT} / {@code endpoint}, {@code --token} / {@code
 * TASKLANE_TOKEN} / {@code token}, {@code --token-file} / {@code TASKLANE_TOKEN_FILE} / {@code
 * token-file} (a token beats a token file at the same level), {@code --bootstrap-servers} / {@code
 * TASKLANE_BOOTSTRAP_SERVERS} / {@code bootstrap-servers}, {@code --command-config} / {@code
 * TASKLANE_COMMAND_CONFIG} / {@code command-config}. The config file is {@code --config}, else
 * {@code TASKLANE_CONFIG}, else {@code $XDG_CONFIG_HOME/tasklane/cli.properties} (default {@code
 * ~/.config/tasklane/cli.properties}), which may be missing. Pure values; resolved on the command's
 * thread.
 *
 * @param endpoint the scheduler's base URL (no trailing slash), or null when none is set
 * @param token the bearer token, or null when none is set
 * @param bootstrapServers Kafka bootstrap servers for {@code topics tail}, or null
 * @param commandConfig Kafka client properties for {@code topics tail}, or null
 */
public record CliSettings(URI endpoint, String token, String bootstrapServers, Path commandConfig) {
  /** The keys a config file may hold; another key is a typo and refused. */
  static final Set<String> KEYS =
      Set.of("endpoint", "token", "token-file", "bootstrap-servers", "command-config");

  /** What the command line said (null: not given). */
  public record Flags(
      String endpoint,
      String token,
      Path tokenFile,
      Path config,
      String bootstrapServers,
      Path commandConfig) {}

  /**
   * Resolves the settings.
   *
   * @param home the user's home directory (for the default config file)
   * @throws UsageException naming the flag, variable or key of a bad value
   */
  public static CliSettings resolve(Flags flags, Map<String, String> env, Path home) {
    Properties file = readConfig(flags.config(), env, home);
    String endpoint = first(flags.endpoint(), env.get("TASKLANE_ENDPOINT"), file.get("endpoint"));
    String token =
        firstToken(
            flags.token(),
            flags.tokenFile(),
            "--token-file",
            env.get("TASKLANE_TOKEN"),
            env.get("TASKLANE_TOKEN_FILE"),
            file);
    String bootstrap =
        first(
            flags.bootstrapServers(),
            env.get("TASKLANE_BOOTSTRAP_SERVERS"),
            file.get("bootstrap-servers"));
    String clientConfig =
        first(
            flags.commandConfig() == null ? null : flags.commandConfig().toString(),
            env.get("TASKLANE_COMMAND_CONFIG"),
            file.get("command-config"));
    return new CliSettings(
        endpoint == null ? null : endpoint(endpoint),
        token,
        bootstrap,
        clientConfig == null ? null : Path.of(clientConfig));
  }

  /** The endpoint; throws the usage error telling how to set one when there is none. */
  public URI requireEndpoint() {
    if (endpoint == null) {
      throw new UsageException(
          "no endpoint: pass --endpoint http://host:port, set TASKLANE_ENDPOINT, or write"
              + " endpoint=... in ~/.config/tasklane/cli.properties");
    }
    return endpoint;
  }

  /** The token; throws the usage error telling how to set one when there is none. */
  public String requireToken() {
    if (token == null) {
      throw new UsageException(
          "no API token: set TASKLANE_TOKEN, pass --token-file FILE, or write token-file=... in"
              + " ~/.config/tasklane/cli.properties");
    }
    return token;
  }

  /** Parses and checks {@code text} as the endpoint: an http or https URL with a host. */
  static URI endpoint(String text) {
    String t = text.strip();
    while (t.endsWith("/")) {
      t = t.substring(0, t.length() - 1);
    }
    try {
      URI uri = new URI(t);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null
          || uri.getQuery() != null) {
        throw new UsageException(
            "endpoint '" + text + "' must be an http or https URL such as http://127.0.0.1:8080");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new UsageException("endpoint '" + text + "' is not a URL: " + e.getReason());
    }
  }

  private static String firstToken(
      String flag, Path flagFile, String flagName, String envToken, String envFile, Properties p) {
    if (flag != null) {
      return token(flag, "--token");
    }
    if (flagFile != null) {
      return tokenFile(flagFile, flagName);
    }
    if (envToken != null) {
      return token(envToken, "TASKLANE_TOKEN");
    }
    if (envFile != null) {
      return tokenFile(Path.of(envFile), "TASKLANE_TOKEN_FILE");
    }
    if (p.get("token") != null) {
      return token(p.getProperty("token"), "token (config file)");
    }
    if (p.get("token-file") != null) {
      return tokenFile(Path.of(p.getProperty("token-file")), "token-file (config file)");
    }
    return null;
  }

  private static String tokenFile(Path file, String source) {
    try {
      return token(Files.readString(file, StandardCharsets.UTF_8), source + " " + file);
    } catch (IOException e) {
      throw new UsageException(source + ": cannot read the token file " + file + ": " + e);
    }
  }

  /** The token without surrounding white space; a blank or multi-line token is refused. */
  private static String token(String text, String source) {
    String t = text.strip();
    if (t.isEmpty() || t.length() > 4096 || t.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
      throw new UsageException(
          source + ": the token must be 1 to 4096 printable ASCII characters without spaces");
    }
    return t;
  }

  private static Properties readConfig(Path flag, Map<String, String> env, Path home) {
    Path file = flag;
    boolean required = flag != null;
    if (file == null && env.get("TASKLANE_CONFIG") != null) {
      file = Path.of(env.get("TASKLANE_CONFIG"));
      required = true;
    }
    if (file == null) {
      String xdg = env.get("XDG_CONFIG_HOME");
      Path base = xdg == null || xdg.isBlank() ? home.resolve(".config") : Path.of(xdg);
      file = base.resolve("tasklane").resolve("cli.properties");
    }
    Properties p = new Properties();
    if (!Files.exists(file)) {
      if (required) {
        throw new UsageException("config file " + file + " does not exist");
      }
      return p;
    }
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw new UsageException("cannot read the config file " + file + ": " + e);
    }
    for (String key : p.stringPropertyNames()) {
      if (!KEYS.contains(key)) {
        throw new UsageException(
            "config file " + file + ": unknown key '" + key + "'; known keys: " + KEYS);
      }
    }
    return p;
  }

  private static String first(String flag, String env, Object file) {
    if (flag != null) {
      return flag;
    }
    return env != null ? env : (String) file;
  }
}
