#!/bin/sh
# Installs an EdgeKeep edge node: nginx with the Lua and stream modules, Node.js 20, and the agent as a systemd
# service that enrols with the control plane. Debian 11/12, Rocky Linux 9, CentOS 7. Run as root with the values
# the console's enrolment dialog shows:
#   EDGEKEEP_API=https://console.example.com EDGEKEEP_ENROLL_TOKEN=<token> \
#   EDGEKEEP_PACKAGE=<URL or file of edgekeep-agent-<version>.tgz> sh install.sh
set -eu
: "${EDGEKEEP_API:?EDGEKEEP_API is needed}"
: "${EDGEKEEP_ENROLL_TOKEN:?EDGEKEEP_ENROLL_TOKEN is needed}"
: "${EDGEKEEP_PACKAGE:?EDGEKEEP_PACKAGE is needed}"
NODE_VERSION="${NODE_VERSION:-20.19.5}"
[ "$(id -u)" -eq 0 ] || { echo "install.sh must run as root" >&2; exit 1; }
. /etc/os-release

node_ok() { command -v node >/dev/null 2>&1 && node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; }
nginx_bin=/usr/sbin/nginx
modules=/usr/lib/nginx/modules
builtin=0

case "$ID:${VERSION_ID%%.*}" in
  debian:11 | debian:12 | debian:13)
    apt-get update
    apt-get install -y --no-install-recommends nginx libnginx-mod-http-lua libnginx-mod-stream libnginx-mod-http-geoip2 lua-cjson curl ca-certificates
    node_ok || { curl -fsSL https://deb.nodesource.com/setup_20.x | bash -; apt-get install -y nodejs; }
    systemctl disable --now nginx || true
    ;;
  rocky:9 | rhel:9 | almalinux:9 | centos:7)
    # EL has no package of nginx's Lua module: OpenResty (nginx with Lua and stream built in), from its repository.
    repo=rocky; [ "$ID" = centos ] && repo=centos
    curl -fsSL -o /etc/yum.repos.d/openresty.repo "https://openresty.org/package/$repo/openresty.repo"
    if [ "$ID" = centos ]; then
      yum install -y openresty tar xz
      # Node 20 wants glibc 2.28 and CentOS 7 has 2.17: the unofficial glibc-2.17 build.
      node_ok || curl -fsSL "https://unofficial-builds.nodejs.org/download/release/v$NODE_VERSION/node-v$NODE_VERSION-linux-x64-glibc-217.tar.xz" |
        tar -xJ -C /usr/local --strip-components=1
    else
      dnf install -y openresty tar
      node_ok || { dnf module -y enable nodejs:20 && dnf install -y nodejs npm; }
    fi
    systemctl disable --now openresty || true
    nginx_bin=/usr/local/openresty/nginx/sbin/nginx
    modules=/usr/local/openresty/nginx/modules
    builtin=1
    ;;
  *)
    echo "unsupported system: $PRETTY_NAME (Debian 11/12, Rocky Linux 9 or CentOS 7)" >&2
    exit 1
    ;;
esac

package="$EDGEKEEP_PACKAGE"
case "$package" in
  http://* | https://*) curl -fsSL -o /tmp/edgekeep-agent.tgz "$package"; package=/tmp/edgekeep-agent.tgz ;;
esac
rm -rf /opt/edgekeep
tar -xzf "$package" -C /opt
(cd /opt/edgekeep && npm install --omit=dev --no-audit --no-fund)

mkdir -p /etc/edgekeep /var/lib/edgekeep
(umask 077 && cat > /etc/edgekeep/agent.env <<ENV
EDGEKEEP_API=$EDGEKEEP_API
EDGEKEEP_ENROLL_TOKEN=$EDGEKEEP_ENROLL_TOKEN
STATE_DIR=/var/lib/edgekeep
NGINX_PREFIX=/var/lib/edgekeep/nginx
NGINX_BIN=$nginx_bin
NGINX_MODULES_DIR=$modules
NGINX_BUILTIN_MODULES=$builtin
ENV
)
install -m 0644 /opt/edgekeep/apps/agent/install/edgekeep-agent.service /etc/systemd/system/edgekeep-agent.service
systemctl daemon-reload
systemctl enable --now edgekeep-agent
echo "EdgeKeep agent installed and enrolling with $EDGEKEEP_API; follow it with: journalctl -u edgekeep-agent -f"
