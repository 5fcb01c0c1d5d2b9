// Package dlpack implements the DLPack ABI for mxgo: exporting an NDArray as a legacy
// DLManagedTensor or a DLManagedTensorVersioned, and importing either as an NDArray
// that keeps the producer's tensor alive and calls its deleter exactly once.
//
// Everything read from a foreign tensor is checked by Validate, a pure-Go function over
// a copied Desc, before any of its memory is touched; the fuzz targets exercise it.
// Capsules are not handled here: they are CPython objects and live in pybridge.
package dlpack
