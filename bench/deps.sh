#!/usr/bin/env bash
# Installs what `npm run bench` needs beyond the test lanes: the packages of bench/debian-packages.txt (wrk, …)
# and of scripts/debian-packages.txt. Needs root to install; without root it says what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
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
