#!/bin/sh
# `cmake --install` into a scratch root: every file a site needs is where the systemd units
# expect it, the installed binaries run, and systemd-analyze accepts the installed units.
# Usage: install_check.sh BUILD_DIR
set -eu
build=$1
root=$(mktemp -d /tmp/fairway-install.XXXXXX)
trap 'rm -rf "$root"' EXIT INT TERM
DESTDIR="$root" cmake --install "$build" >/dev/null
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
units="$root$prefix/lib/systemd/system"
for f in bin/fairway bin/fairway-coordinator bin/fairway-agent bin/fairway-keygen bin/fairway-sim \
         lib/systemd/system/fairway-coordinator.service lib/systemd/system/fairway-agent.service \
         lib/sysusers.d/fairway.conf lib/tmpfiles.d/fairway.conf \
         share/doc/fairway/examples/fairway.toml share/doc/fairway/examples/profiles/titan.toml \
         share/doc/fairway/config.md share/doc/fairway/security.md; do
  if [ ! -e "$root$prefix/$f" ]; then echo "install_check: $prefix/$f was not installed" >&2; exit 1; fi
done
# The units start the binaries of this prefix, not a hard-coded /usr/bin.
grep -q "^ExecStart=$prefix/bin/fairway-coordinator " "$units/fairway-coordinator.service" ||
  { echo "install_check: coordinator unit does not start $prefix/bin/fairway-coordinator" >&2; exit 1; }
grep -q "^ExecStart=$prefix/bin/fairway-agent " "$units/fairway-agent.service" ||
  { echo "install_check: agent unit does not start $prefix/bin/fairway-agent" >&2; exit 1; }
# Files with job content stay private to the daemons (docs/security.md, "Files").
for u in fairway-coordinator fairway-agent; do
  grep -q '^UMask=0077$' "$units/$u.service" || { echo "install_check: $u.service lacks UMask=0077" >&2; exit 1; }
done
grep -q '^StateDirectoryMode=0700$' "$units/fairway-coordinator.service" ||
  { echo "install_check: the coordinator's state directory is not 0700" >&2; exit 1; }
grep -q '^RuntimeDirectoryMode=0755$' "$units/fairway-coordinator.service" ||
  { echo "install_check: users cannot reach the client socket's directory" >&2; exit 1; }
tmpfiles="$root$prefix/lib/tmpfiles.d/fairway.conf"
grep -q '^d /var/lib/fairway 0700 fairway fairway' "$tmpfiles" &&
  grep -q '^d /var/spool/fairway 0711 root root' "$tmpfiles" ||
  { echo "install_check: tmpfiles.d leaves the state dir or spool open" >&2; exit 1; }
for b in fairway fairway-coordinator fairway-agent fairway-keygen fairway-sim; do
  "$root$prefix/bin/$b" --help >/dev/null 2>&1 || { echo "install_check: $b --help failed" >&2; exit 1; }
done
"$root$prefix/bin/fairway-coordinator" --help | grep -q -- "--config" ||
  { echo "install_check: fairway-coordinator --help does not document --config" >&2; exit 1; }
if command -v systemd-analyze >/dev/null 2>&1; then
  # The fairway user comes from sysusers.d at package install; verify needs it in the root.
  mkdir -p "$root/etc"
  printf 'root:x:0:0::/root:/bin/sh\nfairway:x:999:999::/var/lib/fairway:/usr/sbin/nologin\n' > "$root/etc/passwd"
  printf 'root:x:0:\nfairway:x:999:\n' > "$root/etc/group"
  # verify resolves the units' dependencies (sysinit.target, ...) and the commands they
  # run (ExecReload's kill) inside the root: give it the host's system units and a kill.
  mkdir -p "$root/usr/lib/systemd" "$root/usr/bin"
  cp -r /usr/lib/systemd/system "$root/usr/lib/systemd/"
  ln -s usr/bin "$root/bin"
  ln -s usr/lib "$root/lib"
  printf '#!/bin/sh\n' > "$root/usr/bin/kill" && chmod 755 "$root/usr/bin/kill"
  out=$(systemd-analyze verify --root="$root" "$units/fairway-coordinator.service" "$units/fairway-agent.service" 2>&1) || {
    echo "install_check: systemd-analyze verify failed:" >&2; echo "$out" >&2; exit 1; }
  # verify exits 0 on some problems too: any line naming our units is one.
  if echo "$out" | grep -q "fairway-"; then echo "install_check: systemd-analyze verify:" >&2; echo "$out" >&2; exit 1; fi
else
  echo "install_check: systemd-analyze not found; units not verified"
fi
# The Debian package: built from the same install rules, its units start /usr/bin.
if command -v cpack >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1; then
  (cd "$root" && cpack -G DEB -B "$root/pkg" --config "$build/CPackConfig.cmake" >/dev/null 2>&1) ||
    { echo "install_check: cpack -G DEB failed" >&2; exit 1; }
  deb=$(ls "$root"/pkg/fairway_*.deb)
  mkdir "$root/deb" && dpkg-deb -x "$deb" "$root/deb"
  grep -q "^ExecStart=/usr/bin/fairway-coordinator " "$root/deb/usr/lib/systemd/system/fairway-coordinator.service" ||
    { echo "install_check: the package's coordinator unit does not start /usr/bin/fairway-coordinator" >&2; exit 1; }
  dpkg-deb -I "$deb" | grep -q "Depends: .*libzmq5" || { echo "install_check: package without dependencies" >&2; exit 1; }
  test -x "$root/deb/usr/bin/fairway-agent" || { echo "install_check: package without fairway-agent" >&2; exit 1; }
  # Slurm's names come in a package of their own, which a site may leave out.
  test ! -e "$root/deb/usr/lib/fairway/slurm" || { echo "install_check: the fairway package holds the Slurm front-ends" >&2; exit 1; }
  slurm_deb=$(ls "$root"/pkg/fairway-slurm_*.deb) || { echo "install_check: no fairway-slurm package" >&2; exit 1; }
  mkdir "$root/slurm-deb" && dpkg-deb -x "$slurm_deb" "$root/slurm-deb"
  test -L "$root/slurm-deb/usr/lib/fairway/slurm/bin/sbatch" && test -x "$root/slurm-deb/usr/lib/fairway/slurm/fairway-slurm" ||
    { echo "install_check: the fairway-slurm package lacks sbatch or fairway-slurm" >&2; exit 1; }
fi
echo "install_check: ok ($prefix)"
