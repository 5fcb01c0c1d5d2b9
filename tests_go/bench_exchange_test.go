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
	t := ft.DLTensor()
	b.ReportAllocs()
	for b.Loop() {
		bs := ndarray.NewBorrowings()
		if _, err := dlpack.Borrow(bs.Next(), t, dlpack.FlagReadOnly); err != nil {
			b.Fatal(err)
		}
		bs.Release(true) // as pybridge's calls do once the engine is idle
	}
}

// BenchmarkBorrowChecked is BenchmarkBorrow for a tensor C's quick check accepted, as an
// operator call's torch operands are: three of them, as in add(a, b, out=c).
func BenchmarkBorrowChecked(b *testing.B) {
	ft := dlpacktest.NewLegacy(f32Spec(16, []int64{16}, []int64{1}))
	defer ft.Free()
	q, ok := ft.Quick(dlpack.FlagReadOnly)
	require.True(b, ok)
	t := ft.DLTensor()
	b.ReportAllocs()
	for b.Loop() {
		bs := ndarray.NewBorrowings()
		for range 3 {
			dlpack.BorrowChecked(bs.Next(), t, q)
		}
		bs.Release(true)
	}
}
