/** Machinery of the chaos run: the process cluster, the load, the ledger and the verifier. */
package io.tasklane.chaos.internal;
