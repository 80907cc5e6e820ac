/**
 * The launch recipe of the example worker, next to the relay's and the scheduler's in {@link
 * io.tasklane.harness.TasklaneApps}. Used by {@code bin/demo}, the end-to-end tests and the fault
 * suite.
 */
package io.tasklane.examples.launch;
