/**
 * Batches of tasks with callbacks: the partition of a batch's key counts its members and their ends
 * and makes its callbacks exactly once ({@link io.tasklane.scheduler.internal.batches.BatchBook});
 * the partitions of its members tell it when they end ({@link
 * io.tasklane.scheduler.internal.batches.BatchNotices}). Stands on the lifecycle only.
 */
package io.tasklane.scheduler.internal.batches;
