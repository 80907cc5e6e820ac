package io.tasklane.cli.internal;

import picocli.CommandLine.Command;

/** {@code tasklane tasks}: the task commands. */
@Command(
    name = "tasks",
    description = "Find, inspect and act on tasks.",
    subcommands = {
      TaskListCommand.class,
      TaskShowCommand.class,
      TaskLogsCommand.class,
      TaskActionCommand.Cancel.class,
      TaskActionCommand.Retry.class,
      TaskActionCommand.Discard.class,
      TaskActionCommand.Trigger.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  tasklane tasks list --state DEAD --since 1h",
      "  tasklane tasks show 0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10",
      "  tasklane tasks retry --state DEAD --handler order.cancel --yes"
    })
public final class TasksCommand {}
