#!/usr/bin/env bash
# System packages the tests and the benchmark need that npm cannot provide, installed from Debian when missing:
# - chromium: browser tests drive it through playwright-core (npm cannot download a browser here);
# - bubblewrap (`bwrap`): `skilldex run` confines every skill process with it on Linux, and the
#   runtime tests prove that confinement against real scripts;
# - fonts-wqy-microhei: so screenshots of Chinese and Japanese skills show glyphs, not boxes.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
command -v bwrap >/dev/null 2>&1 || [ -x /usr/bin/bwrap ] || need+=(bubblewrap)
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need+=(fonts-wqy-microhei)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != "0" ]; then
  echo "missing ${need[*]} and this user cannot install them; run: sudo apt-get install -y ${need[*]}" >&2
  # chromium and bubblewrap are required; the font merely improves screenshots.
  [[ " ${need[*]} " == *" chromium "* || " ${need[*]} " == *" bubblewrap "* ]] && exit 1 || exit 0
fi
echo "installing ${need[*]} for the tests…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq "${need[@]}" >/dev/null
