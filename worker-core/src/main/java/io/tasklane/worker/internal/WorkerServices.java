package io.tasklane.worker.internal;

import io.tasklane.core.tracing.Tracing;
import io.tasklane.worker.IdempotencyStore;
import io.tasklane.worker.WorkerConfig;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What every handler's consumer and executions share; {@code attempts} are the attempts running now
 * (stopped by interrupts, listed in heartbeats).
 */
record WorkerServices(
    WorkerConfig config,
    Publisher publisher,
    IdempotencyStore store,
    ScheduledExecutorService timers,
    Clock clock,
    Tracing tracing,
    RunningAttempts attempts) {}
