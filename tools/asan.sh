#!/usr/bin/env bash
# Run the tests that exercise mxgo's C glue (capsules, deleters, the NDArrayBase type,
# run_async callbacks) against an AddressSanitizer build of the extension.
#
#   tools/asan.sh              build build/asan/mxgo (never pysrc/mxgo/_gen), run the tests
#   tools/asan.sh --self-test  prove the setup catches bugs: build with a use-after-free
#                              injected into dlpack.c's deleters (through a Go -overlay, the
#                              source tree is untouched) and require ASan to report it
#
# Extra ASAN_OPTIONS from the environment win over the defaults below, e.g.
# `ASAN_OPTIONS=detect_leaks=1 tools/asan.sh` for a (noisy) look at leaks.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
# The tests: MXGO_TEST_ENV=asan, the files that tests_py/environments.py tags GLUE (capsules,
# lifetimes, validation, interop, bad inputs, threads, exit, properties, pickle, fork...),
# less the two tests it deselects there, with its reasons (both run in make test-py).
LIBASAN=$(gcc -print-file-name=libasan.so)
LIBSTDCXX=$(gcc -print-file-name=libstdc++.so)
[ -f "$LIBASAN" ] || { echo "asan.sh: gcc has no libasan.so (apt-get install libasan8)" >&2; exit 2; }

# build DIR [GOFLAGS]: the pure-Python package from pysrc/ plus an instrumented extension.
# -fsanitize=address goes through CC (gen/generate.py --extra-cflags), so it reaches every
# cgo compile (our C glue, gopy's wrapper, runtime/cgo) and the c-shared link, which then
# needs libasan. Go's own -asan (instrumenting Go code) is not needed: Go is memory safe.
build() {
	local dir=$1
	rm -rf "$dir/mxgo" && mkdir -p "$dir" && cp -r "$ROOT/pysrc/mxgo" "$dir/mxgo"
	rm -rf "$dir/mxgo/_gen" && find "$dir/mxgo" -name __pycache__ -prune -exec rm -rf {} +
	# gopy's work folder starts with "_" so that `go ... ./...` never sees it.
	(if [ -n "${2:-}" ]; then export GOFLAGS=$2; fi
	 "$PY" "$ROOT/gen/generate.py" "$dir/mxgo/_gen" --python "$PY" --out "$dir/_out" \
		--extra-cflags "-fsanitize=address -fno-omit-frame-pointer -g")
}

# run DIR PYTEST-ARGS...: the tests under ASan; reports land in DIR/logs (also those of the
# subprocesses that some tests start, which inherit this environment).
run() {
	local dir=$1; shift
	rm -rf "$dir/logs" && mkdir -p "$dir/logs"
	local opts=(
		detect_leaks=0                # CPython, NumPy and torch leak at exit, and LSan cannot
		                              # see C memory that only the Go heap points to
		halt_on_error=1               # the first report ends the process ...
		exitcode=86                   # ... with a status no test outcome produces
		log_path="$dir/logs/asan"     # reports go to files, so a report in a subprocess
		                              # cannot be swallowed by a test that expects it to fail
		allocator_may_return_null=1   # tests ask for huge arrays and expect MemoryError
		detect_stack_use_after_return=1  # C glue must not hand out pointers to its locals
	)
	# LD_PRELOAD: the ASan runtime must come first (the interpreter is not instrumented);
	# libstdc++ right after it, or ASan's __cxa_throw interceptor finds no real function
	# (python does not link libstdc++) and every C++ exception torch throws aborts.
	# PYTHONMALLOC=malloc: Python objects come from malloc, not pymalloc arenas, so ASan
	# checks them too (capsules, NDArrayBase instances, buffers).
	local env=(env LD_PRELOAD="$LIBASAN $LIBSTDCXX" ASAN_OPTIONS="$(IFS=:; echo "${opts[*]}"):${ASAN_OPTIONS:-}"
		MXGO_TEST_ENV=asan PYTHONMALLOC=malloc PYTHONPATH="$dir" PYTHONDONTWRITEBYTECODE=1 timeout 900 "$PY")
	local status=0
	(cd "$ROOT/tests_py" &&
		"${env[@]}" -c 'import sys, mxgo; assert mxgo.__file__.startswith(sys.argv[1]), mxgo.__file__' "$dir" &&
		"${env[@]}" -m pytest -q -p no:cacheprovider "$@") || status=$?
	# Any log line fails the run, except the note allocator_may_return_null makes.
	if cat /dev/null "$dir"/logs/asan* 2>/dev/null | grep -qv 'WARNING: AddressSanitizer failed to allocate'; then
		cat "$dir"/logs/asan* >&2
		echo "asan.sh: AddressSanitizer reported errors (logs in $dir/logs)" >&2
		return 1
	fi
	return $status
}

if [ "${1:-}" = --self-test ]; then
	dir=$ROOT/build/asan-selftest
	mkdir -p "$dir"
	# Read the tensor after free(self) in both deleters of exported tensors.
	sed 's|^\(\s*\)free(self);|&\n\1if (!self->manager_ctx) s = NULL; // injected use-after-free|' "$ROOT/pkg/dlpack/dlpack.c" >"$dir/dlpack.c"
	[ "$(grep -c 'injected use-after-free' "$dir/dlpack.c")" = 2 ] || { echo "asan.sh: injection failed" >&2; exit 1; }
	printf '{"Replace": {"%s": "%s"}}\n' "$ROOT/pkg/dlpack/dlpack.c" "$dir/dlpack.c" >"$dir/overlay.json"
	build "$dir" "-mod=mod -overlay=$dir/overlay.json"
	if run "$dir" -x test_capsules.py; then echo "asan.sh: self-test FAILED: the injected bug went unnoticed" >&2; exit 1; fi
	grep -q 'heap-use-after-free' "$dir"/logs/asan* || { echo "asan.sh: self-test FAILED: no use-after-free report" >&2; exit 1; }
	echo "asan.sh: self-test passed: the injected use-after-free was reported"
	exit 0
fi

dir=$ROOT/build/asan
build "$dir"
run "$dir" .
echo "asan.sh: no AddressSanitizer reports"
