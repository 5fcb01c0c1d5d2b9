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

// float32 2x2 max pooling at stride 2 runs in C (internal/simd's pool2x2, eight windows a
// step, then four, and a scalar tail) and gives the bits of the Go loops (maxTiles2x2, unmaxTiles2x2):
// forward, _backward_Pooling (first maximum) and _backward_Pooling_v1 (every tie), over
// widths whose output lines cross the 8-window steps, odd lengths (a line or column in no
// window), batch 1, with ties, NaN, ±inf and ±0 (+0 wins over -0). float64 keeps the Go
// loops on both sides.
func TestPoolTiles2x2SimdMatchesGo(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewPCG(23, 5))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0}
	shapes := [][4]int{{1, 1, 2, 2}, {1, 3, 28, 28}, {2, 2, 5, 33}, {1, 1, 3, 17}, {3, 2, 14, 14}, {1, 2, 7, 49}, {2, 3, 10, 10}, {1, 1, 6, 24}}
	for range 6 {
		shapes = append(shapes, [4]int{1 + rng.IntN(3), 1 + rng.IntN(3), 2 + rng.IntN(12), 2 + rng.IntN(60)})
	}
	for _, s := range shapes {
		n, c, h, w := s[0], s[1], s[2], s[3]
		xv, gv := make([]float64, n*c*h*w), make([]float64, n*c*(h/2)*(w/2))
		for i := range xv {
			xv[i] = float64(rng.IntN(5) - 2)
			if rng.IntN(6) == 0 {
				xv[i] = special[rng.IntN(len(special))]
			}
		}
		for i := range gv {
			gv[i] = rng.Float64()*4 - 2
			if rng.IntN(20) == 0 {
				gv[i] = special[rng.IntN(len(special))]
			}
		}
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
			x, gy := fromValues(t, dt, xv, n, c, h, w), fromValues(t, dt, gv, n, c, h/2, w/2)
			const at = "kernel=2,2;stride=2,2;pool_type=max"
			run := func() [][]uint64 {
				y := mustOp(t, "Pooling", at, x)
				return [][]uint64{bits(values(t, y)), bits(values(t, mustOp(t, "_backward_Pooling", at, x, y, gy))),
					bits(values(t, mustOp(t, "_backward_Pooling_v1", at, x, y, gy)))}
			}
			was := simd.SetPool2x2(false)
			want := run()
			simd.SetPool2x2(was)
			got := run()
			for i := range want {
				require.Equal(t, want[i], got[i], fmt.Sprintf("%v %v: result %d", s, dt, i))
			}
		}
	}
}
