/**
 * Micronaut wiring of the outbox: the {@code TaskOutbox} bean joined to Micronaut's Hibernate
 * transaction, the {@code tasklane.outbox.*} configuration and the {@code @OutboxAsync}
 * interceptor. Beans are public only because dependency injection needs it ({@code @Internal}).
 */
package io.tasklane.outbox.internal;
