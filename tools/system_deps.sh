#!/usr/bin/env bash
# Installs the Debian tools the suite needs, each one on its own and only when its command is missing.
# One combined `apt-get install chromium poppler-utils npm` fails as a whole on a machine whose Node.js does not
# come from Debian (Debian's npm conflicts with that nodejs: "held broken packages"), so npm is asked for only when
# there is no npm on PATH at all, and a failure to install one tool never stops the others.
# Success means the command runs afterwards (`--version`), not that apt-get said so: a package dpkg still lists while
# its files are gone ("already the newest version", e.g. /usr/lib/chromium/chromium deleted under the
# /usr/bin/chromium wrapper) is reinstalled. apt waits for a lock another apt holds (a fresh machine's daily update)
# instead of failing at once, and a failed `apt-get update` is tried once more.
# APT_GET may name another apt-get (the Makefile test uses a recording fake).
set -u
APT_GET=${APT_GET:-apt-get}
LOCK_WAIT=-oDPkg::Lock::Timeout=300
declare -A package_of=([chromium]=chromium [pdftoppm]=poppler-utils [npm]=npm)
declare -A version_flag=([chromium]=--version [pdftoppm]=-v [npm]=--version)
works() {  # the command is on PATH and runs
  hash -r
  command -v "$1" >/dev/null 2>&1 && timeout 60 "$1" "${version_flag[$1]}" >/dev/null 2>&1
}
missing=()
for cmd in chromium pdftoppm npm; do
  works "$cmd" || missing+=("$cmd")
done
[ ${#missing[@]} -eq 0 ] && exit 0
pkgs=()
for cmd in "${missing[@]}"; do pkgs+=("${package_of[$cmd]}"); done
echo "system-deps: installing ${pkgs[*]}" >&2
"$APT_GET" update -qq "$LOCK_WAIT" || "$APT_GET" update -qq "$LOCK_WAIT" ||
  echo "system-deps: apt-get update failed; trying the install anyway" >&2
apt_install() {
  DEBIAN_FRONTEND=noninteractive "$APT_GET" install "$LOCK_WAIT" -y -qq --no-install-recommends "$@" >/dev/null
}
failed=()
for cmd in "${missing[@]}"; do
  pkg=${package_of[$cmd]}
  # npm is asked for only when there is none on PATH at all (a foreign Node.js: see above); a broken one is left
  if [ "$cmd" = npm ] && command -v npm >/dev/null 2>&1; then
    echo "system-deps: npm on PATH does not run; not replacing a Node.js apt did not install" >&2
    failed+=("$pkg")
    continue
  fi
  apt_install "$pkg"
  works "$cmd" || apt_install --reinstall "$pkg"
  works "$cmd" || failed+=("$pkg")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "system-deps: could not install: ${failed[*]} (their commands are still missing or do not run)" >&2
  exit 1
fi
