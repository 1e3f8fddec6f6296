#!/usr/bin/env bash
# Installs the services the test suite needs from Debian's packages when they are missing:
# PostgreSQL (server binaries), Redis and Chromium. Needs root (or sudo) only when something is missing.
set -euo pipefail

missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ -x /usr/bin/chromium ] || missing+=(chromium)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "installing from Debian packages: ${missing[*]}"
run_as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
    echo "error: ${missing[*]} missing and no root to install them; install them with apt-get and retry" >&2
    exit 1
  fi
}
run_as_root apt-get update -qq
DEBIAN_FRONTEND=noninteractive run_as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"
