#!/usr/bin/env bash
# Browser tests drive Debian's chromium through playwright-core; npm cannot download a browser
# here, so the test command installs the distribution package when it is missing, together with
# a CJK font so screenshots of Chinese and Japanese skills show glyphs rather than boxes.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need+=(fonts-wqy-microhei)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != "0" ]; then
  echo "missing ${need[*]} and this user cannot install them; run: sudo apt-get install -y ${need[*]}" >&2
  # Only chromium is required; the font merely improves screenshots.
  [[ " ${need[*]} " == *" chromium "* ]] && exit 1 || exit 0
fi
echo "installing ${need[*]} for the browser tests…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq "${need[@]}" >/dev/null
