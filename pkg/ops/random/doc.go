// Package random registers the sampling operators: random_ and sample_<distribution>,
// randint, shuffle, multinomial, and random_pdf_<distribution>. Every sampler draws its
// seed from the core's generator (ops.DrawSeed) when it is invoked, so results follow the
// order of calls.
//
//	random.go         Uniform and Normal for Go callers
//	random_dist.go    the distributions' samplers
//	random_int.go     randint, shuffle, multinomial
//	random_pdf.go     random_pdf_<distribution>
package random
