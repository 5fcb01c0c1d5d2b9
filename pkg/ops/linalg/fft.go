package linalg

import (
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
)

// _npi_fft: the complex-to-complex DFT along the last axis, the one kernel of mx.np.fft
// (MXNet 1.9.1's mx.np has no fft; its contrib fft is GPU-only). The n-d, real and
// Hermitian transforms, NumPy's n (cropping, zero padding), axes and norm are mx.np.fft's
// (Python) business; scale multiplies the result so that a norm costs no extra pass.
// complex64 computes in complex128 and rounds once at the end.

func init() {
	ops.Register(&ops.Op{
		Name: "_npi_fft", Category: ops.General, Inputs: []string{"data"},
		DTypes: []ndarray.DType{ndarray.Complex64, ndarray.Complex128},
		Params: []ops.Param{
			{Name: "inverse", Kind: ops.ParamBool, Default: "0", Doc: "exp(+2 pi i jk/n) (unnormalized unless scale)"},
			{Name: "scale", Kind: ops.ParamFloat, Default: "1", Doc: "multiplies every element of the result"},
		},
		Doc: "The discrete Fourier transform of each 1-d slice along the last axis, any length (radix-2 for powers " +
			"of two, Bluestein's chirp-z otherwise): X[k] = scale * sum_j x[j] exp(-+2 pi i jk/n). No gradient.",
		Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
			if in[0].NDim() == 0 {
				return nil, 0, mxerr.ValueErr("_npi_fft: the input must have at least 1 dimension, got a 0-d array")
			}
			return slices.Clone(in[0].Shape()), in[0].DType(), nil
		},
		Kernel: fftKernel,
	})
}

func fftKernel(in, out []*ndarray.NDArray, at ops.Attrs) error {
	x := in[0]
	shape := x.Shape()
	n := shape[len(shape)-1]
	if x.Size() == 0 {
		return nil
	}
	buf, err := ndarray.Empty(ndarray.Complex128, shape, x.Device())
	if err != nil {
		return err
	}
	defer buf.Release()
	if x.DType() == ndarray.Complex64 {
		ops.Map1(buf, x, func(z complex64) complex128 { return complex128(z) })
	} else {
		ndarray.MoveElems(buf, x)
	}
	data := unsafe.Slice((*complex128)(buf.Storage().Ptr()), buf.Size())
	p, inverse, scale := planFor(n), at.Bool("inverse"), complex(at.Float("scale"), 0)
	rows := len(data) / n
	ndarray.ForChunks(rows, min(ndarray.Cores(), rows), func(lo, hi int) {
		var work []complex128
		if p.inner != nil {
			work = make([]complex128, len(p.kernel))
		}
		for r := lo; r < hi; r++ {
			row := data[r*n : (r+1)*n]
			p.transform(row, work, inverse)
			if scale != 1 {
				for i := range row {
					row[i] *= scale
				}
			}
		}
	})
	if out[0].DType() == ndarray.Complex64 {
		ops.Map1(out[0], buf, func(z complex128) complex64 { return complex64(z) })
	} else {
		ndarray.MoveElems(out[0], buf)
	}
	return nil
}
