package nn

import (
	"sync/atomic"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// A convolution whose every window covers its whole image (a ResNet's 3x3 layers with
// padding 1 at 2x2 and 1x1 planes, its deep layers on 32x32 images) reads each input
// element, at each output position, through exactly one tap; the other taps fall in
// the padding, and im2col's product would multiply their zeros: 5 of 9 at 2x2, 8 of 9
// at 1x1. These paths instead spread the weights into a matrix of (channel, input
// element) columns by (filter, output position) rows, so that one product of the batch
// as it lies in memory with that matrix is the convolution, without im2col: Convolution's
// forward, its weight gradient and Deconvolution. The sums leave out the padding's zero
// products, so a non-finite weight at a dead tap does not reach the result, as it would
// through 0*inf, and they group an output's terms otherwise than im2col's product (the
// round-off differs by a few ulps of the sum of magnitudes).

// windowMax is the most elements the spread weights may have (16 MB of float32).
const windowMax = 1 << 22

var windowsOff atomic.Bool

// SetWholeWindows turns the whole-window path on or off (it is on), returning the
// previous setting: tests compare it with im2col's.
func SetWholeWindows(on bool) bool { return !windowsOff.Swap(!on) }

// windowTaps is, when each of g's windows covers the whole image (and one group), the
// tap linking output position o and input element i, at o*inVol+i; else nil.
func windowTaps(g *convGeom) []int {
	iv, ov := g.inVol(), g.outVol()
	if g.group != 1 || g.c*g.f*iv*ov > windowMax || windowsOff.Load() {
		return nil
	}
	var axes [3][]int // the tap on axis j linking o and i, at o*in[j]+i
	for j := range 3 {
		for o := range g.out[j] {
			for i := range g.in[j] {
				r := i - o*g.s[j] + g.p[j]
				if r < 0 || r%g.d[j] != 0 || r/g.d[j] >= g.k[j] {
					return nil
				}
				axes[j] = append(axes[j], r/g.d[j])
			}
		}
	}
	taps := make([]int, 0, ov*iv)
	for o := range ov {
		o0, o1, o2 := o/(g.out[1]*g.out[2]), o/g.out[2]%g.out[1], o%g.out[2]
		for i := range iv {
			i0, i1, i2 := i/(g.in[1]*g.in[2]), i/g.in[2]%g.in[1], i%g.in[2]
			k0, k1, k2 := axes[0][o0*g.in[0]+i0], axes[1][o1*g.in[1]+i1], axes[2][o2*g.in[2]+i2]
			taps = append(taps, (k0*g.k[1]+k1)*g.k[2]+k2)
		}
	}
	return taps
}

// spreadWeights is the scratch matrix (f*outVol rows by c*inVol columns) holding, at
// (fi, o), (ci, i), the weight w[fi, ci, taps[o, i]]. A filter's weights and rows stay
// in L1 while each (o, i) pair runs down the channels, and the filters go to the cores.
func spreadWeights[T nnFloat](g *convGeom, w []T, taps []int) []T {
	iv, ov, kv := g.inVol(), g.outVol(), g.kernelVol()
	m := getScratch[T](g.f * ov * g.c * iv)
	forFilters(g, func(fi int) {
		wf := w[fi*g.c*kv:][:g.c*kv]
		if simd.Spread(wf, m[fi*ov*g.c*iv:], taps, ov, iv, kv, g.c, false) {
			return
		}
		for o := range ov {
			row := m[(fi*ov+o)*g.c*iv:][:g.c*iv]
			for i, t := range taps[o*iv : (o+1)*iv] {
				stridedMove(row[i:], iv, wf[t:], kv, g.c, false)
			}
		}
	})
	return m
}

// stridedMove sets a[j*as] to b[j*bs] for j < n, or (back) adds the former to the
// latter: a loop of its own, which the compiler keeps in registers.
func stridedMove[T nnFloat](a []T, as int, b []T, bs, n int, back bool) {
	a, b = a[:(n-1)*as+1], b[:(n-1)*bs+1]
	if back {
		for j, k := 0, 0; j < len(a); j, k = j+as, k+bs {
			b[k] += a[j]
		}
		return
	}
	for j, k := 0, 0; j < len(a); j, k = j+as, k+bs {
		a[j] = b[k]
	}
}

// forFilters runs fn on every filter of g, split across the cores when the spread
// weights are large.
func forFilters(g *convGeom, fn func(fi int)) {
	tasks := 1
	if g.c*g.f*g.inVol()*g.outVol() >= 1<<16 {
		tasks = min(ndarray.Cores(), g.f)
	}
	ndarray.ForChunks(g.f, tasks, func(lo, hi int) {
		for fi := lo; fi < hi; fi++ {
			fn(fi)
		}
	})
}

// windowForward sets y (n, f*outVol) to x (n, c*inVol) times the spread weights
// transposed.
func windowForward[T nnFloat](g *convGeom, x, w, y []T, taps []int) {
	m := spreadWeights(g, w, taps)
	k, cols := g.c*g.inVol(), g.f*g.outVol()
	nnGemm(g.n, cols, k, x, k, 1, m, 1, k, y, true)
	putScratch(m)
}

// windowDeconv sets y (n, c*inVol) to x (n, f*outVol) times the spread weights: the
// transposed convolution, whose weight is (f, c, kernel).
func windowDeconv[T nnFloat](g *convGeom, x, w, y []T, taps []int) {
	m := spreadWeights(g, w, taps)
	k, cols := g.f*g.outVol(), g.c*g.inVol()
	nnGemm(g.n, cols, k, x, k, 1, m, cols, 1, y, true)
	putScratch(m)
}

// windowWeightGrad sets dw (f, c, kernel) to the sums, over the (o, i) pairs that each
// tap links, of gy.T (f*outVol, n) times x (n, c*inVol); 0 at the taps that link none.
func windowWeightGrad[T nnFloat](g *convGeom, x, gy, dw []T, taps []int) {
	iv, ov, kv := g.inVol(), g.outVol(), g.kernelVol()
	rows, cols := g.f*ov, g.c*iv
	m := getScratch[T](rows * cols)
	defer putScratch(m)
	nnGemm(rows, cols, g.n, gy, 1, rows, x, cols, 1, m, true)
	forFilters(g, func(fi int) {
		wf := dw[fi*g.c*kv:][:g.c*kv]
		clear(wf)
		if simd.Spread(wf, m[fi*ov*cols:], taps, ov, iv, kv, g.c, true) {
			return
		}
		for o := range ov {
			row := m[(fi*ov+o)*cols:][:cols]
			for i, t := range taps[o*iv : (o+1)*iv] {
				stridedMove(row[i:], iv, wf[t:], kv, g.c, true)
			}
		}
	})
}
