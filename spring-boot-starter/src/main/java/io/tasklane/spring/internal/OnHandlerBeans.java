package io.tasklane.spring.internal;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when a bean definition of the context is a handler bean ({@link
 * SpringHandlerBeans#isHandler}): an app that only enqueues gets no worker, and needs no Kafka
 * settings. Evaluated while auto-configurations are registered, after the application's own bean
 * definitions (scanned and {@code @Bean}); types are resolved without creating any bean.
 */
final class OnHandlerBeans extends SpringBootCondition implements ConfigurationCondition {
  /** After every configuration class is parsed, so {@code @Bean} handlers count too. */
  @Override
  public ConfigurationPhase getConfigurationPhase() {
    return ConfigurationPhase.REGISTER_BEAN;
  }

  @Override
  public ConditionOutcome getMatchOutcome(
      ConditionContext context, AnnotatedTypeMetadata metadata) {
    ConfigurableListableBeanFactory beans = context.getBeanFactory();
    if (beans != null) {
      for (String name : beans.getBeanDefinitionNames()) {
        Class<?> type;
        try {
          type = beans.getType(name, false);
        } catch (RuntimeException | LinkageError e) {
          continue; // not resolvable without creating it: not a handler we can see
        }
        if (type != null && SpringHandlerBeans.isHandler(type)) {
          return ConditionOutcome.match("handler bean " + name);
        }
      }
    }
    return ConditionOutcome.noMatch("no @TaskHandler, TypedHandler or @OutboxAsync bean");
  }
}
