/**
 * Starts Tasklane's apps (relay, scheduler, example worker) as separate JVMs on their modules'
 * runtime classpaths, as a user deploys them. Used by {@code bin/demo}, the end-to-end tests, the
 * benchmarks and the fault suite.
 */
package io.tasklane.examples.launch;
