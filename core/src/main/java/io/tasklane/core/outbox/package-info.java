/**
 * The outbox row contract: the columns of {@code tasklane_outbox} ({@link
 * io.tasklane.core.outbox.OutboxColumn}), the row kinds ({@link
 * io.tasklane.core.outbox.OutboxKind}), the typed row ({@link io.tasklane.core.outbox.OutboxRow}),
 * the mapping between rows and wire records ({@link io.tasklane.core.outbox.OutboxRows}) and the
 * table's DDL ({@link io.tasklane.core.outbox.OutboxDdl}). The outbox library writes rows with it;
 * the relay reads them with it. All types are immutable and thread-safe, except {@link
 * io.tasklane.core.outbox.OutboxRow.Builder}.
 */
package io.tasklane.core.outbox;
