#!/bin/sh
# Packs the agent for install.sh and the upgrade command: edgekeep-agent-<version>.tgz with the agent compiled to
# plain JavaScript (apps/agent/dist/main.js, the contract compiled in), its Lua runtime, launcher and install files,
# and the workspace's package.json files, unpacking to edgekeep/. Usage: apps/agent/install/pack.sh [output dir]
set -eu
root="$(cd "$(dirname "$0")/../../.." && pwd)"
version="$(node -p "require('$root/apps/agent/package.json').version")"
out="$(mkdir -p "${1:-$root/dist}" && cd "${1:-$root/dist}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

node "$root/scripts/build-server.mjs" agent
mkdir -p "$work/edgekeep/apps" "$work/edgekeep/packages"
tar -C "$root" --exclude=node_modules --exclude='*.ts' --exclude=__golden__ \
  -cf - apps/agent packages/contract | tar -C "$work/edgekeep" -xf -
cat > "$work/edgekeep/package.json" <<JSON
{ "name": "edgekeep-edge", "version": "$version", "private": true, "type": "module", "workspaces": ["packages/contract", "apps/agent"] }
JSON
tar -C "$work" -czf "$out/edgekeep-agent-$version.tgz" edgekeep
echo "$out/edgekeep-agent-$version.tgz"
