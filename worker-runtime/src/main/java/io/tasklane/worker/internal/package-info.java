/**
 * Machinery of the worker runtime: handler discovery, one consumer thread and one pool per handler,
 * offset tracking, timeouts, result/log/dead-letter publishing, metrics. Not an API.
 */
package io.tasklane.worker.internal;
