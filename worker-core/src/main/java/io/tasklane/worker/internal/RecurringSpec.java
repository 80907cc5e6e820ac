package io.tasklane.worker.internal;

import io.tasklane.worker.Recurring;

/**
 * One {@link Recurring} annotation as found at start-up: the handler it runs, where it was found
 * (for error messages) and the annotation (empty strings and zeros meaning the defaults).
 */
record RecurringSpec(String handler, String source, Recurring value) {}
