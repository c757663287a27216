#!/usr/bin/env bash
# Builds the nats-server release the tests and benchmarks run (a current upstream release, not Debian's 2.9.10,
# whose JetStream replicas can disagree after a paused stream leader: docs/cluster.md §"When a machine is lost")
# from the Go module proxy with the machine's Go, into DIR. Nothing is built when DIR/nats-server already
# reports VERSION.
# Usage: tools/os/install-nats-server.sh VERSION DIR   (e.g. v2.15.2 .tools/nats-server-v2.15.2)
set -euo pipefail

version="${1:?usage: install-nats-server.sh VERSION DIR}"
dir="${2:?usage: install-nats-server.sh VERSION DIR}"
binary="$dir/nats-server"

reports_version() {
  [ -x "$binary" ] && [ "$("$binary" --version 2>/dev/null)" = "nats-server: $version" ]
}

reports_version && exit 0
if ! command -v go >/dev/null 2>&1; then
  echo "install-nats-server: building nats-server $version needs Go (https://go.dev/dl/); none is on PATH" >&2
  exit 1
fi
mkdir -p "$dir"
dir_abs="$(cd "$dir" && pwd)"
echo "install-nats-server: building nats-server $version into $dir (go install, the module proxy)" >&2
# pure Go: a static binary that does not depend on the machine's C library
CGO_ENABLED=0 GOBIN="$dir_abs" go install "github.com/nats-io/nats-server/v2@$version"
if ! reports_version; then
  echo "install-nats-server: $binary does not report nats-server: $version after the build" >&2
  exit 1
fi
