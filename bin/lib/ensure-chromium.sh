# shellcheck shell=bash
# Sourced by bin/test: makes sure Debian's chromium and chromium-driver exist for the web
# console's browser tests (Selenium drives /usr/bin/chromium through /usr/bin/chromedriver; it never
# downloads a browser). As root on Debian, a missing browser or driver is installed with apt-get.
# When it cannot be installed, the browser tests skip with a message naming the missing file.

ensure_chromium() {
  if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    return 0
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "chromium or chromedriver not found: installing them with apt-get (chromium chromium-driver)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=300 update -qq >&2 || true
    apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends \
      chromium chromium-driver >&2 || true
    if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
      return 0
    fi
  fi
  # Not fatal: the browser tests skip, saying the browser is missing.
  echo "chromium/chromedriver not installed (run 'apt-get install -y chromium chromium-driver'):" \
    "the console's browser tests will be skipped" >&2
  return 0
}
