package io.tasklane.spring.asyncapp;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.data.jpa.JpaRepositoriesAutoConfiguration;
import org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration;

/** An application on plain JDBC whose only Tasklane code is {@code @OutboxAsync} methods. */
// Spring Data JPA is on the test classpath for the JPA app; a JDBC-only app has neither.
@SpringBootApplication(
    exclude = {HibernateJpaAutoConfiguration.class, JpaRepositoriesAutoConfiguration.class})
public class AsyncApp {}
