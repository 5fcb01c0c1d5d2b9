// Package mxgotest holds the Go test suite and fuzz targets of mxgo's core packages
// (ndarray, ops, dlpack, engine). It imports only pkg/..., never the Python bridge, so it
// builds and runs without Python headers.
package mxgotest
