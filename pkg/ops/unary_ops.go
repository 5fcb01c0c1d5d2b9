package ops

import "github.com/mxgo/mxgo/pkg/ndarray"

const floatFnDoc = "\n\nEvery dtype is kept, as in MXNet: integers compute in float64 and convert back as C casts do " +
	"(NaN and out-of-range values give the integer minimum); bool arrays give float16 (MXNet has no bool kernel)."

func init() {
	for i := range unaryDefs {
		d := &unaryDefs[i]
		doc := d.doc
		if d.kind == floatFn {
			doc += floatFnDoc
		}
		Register(&Op{
			Name: d.name, Doc: doc, Category: Elementwise, Inputs: []string{"data"}, DTypes: d.dtypes, InPlace: true,
			Infer: func(in []*ndarray.NDArray, _ Attrs) ([]int, ndarray.DType, error) {
				return in[0].Shape(), d.resultDType(in[0].DType()), nil
			},
			Kernel: func(in, out []*ndarray.NDArray, _ Attrs) error {
				d.run(out[0], in[0])
				return nil
			},
		})
	}
}
