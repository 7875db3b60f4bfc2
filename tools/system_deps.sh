#!/usr/bin/env bash
# Installs the Debian tools the suite needs, each one on its own and only when its command is missing.
# One combined `apt-get install chromium poppler-utils npm` fails as a whole on a machine whose Node.js does not
# come from Debian (Debian's npm conflicts with that nodejs: "held broken packages"), so npm is asked for only when
# there is no npm on PATH at all, and a failure to install one tool never stops the others.
# Success means the command is on PATH afterwards, not that apt-get said so: a package dpkg still lists while its
# binary is gone ("already the newest version") is reinstalled.
# APT_GET may name another apt-get (the Makefile test uses a recording fake).
set -u
APT_GET=${APT_GET:-apt-get}
declare -A package_of=([chromium]=chromium [pdftoppm]=poppler-utils [npm]=npm)
missing=()
for cmd in chromium pdftoppm npm; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd")
done
[ ${#missing[@]} -eq 0 ] && exit 0
pkgs=()
for cmd in "${missing[@]}"; do pkgs+=("${package_of[$cmd]}"); done
echo "system-deps: installing ${pkgs[*]}" >&2
"$APT_GET" update -qq || echo "system-deps: apt-get update failed; trying the install anyway" >&2
apt_install() {
  DEBIAN_FRONTEND=noninteractive "$APT_GET" install -y -qq --no-install-recommends "$@" >/dev/null
}
failed=()
for cmd in "${missing[@]}"; do
  pkg=${package_of[$cmd]}
  apt_install "$pkg"
  hash -r
  if ! command -v "$cmd" >/dev/null 2>&1; then
    apt_install --reinstall "$pkg"
    hash -r
  fi
  command -v "$cmd" >/dev/null 2>&1 || failed+=("$pkg")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "system-deps: could not install: ${failed[*]} (their commands are still missing)" >&2
  exit 1
fi
