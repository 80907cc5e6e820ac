package io.tasklane.spring.workerapp;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.data.jpa.JpaRepositoriesAutoConfiguration;
import org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** A worker application on plain JDBC whose handlers are Spring beans. */
// Spring Data JPA is on the test classpath for the JPA app; a JDBC-only app has neither.
@SpringBootApplication(
    exclude = {HibernateJpaAutoConfiguration.class, JpaRepositoriesAutoConfiguration.class})
public class WorkerApp {
  @Bean
  MeterRegistry meterRegistry() {
    return new SimpleMeterRegistry();
  }
}
