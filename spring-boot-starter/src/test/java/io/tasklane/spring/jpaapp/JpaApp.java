package io.tasklane.spring.jpaapp;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** An application with JPA (Hibernate on MariaDB) that enqueues in @Transactional methods. */
@SpringBootApplication
public class JpaApp {}
