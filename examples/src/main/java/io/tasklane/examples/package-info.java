/**
 * The demo order service: the requirements' cases (email after order creation, cancel unpaid orders
 * after a delay, pay cancels that task in the same transaction, a flaky partner call, a task that
 * always fails, a dependency chain, duplicate submissions) on Tasklane's real pipeline.
 */
package io.tasklane.examples;
