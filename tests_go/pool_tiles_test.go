package mxgotest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// 2x2 max pooling with stride 2 of 2-D planes has loops of its own (nn_pool_fast.go:
// tiles2x2). The same planes as the depth-2 volumes of 3-D pooling by (1, 2, 2) take the
// general path: forward, _backward_Pooling and _backward_Pooling_v1 (every tie gets the
// gradient) must give the same bits, with ties, NaNs and odd lengths (the last line or
// column in no window).
func TestPoolTiles2x2MatchGeneralPath(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewPCG(9, 2))
	for range 12 {
		n, c, h, w := 1+rng.IntN(3), 2*(1+rng.IntN(2)), 2+rng.IntN(8), 2+rng.IntN(8)
		xv := make([]float64, n*c*h*w)
		for i := range xv {
			xv[i] = float64(rng.IntN(5) - 2) // ties are common
			if rng.IntN(9) == 0 {
				xv[i] = math.NaN()
			}
		}
		oh, ow := h/2, w/2
		gv := make([]float64, n*c*oh*ow)
		for i := range gv {
			gv[i] = float64(rng.IntN(5) - 2)
		}
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			what := fmt.Sprintf("%dx%dx%dx%d %v", n, c, h, w, dt)
			planes, volumes := []int{n, c, h, w}, []int{n, c / 2, 2, h, w}
			x2, x3 := fromValues(t, dt, xv, planes...), fromValues(t, dt, xv, volumes...)
			g2, g3 := fromValues(t, dt, gv, n, c, oh, ow), fromValues(t, dt, gv, n, c/2, 2, oh, ow)
			a2, a3 := "kernel=2,2;stride=2,2;pool_type=max", "kernel=1,2,2;stride=1,2,2;pool_type=max"
			y2, y3 := mustOp(t, "Pooling", a2, x2), mustOp(t, "Pooling", a3, x3)
			assert.Equal(t, bits(values(t, y3)), bits(values(t, y2)), "forward of "+what)
			y3as2 := fromValues(t, dt, values(t, y3), n, c, oh, ow)
			for _, op := range []string{"_backward_Pooling", "_backward_Pooling_v1"} {
				d2, d3 := mustOp(t, op, a2, x2, y3as2, g2), mustOp(t, op, a3, x3, y3, g3)
				assert.Equal(t, bits(values(t, d3)), bits(values(t, d2)), op+" of "+what)
			}
		}
	}
}

func bits(v []float64) []uint64 {
	b := make([]uint64, len(v))
	for i, x := range v {
		b[i] = math.Float64bits(x)
	}
	return b
}
