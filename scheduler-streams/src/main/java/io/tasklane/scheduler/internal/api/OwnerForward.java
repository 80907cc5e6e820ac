package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Asks the instance that owns a key ({@code application.server}) for the answer of a status read,
 * with the instances' shared inter-instance token — never the caller's token. Used by {@link
 * StatusQuery} and {@link ScheduleQuery} on Micronaut's blocking executor; thread-safe.
 */
@Singleton
@Internal
public final class OwnerForward {
  private final InterInstanceClient client;

  OwnerForward(InterInstanceClient client) {
    this.client = client;
  }

  /**
   * GETs {@code pathAndQuery} (already URL-encoded, ending in {@code forwarded=true}) from {@code
   * owner}: its status and body, or 502/503 naming {@code what} (e.g. "the task") when the owner
   * refuses the token or does not answer.
   */
  StatusQuery.Answer get(HostInfo owner, String pathAndQuery, String what) {
    URI uri =
        URI.create(client.scheme() + "://" + owner.host() + ":" + owner.port() + pathAndQuery);
    HttpRequest req =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", "Bearer " + client.token())
            .build();
    try {
      HttpResponse<String> resp = client.http().send(req, HttpResponse.BodyHandlers.ofString());
      if (resp.statusCode() == 401) {
        return error(
            502,
            "instance "
                + owner
                + " owns "
                + what
                + " but refused this instance's inter-instance token: give every"
                + " instance the same tasklane.scheduler.inter-instance-token");
      }
      return new StatusQuery.Answer(resp.statusCode(), resp.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return error(503, "interrupted");
    } catch (IOException e) {
      return error(502, "owner " + owner + " did not answer: " + e.getMessage());
    }
  }

  /** An error answer: {@link ErrorResponse} with the code of {@code status}. */
  public static StatusQuery.Answer error(int status, String message) {
    return ApiErrors.answer(status, ErrorResponse.code(status), message);
  }
}
