#!/usr/bin/env bash
# Installs the Debian packages of bench/debian-packages.txt that this machine lacks (nginx with Lua, wrk).
# Needs root to install; without root it says what is missing and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t wanted < <(grep -Ev '^\s*(#|$)' bench/debian-packages.txt)
missing=()
for p in "${wanted[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "bench: missing ${missing[*]}; install them as root (apt-get install ${missing[*]}) and run again" >&2
  exit 1
fi
echo "bench: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
