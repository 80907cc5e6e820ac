package io.tasklane.worker.internal;

import io.micronaut.core.annotation.AnnotationValue;
import io.tasklane.worker.Recurring;

/**
 * One {@link Recurring} annotation as found at start-up: the handler it runs, where it was found
 * (for error messages) and its attribute values (defaults omitted, as Micronaut keeps them).
 */
record RecurringSpec(String handler, String source, AnnotationValue<Recurring> value) {}
