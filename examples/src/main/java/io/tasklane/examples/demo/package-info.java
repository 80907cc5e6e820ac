/**
 * The {@code bin/demo} driver: starts the local stack and the relay, scheduler and worker as
 * separate processes, runs the order scenario, shows progress, verifies every invariant against the
 * database and stops everything it started.
 */
package io.tasklane.examples.demo;
