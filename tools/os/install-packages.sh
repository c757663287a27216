#!/usr/bin/env bash
# Installs the Debian packages that tests and benchmarks run for real (nats-server for the cluster,
# chromium for the page tests, wrk for the read benchmark, faketime and nftables for the federation's fault
# tests: a skewed clock, a partition on loopback), only those missing, and only as root.
# Usage: tools/os/install-packages.sh PACKAGE...   (each one of: nats-server chromium wrk faketime nftables
# prometheus nginx) (prometheus for its promtool, which checks the metrics exposition; nginx for the
# reverse-proxy test)
# Not root and something missing: says how to install it and exits 1, so `make` stops with the reason.
set -euo pipefail

binary_of() {
  case "$1" in
    nats-server) echo nats-server ;;
    chromium) echo chromium ;;
    wrk) echo wrk ;;
    faketime) echo faketime ;;
    nftables) echo nft ;;
    prometheus) echo promtool ;;
    nginx) echo nginx ;;
    *) echo "install-packages: unknown package '$1' (known: nats-server chromium wrk faketime nftables prometheus nginx)" >&2; exit 2 ;;
  esac
}

missing=()
for pkg in "$@"; do
  command -v "$(binary_of "$pkg")" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "install-packages: missing ${missing[*]}; install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "install-packages: installing ${missing[*]} (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
