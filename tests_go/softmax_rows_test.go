package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// The softmax family's C rows (float32 lanes along a contiguous last axis) give the Go
// lanes' bits: every kind, temperatures, row lengths around the vectors and the 32 KiB
// batches, several rows (the batches split across cores), and rows with NaN, infinities,
// signed zeros and values far apart. NaN payloads are not compared.
func TestSoftmaxRowsCMatchGo(t *testing.T) {
	checkLeaks(t)
	if !simd.Running()["unary32"] {
		t.Log("no AVX2: the Go lanes alone run, and the softmax tests cover them")
	}
	defer simd.SetUnary32(simd.SetUnary32(true))
	r := rand.New(rand.NewPCG(31, 32))
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 88.7, -103, 1e30, -1e30}
	lengths := []int{1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1000, 1001, 8193}
	for _, n := range lengths {
		rows := max(3, 40000/n)
		vals := make([]float64, rows*n)
		for i := range vals {
			vals[i] = r.NormFloat64() * 4
		}
		for row := 1; row < min(rows, 12); row++ { // rows with one or two special values
			vals[row*n+r.IntN(n)] = specials[(row-1)%len(specials)]
			vals[row*n+r.IntN(n)] = specials[(row+3)%len(specials)]
		}
		if rows > 12 {
			for i := range n { // an all-zero row of mixed signs
				vals[12*n+i] = math.Copysign(0, float64(i%2)-0.5)
			}
		}
		x := fromValues(t, ndarray.Float32, vals, rows, n)
		for _, c := range []struct{ op, attrs string }{
			{"softmax", ""}, {"softmax", "temperature=0.5"}, {"log_softmax", ""}, {"log_softmax", "temperature=3"},
			{"softmin", ""}, {"softmin", "temperature=0.7"},
		} {
			what := fmt.Sprintf("%s(%s) rows of %d", c.op, c.attrs, n)
			simd.SetUnary32(true)
			got := rawValues[float32](mustOp(t, c.op, c.attrs, x))
			simd.SetUnary32(false)
			want := rawValues[float32](mustOp(t, c.op, c.attrs, x))
			for i := range want {
				if want[i] != want[i] && got[i] != got[i] {
					continue
				}
				require.Equal(t, math.Float32bits(want[i]), math.Float32bits(got[i]), "%s: element %d (%v against %v)", what, i, got[i], want[i])
			}
		}
	}
}
