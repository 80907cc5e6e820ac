# shellcheck shell=bash
# Sourced by bin/stack, bin/test and .ci/run: makes sure a MariaDB server binary exists.
#
# The local stack (testkit's LocalStack) runs its own private mariadbd on a free port; it needs
# only the server binaries (Debian package mariadb-server-core: mariadbd + mariadb-install-db),
# not the system service. As root on Debian, a missing server is installed with apt-get.

tasklane_find_mariadbd() {
  local candidate
  for candidate in mariadbd mysqld; do
    if command -v "$candidate" >/dev/null 2>&1; then
      command -v "$candidate"
      return 0
    fi
  done
  for candidate in /usr/sbin/mariadbd /usr/local/bin/mariadbd /usr/libexec/mariadbd \
    /usr/sbin/mysqld /usr/local/bin/mysqld /usr/libexec/mysqld; do
    if [ -x "$candidate" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

ensure_mariadb() {
  if tasklane_find_mariadbd >/dev/null; then
    return 0
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "MariaDB server not found: installing it with apt-get (mariadb-server-core)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 || true
    # server-core has mariadbd and mariadb-install-db without starting a system service;
    # fall back to the full package if this distribution splits them differently.
    apt-get install -y -qq --no-install-recommends mariadb-server-core >&2 \
      || apt-get install -y -qq mariadb-server >&2
    if tasklane_find_mariadbd >/dev/null; then
      return 0
    fi
  fi
  echo "MariaDB server binary not found: run 'apt-get install -y mariadb-server'" >&2
  return 1
}
