// Package optim registers MXNet's optimizer update operators: the fused per-element
// updates that mx.optimizer calls (sgd_update ... adam_update, ftml_update, LAMB's
// phases), their aggregated multi_* forms, and the whole-array helpers of LARS and of
// mixed-precision training. An update writes the new weight into out (the weight itself,
// usually) and updates its states in place (ops.Op.Mutates); none is differentiable.
//
//	sweep.go     the one pass over the arrays (compute type, copies, chunks), shared checks
//	register.go  the shared parameters and the declaration of a one-weight update
//	sgd.go       sgd, sgd_mom, mp_sgd, mp_sgd_mom, nag_mom, mp_nag_mom, signsgd, signum
//	             (float32 sgd and sgd_mom without clipping: internal/simd's AVX2 pass)
//	adaptive.go  adam, rmsprop, rmspropalex, ftrl, ftml
//	lamb.go      lamb_update_phase1/2 and their mp_ forms
//	multi.go     multi_(mp_)sgd(_mom)_update and their preloaded_ forms
//	norms.go     multi_sum_sq, multi_lars, all_finite, multi_all_finite, reset_arrays
package optim
