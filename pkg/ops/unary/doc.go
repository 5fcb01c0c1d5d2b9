// Package unary is the table of MXNet's unary elementwise functions (negative, abs, sign,
// square, relu, exp, log, sqrt, sin, cos, tanh, sigmoid) with their dtype rules and
// kernels, including the fast float32 rows of exp, sigmoid and tanh (exp32.go). Package
// elemwise registers them as operators; nn's Activation and output layers run the same
// definitions. It registers no operators.
package unary
