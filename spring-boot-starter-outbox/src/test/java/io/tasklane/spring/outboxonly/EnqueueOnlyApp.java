package io.tasklane.spring.outboxonly;

import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * An application that only enqueues, started by {@code EnqueueOnlyAppTest} in its own JVM on the
 * enqueue-only dependency set: {@code main(jdbcUrl, user, password)} enqueues a keyless and a keyed
 * task and records an {@code @OutboxAsync} call in one transaction, prints {@code ENQUEUED <id>
 * <id>}, and exits 0 only when no Kafka class is loadable and no worker was configured.
 */
@SpringBootApplication
public class EnqueueOnlyApp {
  public static void main(String[] args) {
    SpringApplication app = new SpringApplication(EnqueueOnlyApp.class);
    app.setWebApplicationType(WebApplicationType.NONE);
    app.setDefaultProperties(
        java.util.Map.of(
            "spring.datasource.url", args[0],
            "spring.datasource.username", args[1],
            "spring.datasource.password", args[2]));
    int status;
    try (ConfigurableApplicationContext ctx = app.run()) {
      TaskOutbox outbox = ctx.getBean(TaskOutbox.class);
      Notifier notifier = ctx.getBean(Notifier.class);
      List<String> ids =
          new TransactionTemplate(ctx.getBean(PlatformTransactionManager.class))
              .execute(
                  tx -> {
                    String a = outbox.enqueue(TaskRequest.to("order.ship").payload("keyless"));
                    String b =
                        outbox.enqueue(TaskRequest.to("order.ship").key("k-1").payload("keyed"));
                    notifier.notify("enqueue-only");
                    return List.of(a, b);
                  });
      System.out.println("ENQUEUED " + ids.get(0) + " " + ids.get(1));
      status = ctx.containsBean("tasklaneWorker") ? 4 : 0;
    }
    try {
      Class.forName("org.apache.kafka.common.utils.Utils");
      status = 3;
    } catch (ClassNotFoundException expected) {
      // the Kafka client is absent, as it must be
    }
    System.exit(status);
  }
}
