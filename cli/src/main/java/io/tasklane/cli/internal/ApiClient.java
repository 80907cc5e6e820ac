package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The scheduler's HTTP API as the CLI calls it: JSON in and out, {@code Authorization: Bearer} on
 * every request. A 4xx/5xx answer throws {@link ApiException} with the API's message; no answer at
 * all throws {@link UnreachableException}. Used on the command's thread; one per run.
 */
public final class ApiClient {
  /** How long one request may take; a bulk job or a --wait is followed with several requests. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private final URI endpoint;
  private final String token;
  private final HttpClient http;

  public ApiClient(URI endpoint, String token) {
    this.endpoint = endpoint;
    this.token = token;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  }

  /** One answer: its status and body. */
  public record Reply(int status, String body) {
    /** The body as JSON (an empty body is an empty object). */
    public JsonNode json() {
      return body.isBlank() ? WireCodec.mapper().createObjectNode() : WireCodec.readTree(body);
    }
  }

  /** GET {@code path} with {@code query} (null values left out). */
  public Reply get(String path, Map<String, String> query) {
    return send("GET", path, query, null);
  }

  /** POST {@code path} with {@code query} and an optional JSON {@code body}. */
  public Reply post(String path, Map<String, String> query, JsonNode body) {
    return send("POST", path, query, body);
  }

  /** PUT {@code path} with a JSON {@code body}. */
  public Reply put(String path, JsonNode body) {
    return send("PUT", path, Map.of(), body);
  }

  /** DELETE {@code path}. */
  public Reply delete(String path) {
    return send("DELETE", path, Map.of(), null);
  }

  private Reply send(String method, String path, Map<String, String> query, JsonNode body) {
    URI uri = URI.create(endpoint + path + queryString(query));
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .timeout(REQUEST_TIMEOUT)
            .header("Accept", "application/json")
            .header("Authorization", "Bearer " + token);
    if (body != null) {
      b.header("Content-Type", "application/json");
      b.method(method, HttpRequest.BodyPublishers.ofString(WireCodec.encodeToString(body)));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<String> r;
    try {
      r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpConnectTimeoutException | ConnectException e) {
      throw unreachable(e);
    } catch (HttpTimeoutException e) {
      throw new UnreachableException(
          method + " " + uri.getPath() + ": no answer from " + endpoint + " in " + REQUEST_TIMEOUT,
          e);
    } catch (IOException e) {
      throw unreachable(e);
    } catch (IllegalArgumentException e) { // UnresolvedAddressException: an unknown host
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UnreachableException("interrupted while waiting for " + endpoint, e);
    }
    if (r.statusCode() >= 400) {
      throw error(method, uri.getPath(), r);
    }
    return new Reply(r.statusCode(), r.body());
  }

  private UnreachableException unreachable(Exception e) {
    Throwable t = e;
    while (t.getMessage() == null && t.getCause() != null) {
      t = t.getCause();
    }
    String why = t.getMessage() == null ? "connection refused or reset" : t.getMessage();
    return new UnreachableException("cannot reach " + endpoint + ": " + why, e);
  }

  /** The API's {@code {"error","message"}} (older answers carry only {@code error}). */
  static ApiException error(String method, String path, HttpResponse<String> r) {
    String code = null;
    String message = null;
    try {
      JsonNode j = WireCodec.readTree(r.body());
      code = j.path("error").isTextual() ? j.path("error").asText() : null;
      message = j.path("message").isTextual() ? j.path("message").asText() : null;
    } catch (WireFormatException e) {
      // not JSON: a proxy's page or a plain text error; its first line is the message
    }
    if (message == null) {
      message = code != null ? code : firstLine(r.body());
    }
    String text = method + " " + path + " answered " + r.statusCode() + ": " + message;
    return new ApiException(r.statusCode(), code, text);
  }

  private static String firstLine(String body) {
    String s = body == null ? "" : body.strip();
    int nl = s.indexOf('\n');
    s = nl < 0 ? s : s.substring(0, nl);
    return s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }

  /** {@code ?k=v&...} of the non-null values, URL-encoded; empty when there are none. */
  static String queryString(Map<String, String> query) {
    StringJoiner j = new StringJoiner("&", "?", "").setEmptyValue("");
    query.forEach(
        (k, v) -> {
          if (v != null) {
            j.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8));
          }
        });
    return j.toString();
  }

  /** {@code segment} URL-encoded as one path segment (a task id, a handler or schedule name). */
  public static String segment(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
