#!/usr/bin/env bash
# Debian packages the test suite needs: chromium for the browser tests,
# postgresql for the storage tests on a real server, redis-server for the
# relay between server processes, nginx and openssl for the deploy recipe's
# test (TLS in front of two processes). Installed only if missing.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "system_deps: need ${missing[*]} but there is no apt-get; install them yourself" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "system_deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# the packages' own services are not started (nginx would take port 80): the tests
# start their own servers on free ports
if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
    $sudo chmod +x /usr/sbin/policy-rc.d
    trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
fi
$sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null \
    || { $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
