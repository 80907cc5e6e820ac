package io.tasklane.spring.recurringapp;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.data.jpa.JpaRepositoriesAutoConfiguration;
import org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration;

/** A worker application whose handler beans carry {@code @Recurring} schedules. */
// Spring Data JPA is on the test classpath for the JPA app; a JDBC-only app has neither.
@SpringBootApplication(
    exclude = {HibernateJpaAutoConfiguration.class, JpaRepositoriesAutoConfiguration.class})
public class RecurringApp {}
