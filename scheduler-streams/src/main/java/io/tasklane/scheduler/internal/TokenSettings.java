package io.tasklane.scheduler.internal;

import io.tasklane.core.config.ConfigKeys;
import io.tasklane.core.config.ConfigSource;
import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code tasklane.scheduler.api.tokens}: the list form ({@code name:token:role,...}) or the map
 * form ({@code api.tokens.<name>: token:role}), each entry checked, a refusal naming the entry by
 * its place and never showing a secret.
 */
final class TokenSettings {
  private static final String P = ConfigLoader.P;

  private TokenSettings() {}

  /**
   * {@code api.tokens} as a list {@code name:token:role,...} (or the older {@code token:role},
   * named after a hash of the token), or as a map: {@code api.tokens.<name>: token:role} (or the
   * older {@code api.tokens.<token>: role}). A two-field entry is the older form only when its last
   * field is a role; any other is refused. A message about an entry never holds its token: it names
   * the entry by its name, or, where a field may be the token (a two-field entry, a name that looks
   * like a token, a role that is not one), by its position alone.
   */
  static List<ApiToken> tokens(ConfigSource c) {
    Map<String, String> byName = new TreeMap<>();
    c.values()
        .forEach(
            (k, v) -> {
              String name = ConfigKeys.freeSegment("api.tokens.*", k);
              if (name != null) {
                byName.put(name, v);
              }
            });
    List<ApiToken> out = new ArrayList<>();
    if (byName.isEmpty()) {
      String list = c.string("api.tokens");
      String[] entries = (list == null ? "" : list).split(",", -1);
      for (int i = 0; i < entries.length; i++) {
        if (!entries[i].isBlank()) {
          out.add(listEntry(i + 1, entries[i]));
        }
      }
    } else {
      int i = 0;
      for (Map.Entry<String, String> e : byName.entrySet()) {
        out.add(mapEntry(++i, e.getKey(), e.getValue()));
      }
    }
    return out;
  }

  private static final String SYNTAX =
      "; the syntax is name:token:role (role viewer, operator or admin; a token holds no ':' or"
          + " ',')";

  /** Entry {@code n} (from 1) of the comma-separated list. */
  private static ApiToken listEntry(int n, String entry) {
    String where = P + "api.tokens: entry " + n;
    String[] f = entry.split(":", -1);
    if (f.length < 2) {
      throw new SchedulerException(where + " has no ':' (not shown: it may be a token)" + SYNTAX);
    }
    if (f.length == 2) {
      return older(where, f[0].trim(), f[1]);
    }
    String name = f[0].trim();
    String shown = name.matches("[a-zA-Z0-9._@-]{1,64}") ? ApiToken.label(name) : null;
    if (f.length > 3) {
      throw new SchedulerException(
          where
              + (shown == null ? "" : " (" + shown + ")")
              + " has "
              + f.length
              + " fields separated by ':' (not shown: one is a token)"
              + SYNTAX);
    }
    return new ApiToken(name, f[1].trim(), role(where, shown, f[2]));
  }

  /** Entry {@code n} (from 1, in key order) of the map {@code api.tokens.<key>: value}. */
  private static ApiToken mapEntry(int n, String key, String value) {
    String where = P + "api.tokens.*: entry " + n + " in key order";
    String[] f = value.split(":", -1);
    if (f.length == 1) {
      return older(where, key.trim(), value);
    }
    String name = key.trim();
    String shown = name.matches("[a-zA-Z0-9._@-]{1,64}") ? ApiToken.label(name) : null;
    if (f.length > 2) {
      throw new SchedulerException(
          where
              + (shown == null ? "" : " (" + shown + ")")
              + " has "
              + f.length
              + " fields separated by ':' in its value (not shown: one is a token); write"
              + " api.tokens.<name>: token:role, a token holds no ':' or ','");
    }
    return new ApiToken(name, f[0].trim(), role(where, shown, f[1]));
  }

  /**
   * The older form, {@code token:role} (or {@code api.tokens.<token>: role}): accepted only when
   * {@code role} is a role, for {@code name:token} with the role left out looks the same.
   */
  private static ApiToken older(String where, String token, String role) {
    SchedulerConfig.Role r = roleOrNull(role);
    if (r == null) {
      throw new SchedulerException(
          where
              + " has two fields and the second is not a role (viewer, operator or admin): was the"
              + " role left out? Neither field is shown, either may be the token"
              + SYNTAX);
    }
    return ApiToken.unnamed(token, r);
  }

  private static SchedulerConfig.Role role(String where, String shown, String role) {
    SchedulerConfig.Role r = roleOrNull(role);
    if (r == null) {
      throw new SchedulerException(
          where
              + (shown == null ? "" : " (" + shown + ")")
              + ": the role, the last field, must be viewer, operator or admin (not shown: it may"
              + " be a token in the wrong place)");
    }
    return r;
  }

  private static SchedulerConfig.Role roleOrNull(String role) {
    String r = role.trim().toUpperCase(Locale.ROOT);
    for (SchedulerConfig.Role candidate : SchedulerConfig.Role.values()) {
      if (candidate.name().equals(r)) {
        return candidate;
      }
    }
    return null;
  }
}
