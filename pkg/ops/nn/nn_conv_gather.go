package nn

import (
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/mxgo/mxgo/internal/simd"
	"github.com/mxgo/mxgo/pkg/ops/gemm"
)

// Float32 convolutions of 1-D and 2-D images as one product over the whole batch whose
// im2col matrix is never built: the product's kernel packs its panels straight from the
// images by masked gathers (simd.SgemmGathered), with zeros where a tap falls in the
// padding. Building the columns wrote a matrix larger than a core's cache (576 rows by 512
// columns for ResNet-18's 8x8 layer) only for the product to read it back and pack it;
// that was a third of the layer's time. The forward, the weight gradient (the columns'
// transpose gathered the same way) and, at stride 1, the data gradient (a convolution of
// the head gradient with the flipped kernel) take this path. The sums are the im2col
// paths' terms, grouped as the packed product groups any product.

// gatherRowsMin is the fewest rows (filters of a group; a group's input channels for the
// data gradient) for which the gathered products pay: each gathered element feeds that
// many multiply-adds, and the masked loads and gathers cost more than im2col's line
// copies on the few filters of a LeNet's or a small CNN's layers (measured by
// BenchmarkCNNOps and BenchmarkResNetConvs with SetGathered off and on: 8 and 16
// filters ran up to 5 times slower gathered, 64 and more up to 2 times faster).
const gatherRowsMin = 32

var gatherOff atomic.Bool

// SetGathered turns the gathered path on or off (it is on), returning the previous
// setting: tests compare it with the im2col paths.
func SetGathered(on bool) bool { return !gatherOff.Swap(!on) }

// gathered returns x, w and y as float32 slices when the gathered path takes g.
func gathered[T nnFloat](g *convGeom, x, w, y []T) (xs, ws, ys []float32, ok bool) {
	if g.f/g.group < gatherRowsMin {
		return nil, nil, nil, false
	}
	xs, ok1 := any(x).([]float32)
	ws, ok2 := any(w).([]float32)
	ys, ok3 := any(y).([]float32)
	ok = ok1 && ok2 && ok3 && g.nd <= 2 && simd.SgemmSupported && !gatherOff.Load() && !g.pointwise() &&
		g.n > 0 && g.n*g.c*g.inVol() <= math.MaxInt32 && g.n*g.f*g.outVol() <= math.MaxInt32 &&
		!simd.Misaligned(4, unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(w)), unsafe.Pointer(unsafe.SliceData(y)))
	return xs, ws, ys, ok
}

// convTables are the gather tables (simd.Gathered's Tabs) of g's im2col matrix for one
// group of cg channels, or with transposed of its transpose: the im2col rows (channel,
// tap) as offset, row and column of the tap relative to a window's corner, and its
// columns (image, window) as the window corner's offset, row and column; the product's
// rows first.
func convTables(g *convGeom, cg int, transposed bool) []int32 {
	kv, vol, ov := g.kernelVol(), g.inVol(), g.outVol()
	nr, nc := cg*kv, g.n*ov
	tabs := make([]int32, 3*(nr+nc))
	rows, cols := tabs[:3*nr], tabs[3*nr:]
	if transposed {
		cols, rows = tabs[:3*nc], tabs[3*nc:]
	}
	ro, rh, rw := rows[:nr], rows[nr:2*nr], rows[2*nr:]
	for c := range cg {
		for a := range g.k[1] {
			for b := range g.k[2] {
				r := (c*g.k[1]+a)*g.k[2] + b
				rh[r], rw[r] = int32(a*g.d[1]-g.p[1]), int32(b*g.d[2]-g.p[2])
				ro[r] = int32(c*vol) + rh[r]*int32(g.in[2]) + rw[r]
			}
		}
	}
	co, ch, cw := cols[:nc], cols[nc:2*nc], cols[2*nc:]
	for i := range g.n {
		for y := range g.out[1] {
			for x := range g.out[2] {
				j := i*ov + y*g.out[2] + x
				ch[j], cw[j] = int32(y*g.s[1]), int32(x*g.s[2])
				co[j] = int32(i*g.c*vol) + ch[j]*int32(g.in[2]) + cw[j]
			}
		}
	}
	return tabs
}

func ptr32(s []float32) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// gatherPlan is what a gathered product of g needs: the images x and the two other
// float32 operands, the sizes of a group (channels cg, filters fg, rows of the columns),
// the windows of the batch (n) and the gathering of the columns (or their transpose).
type gatherPlan struct {
	x, a, b      []float32
	cg, fg, rows int
	ov, n        int
	gt           *simd.Gathered
}

// planGathered returns g's plan with a and b (the filters and the result; with
// transposed, the head gradient and the weight gradient), or false where the gathered
// path does not take g.
func planGathered[T nnFloat](g *convGeom, x, a, b []T, transposed bool) (*gatherPlan, bool) {
	xs, as, bs, ok := gathered(g, x, a, b)
	if !ok {
		return nil, false
	}
	p := &gatherPlan{x: xs, a: as, b: bs, cg: g.c / g.group, fg: g.f / g.group, ov: g.outVol()}
	p.rows, p.n = p.cg*g.kernelVol(), g.n*p.ov
	p.gt = &simd.Gathered{Tabs: convTables(g, p.cg, transposed), H: int32(g.in[1]), W: int32(g.in[2])}
	return p, true
}

// image is group gi's images.
func (p *gatherPlan) image(g *convGeom, gi int) unsafe.Pointer { return ptr32(p.x[gi*p.cg*g.inVol():]) }

// convForwardGathered is convForward (without the bias) by gathered products, one per
// group, reporting false (doing nothing) where the path does not take g.
func convForwardGathered[T nnFloat](g *convGeom, x, w, y []T) bool {
	p, ok := planGathered(g, x, w, y, false)
	if !ok {
		return false
	}
	out := getScratch[float32](p.fg * p.n)
	defer putScratch(out)
	for gi := range g.group {
		simd.SgemmGathered(gemm.PoolTasks(p.n, p.fg*p.rows), p.fg, p.n, p.rows, ptr32(p.a[gi*p.fg*p.rows:]), p.rows, 1,
			p.image(g, gi), p.gt, ptr32(out), p.n)
		scatterRows(p.b, out, 0, g.n, g.f, gi*p.fg, p.fg, p.ov)
	}
	return true
}

// convWeightGradGathered is convWeightGrad by gathered products: per group, the head
// gradient (fg by images x windows) times the transposed columns.
func convWeightGradGathered[T nnFloat](g *convGeom, x, gy, dw []T) bool {
	p, ok := planGathered(g, x, gy, dw, true)
	if !ok {
		return false
	}
	a := getScratch[float32](p.fg * p.n)
	defer putScratch(a)
	for gi := range g.group {
		gatherRows(a, p.a, 0, g.n, g.f, gi*p.fg, p.fg, p.ov)
		simd.SgemmGathered(gemm.PoolTasks(p.rows, p.fg*p.n), p.fg, p.rows, p.n, ptr32(a), p.n, 1,
			p.image(g, gi), p.gt, ptr32(p.b[gi*p.fg*p.rows:]), p.rows)
	}
	return true
}

// deconvGathered is deconvForward (without the bias) at stride 1 as the convolution of
// x (the head gradient of g's convolution) with w's kernel flipped and its channel axes
// swapped, padded by d*(k-1) - p: the data gradient. It reports false where that
// convolution does not exist (stride above 1, padding beyond the dilated kernel), the
// gathered path does not take it, or a weight is not finite: the convolution multiplies
// the padding's zeros by every weight, where col2im drops those terms (0 * inf is nan).
func deconvGathered[T nnFloat](g *convGeom, x, w, y []T) bool {
	t := *g
	t.c, t.f, t.in, t.out = g.f, g.c, g.out, g.in
	for j := range 3 {
		span := g.d[j]*(g.k[j]-1) + 1
		t.p[j] = span - 1 - g.p[j]
		if g.s[j] != 1 || t.p[j] < 0 || t.out[j] != t.in[j]+2*t.p[j]-span+1 {
			return false
		}
	}
	_, ws, _, ok := gathered(&t, x, w, y)
	if !ok {
		return false
	}
	for _, v := range ws {
		if v-v != 0 { // inf or nan
			return false
		}
	}
	cg, fg, kv := g.c/g.group, g.f/g.group, g.kernelVol()
	flipped := getScratch[T](len(w))
	defer putScratch(flipped)
	fs := any(flipped).([]float32)
	for gi := range g.group {
		for f := range fg {
			for c := range cg {
				src := ws[((gi*fg+f)*cg+c)*kv:][:kv]
				dst := fs[((gi*cg+c)*fg+f)*kv:][:kv]
				for i, v := range src {
					dst[kv-1-i] = v
				}
			}
		}
	}
	return convForwardGathered(&t, x, flipped, y)
}
