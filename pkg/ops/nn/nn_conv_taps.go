package nn

import (
	"sync"
	"sync/atomic"

	"github.com/mxgo/mxgo/internal/simd"
)

// Small output planes (a ResNet's deep layers on 32x32 images: 8x8 down to 1x1) make
// colRow's per-line work (a tap span, a copy and two clears a line of a few elements)
// cost more than the columns' GEMM. For them im2col and col2im instead walk a table,
// built once per geometry, of each tap's source offset in a channel for every window:
// one gather (or add) an element. The adds run tap by tap as colRow's do, so col2im sums
// in the same order and gives the same bits.

// tapsLine is the output line length below which the table path runs (measured by
// BenchmarkResNetConvs: tables win on lines of 8 and less; from 12, colRow's copies of
// whole lines, or shiftedPlane's of whole planes, win), and tapsMax the most entries a
// table may have (larger kernels and planes keep colRow).
const (
	tapsLine = 10
	tapsMax  = 1 << 15
	tapsKept = 256 // geometries cached at most
)

// tapKey is what a table depends on: a convolution's window over one channel.
type tapKey struct{ in, out, k, s, d, p [3]int }

var (
	tapsMu    sync.Mutex
	tapTables = map[tapKey][]int32{}
	tapsOff   atomic.Bool
)

// SetTapTables turns the table path on or off (it is on), returning the previous
// setting: tests compare it with colRow's.
func SetTapTables(on bool) bool { return !tapsOff.Swap(!on) }

// tapTable is g's table, tap-major as im2col's rows (each tap's windows in output
// order, -1 where the tap falls in the padding), or nil where colRow is faster.
func tapTable(g *convGeom) []int32 {
	kv, ov := g.kernelVol(), g.outVol()
	if g.out[2] >= tapsLine || kv*ov > tapsMax || tapsOff.Load() {
		return nil
	}
	key := tapKey{g.in, g.out, g.k, g.s, g.d, g.p}
	tapsMu.Lock()
	defer tapsMu.Unlock()
	if t, ok := tapTables[key]; ok {
		return t
	}
	t := make([]int32, 0, kv*ov)
	for k0 := range g.k[0] {
		for k1 := range g.k[1] {
			for k2 := range g.k[2] {
				t = appendTaps(g, t, [3]int{k0, k1, k2})
			}
		}
	}
	if len(tapTables) < tapsKept {
		tapTables[key] = t
	}
	return t
}

// appendTaps appends tap k's source offset for every window of g to t.
func appendTaps(g *convGeom, t []int32, k [3]int) []int32 {
	for a := range g.out[0] {
		ia := a*g.s[0] + k[0]*g.d[0] - g.p[0]
		for b := range g.out[1] {
			ib := b*g.s[1] + k[1]*g.d[1] - g.p[1]
			for c := range g.out[2] {
				ic := c*g.s[2] + k[2]*g.d[2] - g.p[2]
				off := int32(-1)
				if ia >= 0 && ia < g.in[0] && ib >= 0 && ib < g.in[1] && ic >= 0 && ic < g.in[2] {
					off = int32((ia*g.in[1]+ib)*g.in[2] + ic)
				}
				t = append(t, off)
			}
		}
	}
	return t
}

// tapsTransfer is colTransfer by table t: row r of col (at r*ld) gets, or adds back to
// img, channel r/taps's elements at the offsets of tap r%taps.
func tapsTransfer[T nnFloat](t []int32, img, col []T, ld, cols, vol, channels int, back bool) {
	if simd.Taps(t, img, col, ld, cols, vol, channels, back) {
		return
	}
	taps := len(t) / cols
	for c := range channels {
		src := img[c*vol : (c+1)*vol]
		for k := range taps {
			row := col[(c*taps+k)*ld:][:cols]
			offs := t[k*cols : (k+1)*cols]
			if back {
				for p, o := range offs {
					if o >= 0 {
						src[o] += row[p]
					}
				}
				continue
			}
			for p, o := range offs {
				v := T(0)
				if o >= 0 {
					v = src[o]
				}
				row[p] = v
			}
		}
	}
}
