package mxgotest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// sgd_mom_update in place on the largest weight of the Gluon MLP (512 x 784). Run with
//
//	go test ./tests_go/ -run '^$' -bench SGDMomUpdate -cpu 1,2
func BenchmarkSGDMomUpdate(b *testing.B) {
	op, err := ops.Lookup("sgd_mom_update")
	require.NoError(b, err)
	at, err := ops.ParseAttrs(op, "lr=0.01;momentum=0.9;rescale_grad=0.015625")
	require.NoError(b, err)
	var in [3]*ndarray.NDArray
	for i := range in {
		a, err := ndarray.Empty(ndarray.Float32, []int{512, 784}, device.Host)
		require.NoError(b, err)
		defer a.Release()
		require.NoError(b, ops.Arange(a, -1, 1e-6))
		in[i] = a
	}
	require.NoError(b, ops.WaitAll())
	for b.Loop() {
		r, err := op.Invoke(in[:], in[0], at)
		if err != nil {
			b.Fatal(err)
		}
		r.Release()
		if err := ops.WaitToRead(in[0]); err != nil {
			b.Fatal(err)
		}
	}
}
