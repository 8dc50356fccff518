#!/bin/sh
# Packs a built site into the GitHub Pages artifact: one tar named artifact.tar, which the deploy
# workflow uploads with actions/upload-artifact as `github-pages` for actions/deploy-pages.
#
#   sh scripts/pages-artifact.sh [site folder (default dist)] [output tar (default $RUNNER_TEMP/artifact.tar)]
#
# This is what actions/upload-pages-artifact does, minus its exclusion of every dot-path: since v4
# it leaves `.well-known/` out, and then `npx skills add <site>` finds no discovery index on the
# deployed registry. Like it, the tar dereferences links, because Pages refuses symbolic and hard
# links: the build hard-links the discovery 0.1.0 mirror to the raw files, and each becomes a file.
# Version-control folders are still left out; nothing the build writes is named .git or .github.
set -eu

site=${1:-dist}
out=${2:-${RUNNER_TEMP:-.}/artifact.tar}

if [ ! -f "$site/index.html" ]; then
  echo "error E_NO_SITE: $site/index.html is missing; build the site first (npm run build), or name the folder it was built into." >&2
  exit 2
fi
if [ ! -f "$site/.well-known/agent-skills/index.json" ]; then
  echo "error E_NO_DISCOVERY: $site/.well-known/agent-skills/index.json is missing; this folder is not a Skilldex build." >&2
  exit 2
fi

tar \
  --dereference --hard-dereference \
  --directory "$site" \
  --exclude=.git --exclude=.github \
  -cf "$out" \
  .
echo "wrote $out ($(wc -c < "$out" | tr -d ' ') bytes) from $site"
