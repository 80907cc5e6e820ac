# shellcheck shell=bash
# mvn_build ARGS...: ./mvnw ARGS, offline first (fast, no network) and online only if the offline
# attempt cannot resolve something (a fresh machine). The offline attempt's output goes to a log
# file, so a fresh machine does not see a wall of "[ERROR] ... offline mode" lines before the
# online build runs; a real build failure still shows the online build's own output.
# Holds the machine-wide Maven lock unless the caller already does: TASKLANE_MVN_LOCKED is set, or
# a process this script runs under is `flock <the lock> ...` (as in `flock /tmp/tasklane-mvn.lock
# bin/bench`; waiting for that lock again would wait for ourselves forever).
TASKLANE_ROOT_FOR_MVN="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# lock_held_above LOCK: true when an ancestor of this shell (up to and including PID 1) is a flock
# process holding LOCK: its executable is flock and one of its arguments is LOCK (paths compared
# after resolving them, a relative one against that process's working directory).
lock_held_above() {
  local lock pid exe arg path
  lock="$(realpath -m -- "$1")"
  pid="$(ps -o ppid= -p $$ 2>/dev/null | tr -d ' ')"
  while [ -n "$pid" ] && [ "$pid" -ge 1 ]; do
    exe="$(readlink "/proc/$pid/exe" 2>/dev/null || true)"
    if [ "${exe##*/}" = flock ]; then
      while IFS= read -r -d '' arg; do
        case "$arg" in
          /*) path="$arg" ;;
          *) path="/proc/$pid/cwd/$arg" ;;
        esac
        [ "$(realpath -m -- "$path" 2>/dev/null)" = "$lock" ] && return 0
      done <"/proc/$pid/cmdline"
    fi
    [ "$pid" -eq 1 ] && break
    pid="$(ps -o ppid= -p "$pid" 2>/dev/null | tr -d ' ')"
  done
  return 1
}

mvn_build() {
  local root="$TASKLANE_ROOT_FOR_MVN" lock log
  lock=()
  local lockfile="${TASKLANE_MVN_LOCK:-/tmp/tasklane-mvn.lock}"
  if [ -z "${TASKLANE_MVN_LOCKED:-}" ] && command -v flock >/dev/null 2>&1 \
    && ! lock_held_above "$lockfile"; then
    lock=(flock "$lockfile")
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

# hold_mvn_lock NAME: takes the machine-wide Maven lock for the rest of the calling script (fd 9)
# unless it is held already (TASKLANE_MVN_LOCKED, or a `flock <the lock>` this script runs under),
# and exports TASKLANE_MVN_LOCKED so that children do not wait for it.
hold_mvn_lock() {
  local lockfile="${TASKLANE_MVN_LOCK:-/tmp/tasklane-mvn.lock}"
  if [ -z "${TASKLANE_MVN_LOCKED:-}" ] && command -v flock >/dev/null 2>&1 \
    && ! lock_held_above "$lockfile"; then
    exec 9>"$lockfile"
    if ! flock -n 9; then
      echo "$1: waiting for the Maven lock $lockfile"
      flock 9
    fi
  fi
  export TASKLANE_MVN_LOCKED=1
}
