/**
 * The scheduler's machinery: the Kafka Streams topology (processors, stores, the due-index
 * punctuator), the handler-topic watcher, metrics and the Micronaut beans of the app. Nothing here
 * is API; it may change in any release.
 */
package io.tasklane.scheduler.internal;
