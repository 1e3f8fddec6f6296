#!/usr/bin/env bash
# Installs what the test suite needs when it is missing: PostgreSQL (server binaries), Redis, Chromium and nginx (the
# reverse-proxy test of deploy/) from Debian's packages; Python with its venv module (python3-venv) for the Python conformance part; and a Go toolchain at
# least as new as conformance/go/go.mod asks for. Debian's own Go (golang-go) is older than that, so it only
# bootstraps: it downloads the required toolchain from the Go module proxy (`golang.org/toolchain`, the module Go's
# own toolchain switching uses, checked against the Go checksum database) into /usr/local/lib/go-toolchains and links
# /usr/local/bin/go to it (GO_TOOLCHAINS_DIR and GO_LINK_DIR change those places). Needs root (or sudo) only when something is missing. Whatever cannot be installed is an
# error (exit 1), never a silent skip.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "error: $*" >&2
  exit 1
}

run_as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
    fail "$1 needs root to install what is missing (run as root or install sudo)"
  fi
}

apt_updated=no
apt_install() {
  echo "installing from Debian packages: $*"
  if [ "$apt_updated" = no ]; then
    run_as_root apt-get update -qq
    apt_updated=yes
  fi
  run_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

# The Go the conformance test uses: `go` on the PATH, else the standard install location (server/test/support/
# conformance/go-part.ts looks in the same order).
find_go() {
  if command -v go >/dev/null 2>&1; then command -v go; elif [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go; fi
}

# `go env GOVERSION` (Go 1.16+) without a toolchain switch: run outside any module, with the local toolchain.
go_version_of() {
  (cd / && GOTOOLCHAIN=local "$1" env GOVERSION 2>/dev/null) | sed 's/^go//'
}

# True when version $1 is at least $2 (dotted numbers).
is_at_least() {
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

has_python_venv() {
  command -v python3 >/dev/null 2>&1 && python3 -c 'import ensurepip, venv' >/dev/null 2>&1
}

# Where a downloaded Go toolchain goes, and where its `go` is linked (overridable to try this script unprivileged).
go_toolchains_dir=${GO_TOOLCHAINS_DIR:-/usr/local/lib/go-toolchains}
go_link_dir=${GO_LINK_DIR:-/usr/local/bin}

required_go=$(awk '$1 == "go" { print $2; exit }' conformance/go/go.mod)
[ -n "$required_go" ] || fail "conformance/go/go.mod names no Go version"

missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
has_python_venv || missing+=(python3 python3-venv)
[ -n "$(find_go)" ] || missing+=(golang-go ca-certificates)
if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi

# Downloads the Go toolchain `required_go` with the Go at $1 and links /usr/local/bin/go to it.
install_go_toolchain() {
  local bootstrap=$1
  local module="golang.org/toolchain@v0.0.1-go${required_go}.linux-$(dpkg --print-architecture)"
  local cache
  cache=$(mktemp -d)
  echo "installing Go ${required_go} (conformance/go/go.mod) from the Go module proxy: ${module}"
  (cd / && GOTOOLCHAIN=local GOMODCACHE="$cache" GOFLAGS=-mod=mod GOPROXY=https://proxy.golang.org \
    GOSUMDB=sum.golang.org "$bootstrap" mod download "$module") || fail "could not download ${module}"
  local target="$go_toolchains_dir/go${required_go}"
  run_as_root rm -rf "$target"
  run_as_root mkdir -p "$go_toolchains_dir" "$go_link_dir"
  run_as_root cp -R "$cache/$module" "$target"
  chmod -R u+w "$cache" && rm -rf "$cache"
  # Module zips keep no file modes: make the tree writable for its owner and the tools executable, as Go does when
  # it switches toolchains itself.
  run_as_root chmod -R u+w,a+rX "$target"
  run_as_root chmod a+x "$target"/bin/* "$target"/pkg/tool/*/*
  run_as_root ln -sf "$target/bin/go" "$go_link_dir/go"
  run_as_root ln -sf "$target/bin/gofmt" "$go_link_dir/gofmt"
  hash -r
}

go_binary=$(find_go)
[ -n "$go_binary" ] || fail "no Go after installing golang-go"
if ! is_at_least "$(go_version_of "$go_binary")" "$required_go"; then
  install_go_toolchain "$go_binary"
fi

# What the tests will use must now work: no skip further down.
has_python_venv || fail "python3 with the venv and ensurepip modules is missing (Debian: python3-venv)"
go_binary=$(find_go)
go_version=$(go_version_of "$go_binary")
is_at_least "$go_version" "$required_go" ||
  fail "$go_binary is Go ${go_version:-of unknown version}; conformance/go needs Go ${required_go} (put $go_link_dir before $(dirname "$go_binary") in PATH)"
