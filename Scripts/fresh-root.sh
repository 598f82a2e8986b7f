# Sourced by Scripts/package-test and Scripts/fresh-test: a fresh minimal
# Debian bookworm root for one run. The debootstrap'd base is made once and
# kept in .build/chroot/base; every run works in a copy, so it never sees what
# a run before it left. Fetched .debs are kept in .build/chroot/archives-NAME.
# Defines: say, fail, root, mounted, inside; unmounts and removes the copy on exit.
# The caller sets `name` (the run's folder and the prefix of what it says).

say() { echo "$name: $*" >&2; }
fail() { say "FAIL: $*"; exit 1; }
# A check that can't run here is skipped, saying why; in CI (CI=true) that fails the run.
skip() { [[ ${CI:-} == true ]] && fail "can't run in CI: $*"; say "skipped: $*"; exit 0; }
(( $(id -u) == 0 )) || skip "needs root (a chroot, and apt-get inside it)"
command -v debootstrap >/dev/null || skip "debootstrap is not installed (Scripts/setup installs it)"

chroots=$PWD/.build/chroot
mkdir -p "$chroots"
base=$chroots/base
# The two scripts may run at once (by hand): only one makes the base.
exec {base_lock}>"$chroots/base.lock"
flock "$base_lock"
if [[ ! -x $base/bin/sh ]]; then
  say "making a minimal bookworm root in $base (once)"
  rm -rf "$base.partial"
  debootstrap --variant=minbase bookworm "$base.partial" http://deb.debian.org/debian >&2
  mv "$base.partial" "$base"
fi
flock -u "$base_lock"

root=$chroots/$name
mounts=()
cleanup() {
  for (( i = ${#mounts[@]} - 1; i >= 0; i-- )); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  rm -rf "$root"
}
trap cleanup EXIT
rm -rf "$root"
cp -a "$base" "$root"
# No service a package installs starts in the root (it would outlive the run and hold its mounts).
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
# apt in two roots at once must not share one cache of .debs.
mkdir -p "$chroots/archives-$name/partial" "$root/var/cache/apt/archives"
mounted() { mount "$@"; mounts+=("${@: -1}"); }   # mount's arguments; the mount point is the last
mounted -t proc proc "$root/proc"
mounted --bind /dev "$root/dev"
mounted --bind "$chroots/archives-$name" "$root/var/cache/apt/archives"
# This machine's network: its resolver, and the authorities it trusts (a proxy may sign TLS for PyPI).
cp /etc/resolv.conf "$root/etc/resolv.conf"
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates" "$root/etc/ssl/certs"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
  printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' >"$root/etc/pip.conf"
fi
inside() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
