/**
 * What {@code bin/demo}, {@code bin/bench} and {@code bin/chaos} share: the launch recipes of
 * Tasklane's apps as separate JVMs ({@link io.tasklane.harness.TasklaneApps}), the tracking and
 * shutdown of everything a run starts ({@link io.tasklane.harness.RunScope}), free ports, the demo
 * database ({@link io.tasklane.harness.Database}), topic reading and verdicts for verifiers, and
 * the command-line handling ({@link io.tasklane.harness.Cli}).
 */
package io.tasklane.harness;
