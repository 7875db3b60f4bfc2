#!/usr/bin/env bash
# Installs the Debian tools the suite needs, each one on its own and only when its command is missing.
# One combined `apt-get install chromium poppler-utils npm` fails as a whole on a machine whose Node.js does not
# come from Debian (Debian's npm conflicts with that nodejs: "held broken packages"), so npm is asked for only when
# there is no npm on PATH at all, and a failure to install one tool never stops the others.
# APT_GET may name another apt-get (the Makefile test uses a recording fake).
set -u
APT_GET=${APT_GET:-apt-get}
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils)
command -v npm >/dev/null 2>&1 || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "system-deps: installing ${missing[*]}" >&2
"$APT_GET" update -qq || echo "system-deps: apt-get update failed; trying the install anyway" >&2
failed=()
for pkg in "${missing[@]}"; do
  DEBIAN_FRONTEND=noninteractive "$APT_GET" install -y -qq --no-install-recommends "$pkg" >/dev/null || failed+=("$pkg")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "system-deps: could not install: ${failed[*]}" >&2
  exit 1
fi
