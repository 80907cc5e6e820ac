package io.tasklane.scheduler.internal.api;

/**
 * {@code POST /api/tasks/bulk/<action>}: the bulk job started (202); its progress is at {@code GET
 * /api/jobs/{job}} ({@link JobResponse}).
 *
 * @param job the job's id
 */
public record JobStartedResponse(String job) {}
