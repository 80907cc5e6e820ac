package io.tasklane.chaos.compose;

import io.tasklane.core.MethodCall;
import io.tasklane.outbox.OutboxAsync;
import io.tasklane.worker.TaskHandler;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** The handler names the example worker (examples' WorkerApp) registers, read from its classes. */
final class ExampleHandlers {
  private ExampleHandlers() {}

  /** Every {@code @TaskHandler} name in examples/src/main, and the method handler if needed. */
  static Set<String> names() throws IOException, ClassNotFoundException {
    Path src = ComposeFileTest.HOME.resolve("examples/src/main/java");
    Set<String> names = new TreeSet<>();
    try (Stream<Path> files = Files.walk(src)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String rel = src.relativize(f).toString();
        if (rel.endsWith("package-info.java")) {
          continue;
        }
        String name = rel.substring(0, rel.length() - 5).replace('/', '.');
        for (Method m :
            Class.forName(name, false, ExampleHandlers.class.getClassLoader())
                .getDeclaredMethods()) {
          TaskHandler h = m.getAnnotation(TaskHandler.class);
          if (h != null) {
            names.add(h.value());
          }
          if (m.isAnnotationPresent(OutboxAsync.class)) {
            names.add(MethodCall.DEFAULT_HANDLER);
          }
        }
      }
    }
    return names;
  }
}
