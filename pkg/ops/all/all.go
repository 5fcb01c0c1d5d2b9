// Package all decides which operator families a build contains: importing it registers
// every family's operators with the core registry (pkg/ops). Front ends (pybridge, tvmffi,
// Go programs and tests) import it once; a family left out here is absent from Lookup.
package all

import (
	_ "github.com/mxgo/mxgo/pkg/ops/elemwise" // arithmetic, comparisons, elementwise math, casts
	_ "github.com/mxgo/mxgo/pkg/ops/layout"   // shapes, slicing, gather/scatter, indexing, creation
	_ "github.com/mxgo/mxgo/pkg/ops/linalg"   // dot, batch_dot, matmul, mx.nd.linalg (LAPACK)
	_ "github.com/mxgo/mxgo/pkg/ops/nn"       // layers, activations, softmax, losses, spatial
	_ "github.com/mxgo/mxgo/pkg/ops/optim"    // optimizer updates: sgd_update ... adam_update, multi_*
	_ "github.com/mxgo/mxgo/pkg/ops/random"   // sampling, random_pdf_*, shuffle
	_ "github.com/mxgo/mxgo/pkg/ops/reduce"   // sum ... argmin, norm, cumsum, moments
	_ "github.com/mxgo/mxgo/pkg/ops/sorting"  // sort, argsort, topk, histogram
)
