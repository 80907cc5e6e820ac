/**
 * OpenTelemetry set-up shared by the relay, the scheduler and the worker runtime: off unless an
 * {@code otel.*} exporter is configured (docs/tracing.md).
 */
package io.tasklane.core.tracing;
