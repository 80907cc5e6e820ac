package io.tasklane.worker.micronaut.internal;

import io.micronaut.core.annotation.AnnotationValue;
import io.tasklane.worker.Recurring;
import java.lang.annotation.Annotation;

/**
 * A {@link Recurring} read from Micronaut's compile-time annotation metadata, which omits the
 * attributes left at their defaults: each absent one answers the annotation's default. Immutable.
 */
@SuppressWarnings("ClassExplicitlyAnnotation")
final class RecurringValue implements Recurring {
  private final AnnotationValue<Recurring> value;

  RecurringValue(AnnotationValue<Recurring> value) {
    this.value = value;
  }

  @Override
  public Class<? extends Annotation> annotationType() {
    return Recurring.class;
  }

  @Override
  public String name() {
    return value.stringValue("name").orElse(null);
  }

  @Override
  public String cron() {
    return text("cron");
  }

  @Override
  public String every() {
    return text("every");
  }

  @Override
  public String zone() {
    return text("zone");
  }

  @Override
  public String misfire() {
    return text("misfire");
  }

  @Override
  public String overlap() {
    return text("overlap");
  }

  @Override
  public String routing() {
    return text("routing");
  }

  @Override
  public int shards() {
    return value.intValue("shards").orElse(1);
  }

  @Override
  public String payload() {
    return text("payload");
  }

  @Override
  public int maxAttempts() {
    return value.intValue("maxAttempts").orElse(0);
  }

  @Override
  public String timeout() {
    return text("timeout");
  }

  @Override
  public String orderingKey() {
    return text("orderingKey");
  }

  @Override
  public String concurrencyKey() {
    return text("concurrencyKey");
  }

  @Override
  public int priority() {
    return value.intValue("priority").orElse(-1);
  }

  @Override
  public boolean enabled() {
    return value.booleanValue("enabled").orElse(true);
  }

  private String text(String member) {
    return value.stringValue(member).orElse("");
  }

  @Override
  public String toString() {
    return "@Recurring" + value.getValues();
  }
}
