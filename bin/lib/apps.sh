# shellcheck shell=bash
# ensure_built TOOL MODULE...: builds the checkout (./mvnw install -DskipTests, offline when
# possible) when one of the MODULEs has no target/app.classpath or target/classes yet, or when a
# main source of the libraries, the harness or the MODULEs is newer than the last MODULE's
# app.classpath (the last MODULE is the tool's own). Needs lib/maven.sh.
ensure_built() {
  local tool="$1" m
  shift
  local own="${*: -1}"
  local stale=""
  for m in "$@"; do
    if [ ! -f "$m/target/app.classpath" ] || [ ! -d "$m/target/classes" ]; then
      stale=1
    fi
  done
  if [ -z "$stale" ] && [ -n "$(find core outbox-lib cdc-relay scheduler-streams worker-runtime \
      testkit harness "$@" -path '*/src/main/*' -newer "$own/target/app.classpath" -print -quit)" ]; then
    stale=1
  fi
  if [ -n "$stale" ]; then
    echo "$tool: building (./mvnw install -DskipTests)"
    mvn_build -B -q install -DskipTests -Dspotless.check.skip=true
  fi
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
