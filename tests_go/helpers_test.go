package mxgotest

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	_ "github.com/mxgo/mxgo/pkg/ops/all" // every operator family registered
)

// checkLeaks records the live storage count and asserts it is back there when the test
// ends (after the test's own cleanups, which run first).
func checkLeaks(t *testing.T) {
	t.Helper()
	base := ndarray.LiveStorages()
	t.Cleanup(func() {
		require.NoError(t, ops.WaitAll()) // queued kernels hold references until they finish
		require.Equal(t, base, ndarray.LiveStorages(), "storages leaked")
	})
}

// empty allocates an array that is released when the test ends.
func empty(t *testing.T, dt ndarray.DType, shape ...int) *ndarray.NDArray {
	t.Helper()
	a, err := ndarray.Empty(dt, shape, device.Host)
	require.NoError(t, err)
	t.Cleanup(a.Release)
	return a
}

// arange allocates an array holding 0, 1, 2, ... in C order (filled when it returns).
func arange(t *testing.T, dt ndarray.DType, shape ...int) *ndarray.NDArray {
	t.Helper()
	a := empty(t, dt, shape...)
	require.NoError(t, ops.Arange(a, 0, 1))
	require.NoError(t, ops.WaitToRead(a))
	return a
}

// fromValues allocates an array of float64 values cast to dt (through ops.Copy).
func fromValues(t *testing.T, dt ndarray.DType, vals []float64, shape ...int) *ndarray.NDArray {
	t.Helper()
	if shape == nil {
		shape = []int{len(vals)}
	}
	src := empty(t, ndarray.Float64, shape...)
	copy(unsafe.Slice((*float64)(src.Data()), len(vals)), vals)
	dst := empty(t, dt, shape...)
	require.NoError(t, ops.Copy(dst, src))
	require.NoError(t, ops.WaitToRead(dst))
	return dst
}

// elemPtr returns the address of the element at idx (one index per dimension).
func elemPtr(a *ndarray.NDArray, idx []int) unsafe.Pointer {
	off := a.Offset()
	for i, x := range idx {
		off += x * a.Strides()[i]
	}
	return unsafe.Add(a.Storage().Ptr(), off*a.DType().Size())
}

// forEach calls fn with every index of shape, in C order.
func forEach(shape []int, fn func(idx []int)) {
	for _, d := range shape {
		if d == 0 {
			return
		}
	}
	idx := make([]int, len(shape))
	for {
		fn(idx)
		d := len(shape) - 1
		for ; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// values reads a in C order as float64 (through ops.Copy into a fresh float64 array,
// so it exercises the cast path too; complex values keep their real part).
func values(t *testing.T, a *ndarray.NDArray) []float64 {
	t.Helper()
	if a.DType().Kind() == ndarray.KindComplex {
		c := complexValues(t, a)
		out := make([]float64, len(c))
		for i, v := range c {
			out[i] = real(v)
		}
		return out
	}
	dst, err := ndarray.Empty(ndarray.Float64, a.Shape(), device.Host)
	require.NoError(t, err)
	defer dst.Release()
	require.NoError(t, ops.Copy(dst, a))
	require.NoError(t, ops.WaitToRead(dst))
	return append([]float64{}, unsafe.Slice((*float64)(dst.Data()), dst.Size())...)
}

// complexValues reads a in C order as complex128.
func complexValues(t *testing.T, a *ndarray.NDArray) []complex128 {
	t.Helper()
	dst, err := ndarray.Empty(ndarray.Complex128, a.Shape(), device.Host)
	require.NoError(t, err)
	defer dst.Release()
	require.NoError(t, ops.Copy(dst, a))
	require.NoError(t, ops.WaitToRead(dst))
	return append([]complex128{}, unsafe.Slice((*complex128)(dst.Data()), dst.Size())...)
}

// rawValues reads a's elements of Go type T in C order straight from memory, without
// any kernel (after a's pending writes, as every reader must).
func rawValues[T any](a *ndarray.NDArray) []T {
	mustWait(ops.WaitToRead(a))
	var out []T
	forEach(a.Shape(), func(idx []int) { out = append(out, *(*T)(elemPtr(a, idx))) })
	return out
}

// requireKind asserts that err is an mxerr of kind k whose message contains every
// fragment given.
func requireKind(t *testing.T, err error, k mxerr.Kind, fragments ...string) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, k, mxerr.KindOf(err), "error %q", err)
	for _, f := range fragments {
		require.Contains(t, err.Error(), f)
	}
}

// Index key builders, named after Python syntax.
func I(i int) ndarray.KeyItem { return ndarray.KeyItem{Kind: ndarray.KeyInt, Start: i} }

// S builds a slice from up to three optional bounds; nil stands for Python's None.
func S(start, stop, step any) ndarray.KeyItem {
	k := ndarray.KeyItem{Kind: ndarray.KeySlice}
	if start != nil {
		k.Start, k.HasStart = start.(int), true
	}
	if stop != nil {
		k.Stop, k.HasStop = stop.(int), true
	}
	if step != nil {
		k.Step, k.HasStep = step.(int), true
	}
	return k
}

var (
	all      = ndarray.KeyItem{Kind: ndarray.KeySlice}
	newAxis  = ndarray.KeyItem{Kind: ndarray.KeyNewAxis}
	ellipsis = ndarray.KeyItem{Kind: ndarray.KeyEllipsis}
)

// index applies key to a and releases the view when the test ends.
func index(t *testing.T, a *ndarray.NDArray, key ...ndarray.KeyItem) *ndarray.NDArray {
	t.Helper()
	v, err := a.Index(key)
	require.NoError(t, err)
	t.Cleanup(v.Release)
	return v
}

func intScalar(v int64) ops.Scalar     { return ops.Scalar{Int: v, IsInt: true} }
func floatScalar(v float64) ops.Scalar { return ops.Scalar{Value: complex(v, 0)} }
func seq(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i)
	}
	return out
}

func fmtWrap(err error) error { return fmt.Errorf("context: %w", err) }

// ints maps nil to an empty slice, so that a 0-d shape compares equal either way.
func ints(x []int) []int {
	if x == nil {
		return []int{}
	}
	return x
}

// rawSet writes vals into a's elements in C order, straight to memory (after a's
// pending reads and writes, as every writer must).
func rawSet[T any](a *ndarray.NDArray, vals []T) {
	mustWait(ops.WaitToWrite(a))
	i := 0
	forEach(a.Shape(), func(idx []int) {
		*(*T)(elemPtr(a, idx)) = vals[i]
		i++
	})
}

// mustWait panics on an engine error: the helpers that call it have no *testing.T, and
// no test expects a kernel to fail.
func mustWait(err error) {
	if err != nil {
		panic(err)
	}
}

// cpuHas reports whether /proc/cpuinfo lists every flag (false off linux/amd64), so that
// tests of the C kernels fail, rather than pass vacuously, when dispatch misses a CPU
// that could run them.
// useCores sets GOMAXPROCS so that mxgo's loops split across n cores (ndarray.Cores:
// GOMAXPROCS less the runtime's spare P) and returns the GOMAXPROCS it replaced.
func useCores(n int) int { return runtime.GOMAXPROCS(n + ndarray.SpareP()) }

func cpuHas(flags ...string) bool {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return false
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "flags") {
			have := " " + line + " "
			for _, f := range flags {
				if !strings.Contains(have, " "+f+" ") {
					return false
				}
			}
			return true
		}
	}
	return false
}
