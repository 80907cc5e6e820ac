package io.tasklane.testkit.internal;

import io.tasklane.testkit.KafkaUser;
import io.tasklane.testkit.LocalStackException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;

/** SCRAM users and topics through the super user's Admin client. Stateless; any thread. */
public final class KafkaUsers {
  private static final int ITERATIONS = 8192;

  private KafkaUsers() {}

  /**
   * Creates SCRAM user {@code name} with a random password on the broker secured by {@code
   * security} and blocks until it can log in.
   *
   * @param security the broker's security, null for a PLAINTEXT broker (refused)
   */
  public static KafkaUser create(
      Map<String, Object> adminProps, String name, KafkaSecurity security) {
    if (security == null) {
      throw new LocalStackException(
          "createKafkaUser needs a stack started with LocalStackConfig.Builder.kafkaSaslSsl(true)");
    }
    KafkaUser user =
        new KafkaUser(name, security.clientProperties(name, KafkaSecurity.randomPassword()));
    create(adminProps, user);
    return user;
  }

  /** Upserts the user's SCRAM-SHA-512 credential; blocks until it can log in (30 s at most). */
  public static void create(Map<String, Object> adminProps, KafkaUser user) {
    String jaas = user.securityProperties().get("sasl.jaas.config");
    String password = jaas.replaceAll(".*password=\"([^\"]*)\".*", "$1");
    try (Admin admin = Admin.create(adminProps)) {
      admin
          .alterUserScramCredentials(
              List.of(
                  new UserScramCredentialUpsertion(
                      user.name(),
                      new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, ITERATIONS),
                      password)))
          .all()
          .get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new LocalStackException("creating Kafka user " + user.name() + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalStackException("interrupted while creating Kafka user " + user.name(), e);
    }
    awaitLogin(adminProps, user);
  }

  /** Creates a topic with replication factor 1; blocks up to 30 s. */
  public static void createTopic(Map<String, Object> adminProps, String name, int partitions) {
    try (Admin admin = Admin.create(adminProps)) {
      admin
          .createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("creating topic " + name + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topic " + name, e);
    }
  }

  // The credential reaches the broker's cache through the metadata log, a moment after the reply.
  private static void awaitLogin(Map<String, Object> adminProps, KafkaUser user) {
    Map<String, Object> props =
        user.clientProperties((String) adminProps.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try (Admin admin = Admin.create(new HashMap<>(props))) {
        admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS);
        return;
      } catch (ExecutionException | TimeoutException e) {
        last = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LocalStackException("interrupted while waiting for user " + user.name(), e);
      }
      Processes.pause(200);
    }
    throw new LocalStackException(
        "Kafka user " + user.name() + " cannot log in 30 s after it was created: " + last, last);
  }
}
