/**
 * The outbox's framework wiring: the framework-neutral {@code @OutboxAsync} machinery ({@link
 * io.tasklane.outbox.internal.OutboxAsyncCalls}, used by the Micronaut interceptor and by the
 * Spring Boot starter's advice), and the Micronaut integration: the {@code TaskOutbox} bean joined
 * to Micronaut's Hibernate transaction, the {@code tasklane.outbox.*} configuration and the
 * {@code @OutboxAsync} interceptor. Micronaut beans are public only because dependency injection
 * needs it ({@code @Internal}).
 */
package io.tasklane.outbox.internal;
