package elemwise

import (
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ops"
	"github.com/mxgo/mxgo/pkg/ops/unary"
)

const floatFnDoc = "\n\nEvery dtype is kept, as in MXNet: integers compute in float64 and convert back as C casts do " +
	"(NaN and out-of-range values give the integer minimum); bool arrays give float16 (MXNet has no bool kernel)."

func init() {
	for i := range unary.Defs {
		d := &unary.Defs[i]
		doc := d.Doc
		if d.Kind == unary.FloatFn {
			doc += floatFnDoc
		}
		ops.Register(&ops.Op{
			Name: d.Name, Doc: doc, Category: ops.Elementwise, Inputs: []string{"data"}, DTypes: d.DTypes, InPlace: true,
			Infer: func(in []*ndarray.NDArray, _ ops.Attrs) ([]int, ndarray.DType, error) {
				return in[0].Shape(), d.ResultDType(in[0].DType()), nil
			},
			Kernel: func(in, out []*ndarray.NDArray, _ ops.Attrs) error {
				d.Run(out[0], in[0])
				return nil
			},
			Grad: d.Grad,
		})
	}
}
