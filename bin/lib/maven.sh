# shellcheck shell=bash
# mvn_build ARGS...: ./mvnw ARGS, offline first (fast, no network) and online only if the offline
# attempt cannot resolve something (a fresh machine). The offline attempt's output goes to a log
# file, so a fresh machine does not see a wall of "[ERROR] ... offline mode" lines before the
# online build runs; a real build failure still shows the online build's own output.
# Holds the machine-wide Maven lock unless the caller already does (TASKLANE_MVN_LOCKED).
TASKLANE_ROOT_FOR_MVN="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

mvn_build() {
  local root="$TASKLANE_ROOT_FOR_MVN" lock log
  lock=()
  if [ -z "${TASKLANE_MVN_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
    lock=(flock "${TASKLANE_MVN_LOCK:-/tmp/tasklane-mvn.lock}")
  fi
  mkdir -p "$root/target"
  log="$root/target/mvn-offline.log"
  if "${lock[@]}" "$root/mvnw" -o "$@" >"$log" 2>&1; then
    return 0
  fi
  if grep -qE 'offline mode|has not been downloaded|Cannot access' "$log"; then
    echo "(some dependencies are not in ~/.m2 yet: building online)" >&2
  else
    cat "$log" >&2
    echo "(the offline build failed, see above; trying once online)" >&2
  fi
  "${lock[@]}" "$root/mvnw" "$@"
}
