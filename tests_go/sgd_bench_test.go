package mxgotest

import (
	"testing"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// sgd_mom_update in place on the largest weight of the Gluon MLP (512 x 784). Run with
//
//	go test ./tests_go/ -run '^$' -bench SGDMomUpdate -cpu 1,2
func BenchmarkSGDMomUpdate(b *testing.B) {
	w := benchRamp(b, 512, 784)
	benchInto(b, "sgd_mom_update", "lr=0.01;momentum=0.9;rescale_grad=0.015625",
		[]*ndarray.NDArray{w, benchRamp(b, 512, 784), benchRamp(b, 512, 784)}, w)
}
