package io.tasklane.core;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.acl.AclBinding;

/**
 * {@code bin/kafka-acls-tasklane}: prints or creates the {@link TasklaneAcls} of one app principal.
 * Runs on the caller's thread.
 *
 * <pre>
 * --role relay|scheduler|worker|operator  --principal User:NAME  [--namespace tasklane]
 * [--name NAME] [--handlers a,b] [--exactly-once] [--recurring]
 * [--bootstrap-servers HOST:PORT --command-config admin.properties | --dry-run]
 * </pre>
 */
public final class AclTool {
  private AclTool() {}

  public static void main(String[] args) {
    try {
      System.exit(run(args, System.out));
    } catch (IllegalArgumentException | TasklaneException e) {
      System.err.println("kafka-acls-tasklane: " + e.getMessage());
      System.exit(2);
    }
  }

  /** Parses, prints each binding, and creates them unless {@code --dry-run}; returns 0. */
  public static int run(String[] args, PrintStream out) {
    Map<String, String> a = parse(args);
    TasklaneAcls.Role role = role(required(a, "role"));
    Topics topics = new Topics(a.getOrDefault("namespace", Topics.DEFAULT_NAMESPACE));
    String name = a.containsKey("name") ? a.get("name") : defaultName(role, topics);
    List<String> handlers =
        a.containsKey("handlers") ? Arrays.asList(a.get("handlers").split(",")) : List.of();
    var grant =
        new TasklaneAcls.Grant(
            name, handlers, a.containsKey("exactly-once"), a.containsKey("recurring"));
    List<AclBinding> bindings =
        TasklaneAcls.bindings(role, topics, required(a, "principal"), grant);
    bindings.forEach(b -> out.println(b));
    if (a.containsKey("dry-run")) {
      return 0;
    }
    Map<String, Object> props = new HashMap<>(load(a.get("command-config")));
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, required(a, "bootstrap-servers"));
    try (Admin admin = Admin.create(props)) {
      apply(admin, bindings);
    }
    out.println("created " + bindings.size() + " ACLs");
    return 0;
  }

  /** Creates {@code bindings} (existing ones are left as they are); blocks up to 30 s. */
  public static void apply(Admin admin, List<AclBinding> bindings) {
    try {
      admin.createAcls(bindings).all().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new TasklaneException("creating ACLs failed: " + e.getCause(), e);
    } catch (TimeoutException e) {
      throw new TasklaneException("creating ACLs timed out after 30 s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TasklaneException("interrupted while creating ACLs", e);
    }
  }

  private static String defaultName(TasklaneAcls.Role role, Topics topics) {
    return switch (role) {
      case RELAY ->
          throw new IllegalArgumentException(
              "--name is required for relay (its tasklane.relay.name, default tasklane_relay_<db>)");
      case SCHEDULER -> topics.namespace() + "-scheduler";
      case WORKER -> topics.namespace() + "-worker";
      case OPERATOR -> topics.namespace() + "-operator";
    };
  }

  private static TasklaneAcls.Role role(String value) {
    try {
      return TasklaneAcls.Role.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--role must be relay, scheduler, worker or operator, got " + value);
    }
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String key = args[i];
      if (!key.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument " + key);
      }
      key = key.substring(2);
      if (key.equals("exactly-once") || key.equals("dry-run") || key.equals("recurring")) {
        a.put(key, "true");
      } else if (i + 1 < args.length) {
        a.put(key, args[++i]);
      } else {
        throw new IllegalArgumentException("--" + key + " needs a value");
      }
    }
    return a;
  }

  private static String required(Map<String, String> a, String key) {
    String v = a.get(key);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException("--" + key + " is required");
    }
    return v;
  }

  private static Map<String, String> load(String file) {
    Map<String, String> m = new HashMap<>();
    if (file == null) {
      return m;
    }
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(Path.of(file))) {
      p.load(in);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read --command-config " + file + ": " + e, e);
    }
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
    return m;
  }
}
