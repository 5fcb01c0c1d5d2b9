package mxgotest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/dlpack"
	"github.com/mxgo/mxgo/pkg/dlpack/dlpacktest"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// The Go share of an exchange, for profiling (go test -bench Exchange -cpuprofile ...);
// make bench measures the calls from Python against the peers.

// BenchmarkExchangeImport imports a foreign 4x4 float32 tensor and releases the array,
// which runs the producer's deleter.
func BenchmarkExchangeImport(b *testing.B) {
	ft := dlpacktest.NewLegacy(f32Spec(16, []int64{4, 4}, []int64{4, 1}))
	defer ft.Free()
	b.ReportAllocs()
	for range b.N {
		a, err := dlpack.ImportLegacy(ft.Ptr())
		if err != nil {
			b.Fatal(err)
		}
		a.Release()
	}
	require.Equal(b, b.N, ft.DeleterCalls())
}

// BenchmarkExchangeExport exports a 4x4 float32 array and runs the deleter.
func BenchmarkExchangeExport(b *testing.B) {
	a, err := ndarray.Empty(ndarray.Float32, []int{4, 4}, device.Host)
	require.NoError(b, err)
	defer a.Release()
	b.ReportAllocs()
	for range b.N {
		p, err := dlpack.ExportVersioned(a, 0)
		if err != nil {
			b.Fatal(err)
		}
		dlpacktest.CallVersionedDeleter(p)
	}
}

// BenchmarkDispatchAddOut is the Go share of a small operation's dispatch from Python:
// a 4x4 float32 add into an existing out, run inline.
func BenchmarkDispatchAddOut(b *testing.B) { benchDispatchAdd(b, true) }

// BenchmarkDispatchAdd is BenchmarkDispatchAddOut with a fresh result each time.
func BenchmarkDispatchAdd(b *testing.B) { benchDispatchAdd(b, false) }

func benchDispatchAdd(b *testing.B, into bool) {
	x, err := ndarray.Empty(ndarray.Float32, []int{4, 4}, device.Host)
	require.NoError(b, err)
	defer x.Release()
	var out *ndarray.NDArray
	if into {
		out, err = ndarray.Empty(ndarray.Float32, []int{4, 4}, device.Host)
		require.NoError(b, err)
		defer out.Release()
	}
	op, err := ops.Lookup("add")
	require.NoError(b, err)
	at, err := ops.ParseAttrs(op, "")
	require.NoError(b, err)
	in := []*ndarray.NDArray{x, x}
	b.ReportAllocs()
	for range b.N {
		r, err := op.Invoke(in, out, at)
		if err != nil {
			b.Fatal(err)
		}
		r.Release()
	}
}

// BenchmarkBorrow: borrowing a DLTensor view and releasing it, as an operator call on
// another framework's tensor does for each operand.
func BenchmarkBorrow(b *testing.B) {
	ft := dlpacktest.NewLegacy(f32Spec(16, []int64{16}, []int64{1}))
	defer ft.Free()
	b.ReportAllocs()
	for b.Loop() {
		a, err := dlpack.Borrow(ft.Ptr(), dlpack.FlagReadOnly)
		if err != nil {
			b.Fatal(err)
		}
		ndarray.ReleaseBorrowed(a, true) // as pybridge's calls do once the engine is idle
	}
}
