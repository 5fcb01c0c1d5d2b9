package nn

import "github.com/mxgo/mxgo/internal/simd"

// Max pooling of 2-D planes (the common CNN case: 2x2 windows, or 3x3 with stride 2 and
// padding 1 as ResNet's) in plain loops that clip each window's rows and columns.
// forWindows' general path, which clips every window and calls a function per output,
// cost ten times MXNet's time on a LeNet's 2x2 pooling.

// maxInside2D reports whether g is max pooling of 2-D planes with every window inside.
func (g *poolGeom) maxInside2D() bool {
	if g.kind != "max" || g.in[0] != 1 || g.k[0] != 1 {
		return false
	}
	for j := 1; j < 3; j++ {
		if g.convGeom.p[j] != 0 || (g.out[j]-1)*g.s[j]+g.k[j] > g.in[j] {
			return false
		}
	}
	return true
}

// max2D reports whether g is max pooling of 2-D planes (any padding and convention).
func (g *poolGeom) max2D() bool { return g.kind == "max" && g.in[0] == 1 && g.k[0] == 1 }

// win2D is g's window over one plane, as internal/simd takes it.
func (g *poolGeom) win2D() *simd.Win2D {
	c := &g.convGeom
	return &simd.Win2D{c.in[1], c.in[2], c.out[1], c.out[2], c.k[1], c.k[2], c.s[1], c.s[2], 1, 1, c.p[1], c.p[2]}
}

// span2D is poolSpan's window of output o on axis j (1 or 2), clipped to the input.
func span2D(g *poolGeom, j, o int) (lo, hi int) {
	start := o*g.s[j] - g.convGeom.p[j]
	return max(start, 0), min(start+g.k[j], g.in[j])
}

// maxPlane2D writes each window's maximum of plane x into y (a NaN never wins, as in
// poolWindow; a window wholly in the padding gives lowest).
func maxPlane2D[T nnFloat](g *poolGeom, x, y []T, lowest T) {
	w := g.in[2]
	i := 0
	for a := range g.out[1] {
		r0, r1 := span2D(g, 1, a)
		for b := range g.out[2] {
			c0, c1 := span2D(g, 2, b)
			m := lowest
			for r := r0; r < r1; r++ {
				for _, v := range x[r*w+c0 : r*w+c1] {
					if v == v { // well predicted; the builtin max has no branch on the data
						m = max(m, v)
					}
				}
			}
			y[i] = m
			i++
		}
	}
}

// unmaxPlane2D adds each window's gradient gy to the first element of x (in scan order)
// equal to the window's maximum y, or to every one with allTies. Which element is the
// maximum follows the data, so the loop adds gy times 0 or 1 instead of branching.
func unmaxPlane2D[T nnFloat](g *poolGeom, x, y, gy, dx []T) {
	w := g.in[2]
	ties := 0
	if g.allTies {
		ties = 1
	}
	i := 0
	for a := range g.out[1] {
		r0, r1 := span2D(g, 1, a)
		for b := range g.out[2] {
			c0, c1 := span2D(g, 2, b)
			yi, gi, taken := y[i], gy[i], 0
			for r := r0; r < r1; r++ {
				for j := r*w + c0; j < r*w+c1; j++ {
					hit := 0
					if x[j] == yi {
						hit = 1
					}
					dx[j] += gi * T(hit&^(taken&^ties))
					taken |= hit
				}
			}
			i++
		}
	}
}

// tiles2x2 reports whether g is max pooling of 2-D planes by 2x2 windows with stride 2
// (LeNet's and most CNNs'): the windows tile the plane, so each element has one window
// at most and the loops unroll.
func (g *poolGeom) tiles2x2() bool {
	return g.maxInside2D() && g.k[1] == 2 && g.k[2] == 2 && g.s[1] == 2 && g.s[2] == 2
}

// maxNum is max(m, v) when v is a number, else m: a NaN never wins.
func maxNum[T nnFloat](m, v T) T {
	if v == v {
		return max(m, v)
	}
	return m
}

// maxTiles2x2 is maxPlane2D for tiles2x2.
func maxTiles2x2[T nnFloat](g *poolGeom, x, y []T, lowest T) {
	w, o2 := g.in[2], g.out[2]
	for a := range g.out[1] {
		r0, r1, out := x[2*a*w:(2*a+1)*w], x[(2*a+1)*w:(2*a+2)*w], y[a*o2:(a+1)*o2]
		for b := range out {
			out[b] = maxNum(maxNum(maxNum(maxNum(lowest, r0[2*b]), r0[2*b+1]), r1[2*b]), r1[2*b+1])
		}
	}
}

// unmaxTiles2x2 is unmaxPlane2D for tiles2x2 into a dx it sets rather than adds to (the
// windows do not overlap, so no clearing pass): each window's elements get gy or 0 (as
// 0 + gy*0, the bits of the adding path), the elements past the last window 0.
func unmaxTiles2x2[T nnFloat](g *poolGeom, x, y, gy, dx []T) {
	w, o2 := g.in[2], g.out[2]
	ties := 0
	if g.allTies {
		ties = 1
	}
	clear(dx[2*g.out[1]*w:])
	for a := range g.out[1] {
		r0, r1 := x[2*a*w:(2*a+1)*w], x[(2*a+1)*w:(2*a+2)*w]
		d0, d1 := dx[2*a*w:(2*a+1)*w], dx[(2*a+1)*w:(2*a+2)*w]
		clear(d0[2*o2:])
		clear(d1[2*o2:])
		for b := range o2 {
			yi, gi, taken := y[a*o2+b], gy[a*o2+b], 0
			share := func(v T) T { // gy for the first element equal to the maximum (every one with ties)
				hit := 0
				if v == yi {
					hit = 1
				}
				r := 0 + gi*T(hit&^(taken&^ties))
				taken |= hit
				return r
			}
			d0[2*b], d0[2*b+1] = share(r0[2*b]), share(r0[2*b+1])
			d1[2*b], d1[2*b+1] = share(r1[2*b]), share(r1[2*b+1])
		}
	}
}

// maxPlanesC runs planes [lo, hi) of float32 x into y in C, one call for the range:
// 2x2 windows eight at a step (internal/simd's pool2x2, maxTiles2x2's bits), any other
// 2-D window as maxPlane2D does (pool2d.c); it reports whether it did.
func maxPlanesC[T nnFloat](g *poolGeom, x, y []T, lo, hi int, lowest T) bool {
	x32, ok := any(x).([]float32)
	if !ok {
		return false
	}
	in, out := g.inVol(), g.outVol()
	xs, ys := x32[lo*in:hi*in], any(y).([]float32)[lo*out:hi*out]
	switch {
	case g.tiles2x2():
		return simd.Max2x2F32(xs, ys, g.planes2x2(hi-lo), float32(lowest))
	case g.max2D():
		return simd.MaxPlanes2D(xs, ys, hi-lo, g.win2D(), float32(lowest))
	}
	return false
}

// unmaxPlanesC is maxPlanesC for the gradient (unmaxTiles2x2, or clearing dx and
// unmaxPlane2D), x = data, out, out_grad.
func unmaxPlanesC[T nnFloat](g *poolGeom, x [][]T, dx []T, lo, hi int) bool {
	d32, ok := any(dx).([]float32)
	if !ok {
		return false
	}
	in, out := g.inVol(), g.outVol()
	xs, ys := any(x[0]).([]float32)[lo*in:hi*in], any(x[1]).([]float32)[lo*out:hi*out]
	gys, dxs := any(x[2]).([]float32)[lo*out:hi*out], d32[lo*in:hi*in]
	switch {
	case g.tiles2x2():
		return simd.Unmax2x2F32(xs, ys, gys, dxs, g.planes2x2(hi-lo), g.allTies)
	case g.max2D():
		return simd.UnmaxPlanes2D(xs, ys, gys, dxs, hi-lo, g.win2D(), g.allTies)
	}
	return false
}

func (g *poolGeom) planes2x2(n int) simd.Plane2x2 {
	return simd.Plane2x2{Planes: n, H: g.in[1], W: g.in[2], O1: g.out[1], O2: g.out[2]}
}
