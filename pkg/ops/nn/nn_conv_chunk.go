package nn

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Convolutions with few output positions per image (the deep layers of a ResNet on 32x32
// images: 4x4, 2x2, 1x1) make one GEMM per image too thin to run fast. These paths put
// the columns of several images side by side, so that one product covers a chunk of
// images: Convolution's forward, its weight gradient, and Deconvolution (which is also
// Convolution's data gradient). The sums are the per-image paths' in another grouping.

// chunkWidth is the number of columns a product is worth widening to.
const chunkWidth = 512

// chunkImages is how many images one product takes: 1 when an image alone is wide enough.
func chunkImages(n, cols int) int {
	if cols >= chunkWidth {
		return 1
	}
	return max(1, min(n, chunkWidth/cols))
}

// forChunks runs fn over the images [0, n) in chunks of b, each call with a buffer of
// bufLen: chunks go to the cores when there are enough of them, else they run one after
// another with the products split across the cores.
func forChunks[T nnFloat](n, b, bufLen int, fn func(n0, n1 int, buf []T, parallel bool)) {
	chunks := (n + b - 1) / b
	if workers := ndarray.Cores(); chunks >= workers && chunks > 1 {
		ndarray.ForChunks(chunks, min(workers, chunks), func(lo, hi int) {
			buf := getScratch[T](bufLen)
			for c := lo; c < hi; c++ {
				fn(c*b, min(n, (c+1)*b), buf, false)
			}
			putScratch(buf)
		})
		return
	}
	buf := getScratch[T](bufLen)
	for c := range chunks {
		fn(c*b, min(n, (c+1)*b), buf, true)
	}
	putScratch(buf)
}

// gatherRows copies rows [f0, f0+rows) of images [n0, n1) of x (images of channels rows
// of cols) side by side into dst (rows by (n1-n0)*cols); scatterRows is the reverse.
func gatherRows[T nnFloat](dst, x []T, n0, n1, channels, f0, rows, cols int) {
	ld := (n1 - n0) * cols
	for i := range n1 - n0 {
		for f := range rows {
			copy(dst[f*ld+i*cols:][:cols], x[((n0+i)*channels+f0+f)*cols:][:cols])
		}
	}
}

func scatterRows[T nnFloat](x, src []T, n0, n1, channels, f0, rows, cols int) {
	ld := (n1 - n0) * cols
	for i := range n1 - n0 {
		for f := range rows {
			copy(x[((n0+i)*channels+f0+f)*cols:][:cols], src[f*ld+i*cols:][:cols])
		}
	}
}

// convForwardChunked is convForward with b images per product, adding the bias.
func convForwardChunked[T nnFloat](g *convGeom, x [][]T, y []T, b int) {
	cg, fg := g.c/g.group, g.f/g.group
	rows, cols := cg*g.kernelVol(), g.outVol()
	forChunks(g.n, b, (rows+fg)*b*cols, func(n0, n1 int, buf []T, parallel bool) {
		ld := (n1 - n0) * cols
		col, out := buf[:rows*ld], buf[rows*ld:(rows+fg)*ld]
		for gi := range g.group {
			for i := range n1 - n0 {
				colTransfer(g, x[0][((n0+i)*g.c+gi*cg)*g.inVol():], col[i*cols:], ld, cg, false)
			}
			nnGemm(fg, ld, rows, x[1][gi*fg*rows:], rows, 1, col, ld, 1, out, parallel)
			scatterRows(y, out, n0, n1, g.f, gi*fg, fg, cols)
		}
		convAddBias(g, x, y, n0, n1)
	})
}

// weightChunk is how many images one product of the weight gradient takes: its result
// is only filters by taps, so the products take at least chunkImages' images (a deep
// layer's 4x4 images one by one made products of 16 columns, each writing all of dw) and
// are widened further until a chunk's columns fill weightBuf elements, keeping a chunk
// per core.
func weightChunk(n, rows, cols int) int {
	perCore := (n + ndarray.Cores() - 1) / ndarray.Cores()
	return max(chunkImages(n, cols), min(perCore, weightBuf/(rows*cols)))
}

// weightBuf is the most elements of a chunk's column buffer unless one image needs more:
// 256 KB of float32 stays in a core's cache (at 2 MB the step of bench_autograd's CNN
// spent 8% zeroing new buffers, and the products ran slower).
const weightBuf = 1 << 16

// convWeightGradChunks sets dw to the weight gradient of the chunks [c0, c1) of b images.
func convWeightGradChunks[T nnFloat](g *convGeom, x [][]T, dw []T, c0, c1, b int, parallel bool) {
	cg, fg := g.c/g.group, g.f/g.group
	rows, cols := cg*g.kernelVol(), g.outVol()
	clear(dw)
	buf := getScratch[T]((rows+fg)*b*cols + fg*rows)
	defer putScratch(buf)
	col, gy, tmp := buf[:rows*b*cols], buf[rows*b*cols:(rows+fg)*b*cols], buf[(rows+fg)*b*cols:]
	for c := c0; c < c1; c++ {
		n0, n1 := c*b, min(g.n, (c+1)*b)
		ld := (n1 - n0) * cols
		for gi := range g.group {
			for i := range n1 - n0 {
				colTransfer(g, x[0][((n0+i)*g.c+gi*cg)*g.inVol():], col[i*cols:], ld, cg, false)
			}
			gatherRows(gy, x[1], n0, n1, g.f, gi*fg, fg, cols)
			nnGemm(fg, rows, ld, gy, ld, 1, col, 1, ld, tmp, parallel) // gy (fg, ld) @ col.T (ld, rows)
			dst := dw[gi*fg*rows : (gi+1)*fg*rows]
			for i, v := range tmp {
				dst[i] += v
			}
		}
	}
}

// deconvForwardChunked is deconvForward with b images per product.
func deconvForwardChunked[T nnFloat](g *convGeom, x [][]T, y []T, b int) {
	cg, fg := g.c/g.group, g.f/g.group // output and input channels per group
	rows, cols, vol := cg*g.kernelVol(), g.outVol(), g.inVol()
	forChunks(g.n, b, (rows+fg)*b*cols, func(n0, n1 int, buf []T, parallel bool) {
		ld := (n1 - n0) * cols
		col, gy := buf[:rows*ld], buf[rows*ld:(rows+fg)*ld]
		clear(y[n0*g.c*vol : n1*g.c*vol])
		for gi := range g.group {
			gatherRows(gy, x[0], n0, n1, g.f, gi*fg, fg, cols)
			// weight's group block is (fg, rows): its transpose is a strided view
			nnGemm(rows, ld, fg, x[1][gi*fg*rows:], 1, rows, gy, ld, 1, col, parallel)
			for i := range n1 - n0 {
				colTransfer(g, y[((n0+i)*g.c+gi*cg)*vol:], col[i*cols:], ld, cg, true)
			}
		}
	})
}
