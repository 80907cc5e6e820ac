package io.tasklane.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The payload of a task recorded by an after-commit method ({@code @OutboxAsync} in outbox-lib) and
 * executed by worker-runtime, which looks up the bean and invokes the method with the JSON-decoded
 * arguments.
 *
 * @param beanType fully qualified class (or interface) the bean is looked up by
 * @param method method name
 * @param parameterTypes fully qualified parameter types, to pick the overload
 * @param args the arguments, a JSON array in parameter order
 */
public record MethodCall(
    String beanType, String method, List<String> parameterTypes, JsonNode args) {

  /** The handler name of after-commit method tasks unless the annotation names another. */
  public static final String DEFAULT_HANDLER = "tasklane.method";

  public MethodCall {
    parameterTypes = parameterTypes == null ? List.of() : List.copyOf(parameterTypes);
  }
}
