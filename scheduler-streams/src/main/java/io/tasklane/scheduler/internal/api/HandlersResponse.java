package io.tasklane.scheduler.internal.api;

import java.util.List;

/**
 * {@code GET /api/handlers}: every handler with a topic, a worker or a setting.
 *
 * @param handlers the handlers by name
 * @param partial whether an instance did not answer (their figures are missing)
 * @param missing the instances that did not answer, {@code host:port}
 */
public record HandlersResponse(
    List<HandlerResponse> handlers, boolean partial, List<String> missing) {}
