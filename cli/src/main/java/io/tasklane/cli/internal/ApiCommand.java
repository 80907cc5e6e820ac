package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command of the CLI: reaches the run's {@link Session} through the root command, prints tables
 * or, with {@code --json}, the API's JSON as it came. Runs on the main thread.
 */
public abstract class ApiCommand implements Callable<Integer> {
  @Spec protected CommandSpec spec;

  protected Session session() {
    return ((Session.Source) spec.root().userObject()).session();
  }

  protected ApiClient api() {
    return session().api();
  }

  protected PrintWriter out() {
    return session().console().out();
  }

  protected boolean json() {
    return session().json();
  }

  /** Prints {@code body} (the API's JSON) as it came, one document, then a line break. */
  protected void printJson(String body) {
    out().println(body.strip());
    out().flush();
  }

  /** Prints a JSON tree as one compact document. */
  protected void printJson(JsonNode node) {
    printJson(WireCodec.encodeToString(node));
  }

  /** {@code node}'s text field, or null when missing or JSON null. */
  protected static String text(JsonNode node, String field) {
    JsonNode v = node.path(field);
    return v.isMissingNode() || v.isNull() ? null : v.asText();
  }
}
