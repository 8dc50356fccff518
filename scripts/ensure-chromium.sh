#!/usr/bin/env bash
# Browser tests drive Debian's chromium through playwright-core; npm cannot download a browser
# here, so the test command installs the distribution package when it is missing.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "chromium is missing and this user cannot install it; run: sudo apt-get install -y chromium" >&2
  exit 1
fi
echo "installing Debian's chromium for the browser tests…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq chromium >/dev/null
