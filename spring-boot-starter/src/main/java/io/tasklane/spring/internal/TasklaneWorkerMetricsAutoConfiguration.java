package io.tasklane.spring.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.tasklane.worker.internal.MicrometerWorkerMetrics;
import io.tasklane.worker.spi.WorkerMetrics;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The worker's Micrometer meters (the names of the Micronaut worker's, from the neutral {@link
 * MicrometerWorkerMetrics}) when Micrometer is on the classpath; the registry is the context's
 * {@link MeterRegistry} bean, looked up when the worker is created (none: no meters).
 */
@AutoConfiguration(before = TasklaneWorkerAutoConfiguration.class)
@ConditionalOnClass({MeterRegistry.class, MicrometerWorkerMetrics.class})
@Conditional(OnHandlerBeans.class)
public class TasklaneWorkerMetricsAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean(WorkerMetrics.class)
  WorkerMetrics tasklaneWorkerMetrics(ObjectProvider<MeterRegistry> registry) {
    MeterRegistry r = registry.getIfUnique();
    return r == null ? WorkerMetrics.NOOP : new MicrometerWorkerMetrics(r);
  }
}
