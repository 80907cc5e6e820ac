# shellcheck shell=bash
# ensure_built TOOL MODULE...: builds the checkout (./mvnw install -DskipTests, offline when
# possible) when one of the MODULEs has no target/app.classpath or target/classes yet, or when a
# main source of the libraries, the harness or the MODULEs is newer than the last MODULE's
# app.classpath (the last MODULE is the tool's own). Needs lib/maven.sh.
ensure_built() {
  local tool="$1"
  shift
  if is_stale "$@" -- core outbox-lib cdc-relay scheduler-streams worker-core worker-runtime testkit harness; then
    echo "$tool: building (./mvnw install -DskipTests)"
    mvn_build -B -q install -DskipTests -Dspotless.check.skip=true
    # the build leaves an unchanged classpath file as it was: mark this build's time on it
    touch "${@: -1}/target/app.classpath"
  fi
}

# ensure_module_built TOOL MODULE: as ensure_built, for a tool that needs only MODULE and the
# modules it depends on (./mvnw -pl MODULE -am install -DskipTests; staleness over core + MODULE).
ensure_module_built() {
  local tool="$1" module="$2"
  if is_stale "$module" -- core; then
    echo "$tool: building $module (./mvnw -pl $module -am install -DskipTests)"
    mvn_build -B -q -pl "$module" -am install -DskipTests -Dspotless.check.skip=true
    touch "$module/target/app.classpath"
  fi
}

# is_stale MODULE... -- DIR...: true when a MODULE has no target/app.classpath or target/classes,
# or when a main source under the DIRs or the MODULEs is newer than the last MODULE's app.classpath.
is_stale() {
  local modules=() dirs=() m
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    modules+=("$1")
    shift
  done
  shift
  dirs=("$@")
  local own="${modules[${#modules[@]}-1]}"
  for m in "${modules[@]}"; do
    if [ ! -f "$m/target/app.classpath" ] || [ ! -d "$m/target/classes" ]; then
      return 0
    fi
  done
  [ -n "$(find "${dirs[@]}" "${modules[@]}" -path '*/src/main/*' -newer "$own/target/app.classpath" \
    -print -quit)" ]
}

# ensure_databases ARGS...: the database servers a tool's flags need. The local stack always runs
# MariaDB; `--db postgres` (or `--db=postgres`, `postgresql`) adds the private PostgreSQL.
# Needs lib/ensure-mariadb.sh and lib/ensure-postgres.sh.
ensure_databases() {
  local prev="" arg
  ensure_mariadb
  for arg in "$@"; do
    case "$prev/$arg" in
      --db/postgres | --db/postgresql | */--db=postgres | */--db=postgresql)
        ensure_postgres
        return
        ;;
    esac
    prev="$arg"
  done
}
