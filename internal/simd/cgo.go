package simd

// The compiler flags of every C file of the package (cgo applies a package's #cgo
// directives to all its C files). gopy builds with -ffast-math, which the kernels must
// not have: they would assume finite values and reassociate, and their bits must be the
// Go twins'. Warnings that hide ABI bugs are errors, as in every package with C.

/*
#cgo CFLAGS: -O3 -fno-fast-math -Werror=implicit-function-declaration -Werror=incompatible-pointer-types -Werror=int-conversion
*/
import "C"
