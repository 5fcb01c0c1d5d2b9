package nn

// A convolution of 1x1 images to 1x1 results with a padded window (a ResNet's 3x3
// layers at 512 channels on 32x32 images) reads one tap of its kernel: the others fall
// in the padding, so their im2col rows are zeros, eight ninths of the products. It is a
// fully connected layer on that tap's weights (a strided view), which these paths
// compute: Convolution's forward, its weight gradient and Deconvolution. The sums leave
// out the zero products, so a non-finite weight at a dead tap does not reach the
// result, as it would through 0*inf.

// fcTap is the one tap g reads when its images and results are single elements (and
// one group), else -1.
func fcTap(g *convGeom) int {
	if g.group != 1 || g.inVol() != 1 || g.outVol() != 1 {
		return -1
	}
	tap := 0
	for i := range 3 { // the tap at the image's element: k*d == p on every axis
		if g.p[i]%g.d[i] != 0 || g.p[i]/g.d[i] >= g.k[i] {
			return -1
		}
		tap = tap*g.k[i] + g.p[i]/g.d[i]
	}
	return tap
}

// tapWeights copies the tap's weights (f, c of w's f, c, kernel) into a row-major
// scratch matrix, (c, f) when transposed: the GEMM's operands.
func tapWeights[T nnFloat](g *convGeom, w []T, tap int, transposed bool) []T {
	kv := g.kernelVol()
	wt := getScratch[T](g.f * g.c)
	for i := range wt {
		j := i
		if transposed {
			j = i%g.f*g.c + i/g.f
		}
		wt[i] = w[j*kv+tap]
	}
	return wt
}

// tapFCForward sets y (n, f) to x (n, c) times the tap's weights transposed.
func tapFCForward[T nnFloat](g *convGeom, x, w, y []T, tap int) {
	wt := tapWeights(g, w, tap, true)
	nnGemm(g.n, g.f, g.c, x, g.c, 1, wt, g.f, 1, y, true)
	putScratch(wt)
}

// tapFCWeightGrad sets dw (f, c, kernel) to gy.T (f, n) times x (n, c) at the tap, 0 at
// the others.
func tapFCWeightGrad[T nnFloat](g *convGeom, x, gy, dw []T, tap int) {
	kv := g.kernelVol()
	tmp := getScratch[T](g.f * g.c)
	defer putScratch(tmp)
	nnGemm(g.f, g.c, g.n, gy, 1, g.f, x, g.c, 1, tmp, true)
	clear(dw)
	for i, v := range tmp {
		dw[i*kv+tap] = v
	}
}

// tapFCDeconv sets y (n, c) to x (n, f) times the tap's weights: the transposed
// convolution, whose weight is (f, c, kernel).
func tapFCDeconv[T nnFloat](g *convGeom, x, w, y []T, tap int) {
	wt := tapWeights(g, w, tap, false)
	nnGemm(g.n, g.c, g.f, x, g.f, 1, wt, g.c, 1, y, true)
	putScratch(wt)
}
