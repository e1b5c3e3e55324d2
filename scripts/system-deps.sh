#!/usr/bin/env bash
# Installs the Debian packages of scripts/debian-packages.txt that this machine lacks, and makes sure the local
# PostgreSQL server (used by the api-postgres lane) is running. Safe to run again; needs root to install.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t wanted < <(grep -Ev '^\s*(#|$)' scripts/debian-packages.txt)
missing=()
for p in "${wanted[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "system-deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "system-deps: missing ${missing[*]} (run as root to install); lanes that need them will say so" >&2
  fi
fi
if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
fi
