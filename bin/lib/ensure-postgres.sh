# shellcheck shell=bash
# Sourced by bin/test and .ci/run: makes sure PostgreSQL server binaries exist.
#
# Tests that call LocalStack.postgres() get a private PostgreSQL (its own initdb'd cluster in a
# private dir under the temp dir, recorded under the stack dir; a free port); it needs only the server binaries (Debian: /usr/lib/postgresql/<v>/bin
# with initdb and postgres), not the system service, which is never touched. As root on Debian,
# missing binaries are installed with apt-get.

tasklane_find_postgres() {
  local bin
  for bin in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$bin/initdb" ] && [ -x "$bin/postgres" ]; then
      echo "$bin"
      return 0
    fi
  done
  if command -v initdb >/dev/null 2>&1 && command -v postgres >/dev/null 2>&1; then
    dirname "$(command -v postgres)"
    return 0
  fi
  return 1
}

ensure_postgres() {
  if tasklane_find_postgres >/dev/null; then
    return 0
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "PostgreSQL server not found: installing it with apt-get (postgresql)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 || true
    apt-get install -y -qq --no-install-recommends postgresql >&2 || true
    if tasklane_find_postgres >/dev/null; then
      return 0
    fi
  fi
  echo "PostgreSQL server binaries not found: run 'apt-get install -y postgresql'" >&2
  return 1
}
