package mxgotest

import (
	"fmt"
	"testing"
)

// The float32 products of a dense layer's training step (batch 64: forward, dX = G W,
// dW = G^T X), in GFLOP/s. Run with
//
//	go test ./tests_go/ -run '^$' -bench GemmDense -cpu 1,2
func BenchmarkGemmDense(b *testing.B) {
	for _, c := range []struct {
		attrs  string
		sa, sb []int
	}{
		{"transpose_b=1", []int{64, 784}, []int{512, 784}},
		{"transpose_b=1", []int{64, 512}, []int{512, 512}},
		{"", []int{64, 512}, []int{512, 784}},
		{"transpose_a=1", []int{64, 512}, []int{64, 784}},
		{"transpose_a=1", []int{64, 512}, []int{64, 512}},
	} {
		b.Run(fmt.Sprintf("%v.%v_%s", c.sa, c.sb, c.attrs), func(b *testing.B) { benchDot(b, c.attrs, c.sa, c.sb) })
	}
}
