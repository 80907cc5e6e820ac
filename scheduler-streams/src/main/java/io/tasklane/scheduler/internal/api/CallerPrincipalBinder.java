package io.tasklane.scheduler.internal.api;

import io.micronaut.core.annotation.Internal;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.binders.TypedRequestArgumentBinder;
import jakarta.inject.Singleton;
import java.security.Principal;
import java.util.Optional;

/**
 * Binds a {@link Principal} argument (the health endpoint's, which shows its details only to a
 * caller: {@code details-visible: AUTHENTICATED}) to the caller {@link TokenFilter} set on the
 * request, none for an anonymous one. Micronaut binds a principal only with micronaut-security,
 * which the scheduler does without. Runs on the event loop.
 */
@Singleton
@Internal
final class CallerPrincipalBinder implements TypedRequestArgumentBinder<Principal> {
  private static final Argument<Principal> TYPE = Argument.of(Principal.class);

  @Override
  public Argument<Principal> argumentType() {
    return TYPE;
  }

  @Override
  public BindingResult<Principal> bind(
      ArgumentConversionContext<Principal> context, HttpRequest<?> source) {
    Optional<Principal> caller = source.getUserPrincipal();
    return caller.isPresent() ? () -> caller : BindingResult.empty();
  }
}
