/** Scenario machinery of the benchmarks: launching, enqueuing, measuring, reporting. */
package io.tasklane.bench.internal;
