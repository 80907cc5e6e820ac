package io.tasklane.cli;

import io.tasklane.cli.internal.ApiException;
import io.tasklane.cli.internal.AuditCommand;
import io.tasklane.cli.internal.BatchesCommand;
import io.tasklane.cli.internal.CliSettings;
import io.tasklane.cli.internal.CompletionCommand;
import io.tasklane.cli.internal.Console;
import io.tasklane.cli.internal.Exit;
import io.tasklane.cli.internal.HandlersCommand;
import io.tasklane.cli.internal.LimitsCommand;
import io.tasklane.cli.internal.ReportCommand;
import io.tasklane.cli.internal.SchedulesCommand;
import io.tasklane.cli.internal.Session;
import io.tasklane.cli.internal.TasksCommand;
import io.tasklane.cli.internal.TopicsCommand;
import io.tasklane.cli.internal.UnreachableException;
import io.tasklane.cli.internal.UsageException;
import io.tasklane.cli.internal.WorkersCommand;
import io.tasklane.core.WireFormatException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * {@code tasklane}: the operator's command line for the scheduler's HTTP API (tasks, handlers,
 * workers, schedules, reports, audit) and for Tasklane's topics. Exit codes: 0 done, 1 the API
 * answered an error, 2 a usage error, 3 the endpoint (or broker) cannot be reached, 4 a bulk job
 * finished with failures, 5 an action was ignored or is still pending (docs/cli.md). One instance
 * per run, on the main thread.
 */
@Command(
    name = "tasklane",
    scope = ScopeType.INHERIT,
    mixinStandardHelpOptions = true,
    versionProvider = TasklaneCli.Version.class,
    sortOptions = false,
    description =
        "Operate Tasklane: tasks, handlers, limits, workers, schedules, batches, reports, audit,"
            + " topics.",
    subcommands = {
      TasksCommand.class,
      HandlersCommand.class,
      LimitsCommand.class,
      WorkersCommand.class,
      SchedulesCommand.class,
      BatchesCommand.class,
      ReportCommand.class,
      AuditCommand.class,
      TopicsCommand.class,
      CompletionCommand.class
    },
    footerHeading = "%nSettings:%n",
    footer = {
      "  flag > environment > config file. Environment: TASKLANE_ENDPOINT,",
      "  TASKLANE_TOKEN, TASKLANE_TOKEN_FILE. Config file: --config, TASKLANE_CONFIG",
      "  or ~/.config/tasklane/cli.properties (endpoint=..., token-file=...).",
      "  Prefer TASKLANE_TOKEN or a token file to --token, which others see in ps.",
      "%nExit codes:",
      "  0 ok, 1 API error (4xx/5xx), 2 usage error, 3 endpoint unreachable,",
      "  4 bulk job finished with failures, 5 action ignored or still pending.",
      "%nExamples:",
      "  export TASKLANE_ENDPOINT=http://127.0.0.1:8080",
      "  export TASKLANE_TOKEN_FILE=~/.tasklane-token",
      "  tasklane tasks list --state DEAD --handler order.cancel",
      "  tasklane tasks retry --state DEAD --handler order.cancel --since 1h",
      "  tasklane topics tail tasklane.tasks --bootstrap-servers 127.0.0.1:9092"
    })
public final class TasklaneCli implements Session.Source {
  @Option(
      names = "--endpoint",
      scope = ScopeType.INHERIT,
      paramLabel = "URL",
      description = "the scheduler's API, e.g. http://127.0.0.1:8080 (env TASKLANE_ENDPOINT)")
  String endpoint;

  @Option(
      names = "--token-file",
      scope = ScopeType.INHERIT,
      paramLabel = "FILE",
      description = "file holding the API token (env TASKLANE_TOKEN_FILE)")
  Path tokenFile;

  @Option(
      names = "--token",
      scope = ScopeType.INHERIT,
      paramLabel = "TOKEN",
      description = "the API token; visible in ps: prefer env TASKLANE_TOKEN or --token-file")
  String token;

  @Option(
      names = "--config",
      scope = ScopeType.INHERIT,
      paramLabel = "FILE",
      description = "settings file (default ~/.config/tasklane/cli.properties)")
  Path config;

  @Option(
      names = "--json",
      scope = ScopeType.INHERIT,
      description = "print the API's JSON as it comes, for scripts")
  boolean json;

  private final Console console;
  private Session session;

  /** A run on the process's streams, environment and clock. */
  public TasklaneCli() {
    this(
        new Console(
            new PrintWriter(System.out, true, StandardCharsets.UTF_8),
            new PrintWriter(System.err, true, StandardCharsets.UTF_8),
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
            System.getenv(),
            Path.of(System.getProperty("user.home")),
            Clock.systemUTC()));
  }

  /** A run on {@code console} (tests give their own streams, environment and clock). */
  public TasklaneCli(Console console) {
    this.console = console;
  }

  /** Parses {@code args}, runs the command and answers its exit code. */
  public static int run(Console console, String... args) {
    return commandLine(new TasklaneCli(console)).execute(args);
  }

  /** The picocli command line of {@code cli}: its streams and the exit codes of its exceptions. */
  public static CommandLine commandLine(TasklaneCli cli) {
    CommandLine cl = new CommandLine(cli);
    cl.setOut(cli.console.out());
    cl.setErr(cli.console.err());
    cl.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          PrintWriter err = cli.console.err();
          int code;
          if (e instanceof ApiException) {
            code = Exit.API_ERROR;
          } else if (e instanceof UnreachableException) {
            code = Exit.UNREACHABLE;
          } else if (e instanceof UsageException) {
            code = Exit.USAGE;
          } else if (e instanceof WireFormatException) {
            code = Exit.API_ERROR;
          } else {
            throw e;
          }
          err.println("tasklane: " + e.getMessage());
          if (code == Exit.USAGE) {
            err.println("(see " + commandLine.getCommandSpec().qualifiedName() + " --help)");
          }
          err.flush();
          return code;
        });
    return cl;
  }

  @Override
  public Session session() {
    if (session == null) {
      CliSettings settings =
          CliSettings.resolve(
              new CliSettings.Flags(endpoint, token, tokenFile, config, null, null),
              console.env(),
              console.home());
      session = new Session(console, settings, json);
    }
    return session;
  }

  public static void main(String[] args) {
    // The Kafka client of `topics tail` logs through slf4j-simple: warnings only, on stderr.
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.exit(run(new TasklaneCli().console, args));
  }

  /** {@code --version}: the CLI's version from its jar. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = TasklaneCli.class.getPackage().getImplementationVersion();
      return new String[] {"tasklane " + (v == null ? "(development build)" : v)};
    }
  }
}
