package io.tasklane.cli.internal;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tasklane generate-completion}: prints the bash/zsh completion script of the CLI. */
@Command(
    name = "generate-completion",
    description = "Print the bash (and zsh) completion script of tasklane.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  source <(tasklane generate-completion)",
      "  tasklane generate-completion > /etc/bash_completion.d/tasklane"
    })
public final class CompletionCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    var out = spec.commandLine().getOut();
    out.print(AutoComplete.bash(spec.root().name(), spec.root().commandLine()));
    out.flush();
    return Exit.OK;
  }
}
