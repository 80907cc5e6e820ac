package io.tasklane.scheduler.internal.api;

/**
 * {@code DELETE /api/session}: the session cookie is cleared.
 *
 * @param signedOut whether the request carried a live session (now ended)
 */
public record SignOutResponse(boolean signedOut) {}
