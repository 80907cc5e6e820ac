/**
 * Tasklane on Spring Boot: auto-configuration of the {@code TaskOutbox} (on the application's JPA
 * {@code EntityManager} or {@code DataSource}, joining {@code @Transactional}) and of the worker
 * that runs the context's {@code @TaskHandler} and {@code TypedHandler} beans. The API is the
 * settings class {@link io.tasklane.spring.TasklaneWorkerProperties}; the machinery lives in {@code
 * io.tasklane.spring.internal}.
 */
package io.tasklane.spring;
