package io.tasklane.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Puts a test class on the shared stack: constructors, {@code @BeforeAll} and test methods may take
 * a {@link LocalStack}, {@link StackHandle} or {@link ContainersStack} parameter. See {@link
 * LocalStackExtension}.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(LocalStackExtension.class)
public @interface TasklaneStack {}
