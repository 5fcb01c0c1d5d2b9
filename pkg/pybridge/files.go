package pybridge

/*
#include <stdint.h>
// A Python buffer's address, passed as an integer, as a pointer (Go's vet rightly refuses
// uintptr-to-pointer conversions in Go code).
static inline const void *mxgo_buffer_at(uintptr_t addr) { return (const void *)addr; }
*/
import "C"

import (
	"encoding/hex"
	"encoding/json"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
	"github.com/mxgo/mxgo/pkg/ndfile"
	"github.com/mxgo/mxgo/pkg/ops"
)

// mx.nd.save, load and load_frombuffer (pkg/ndfile holds the format). gopy copies a
// []byte one element at a time, so bytes never cross as a slice: Go opens the file
// itself, and load_frombuffer passes the address and length of a buffer that Python
// keeps alive (and unresizable) for the call.

// SaveFile writes the arrays of a comma-separated handle list to path in MXNet's NDArray
// file format. names is "" for a list, else a JSON array of one name per array (a dict).
// It waits for the arrays' pending writes first, raising their errors.
func SaveFile(path, handles, names string, npShape bool) (zero int, err error) {
	defer guard(&err)
	arrs, err := lookupList(handles)
	if err != nil {
		return 0, pyErr(err)
	}
	var keys []string
	if names != "" {
		if err := json.Unmarshal([]byte(names), &keys); err != nil || keys == nil {
			return 0, pyErr(mxerr.ValueErr("names must be a JSON array of strings"))
		}
	}
	if err := ndfile.Check(arrs, keys); err != nil {
		return 0, pyErr(err)
	}
	for _, a := range arrs {
		if err := ops.WaitToRead(a); err != nil {
			return 0, pyErr(err)
		}
	}
	return 0, pyErr(ndfile.Save(path, arrs, keys, npShape))
}

// LoadFile reads the MXNet NDArray file at path. It returns JSON: {"handles": [...],
// "names": null for a list, else the hex of each name's bytes}; Python owns the handles.
func LoadFile(path string) (out string, err error) {
	defer guard(&err)
	arrs, names, err := ndfile.Load(path)
	return loaded(arrs, names, err)
}

// LoadBuffer reads an MXNet NDArray file from the n bytes at addr, which Python keeps
// alive and unchanged during the call. It returns what LoadFile returns.
func LoadBuffer(addr, n int64) (out string, err error) {
	defer guard(&err)
	b, err := pyBytes(addr, n)
	if err != nil {
		return "", pyErr(err)
	}
	arrs, names, err := ndfile.ReadBytes(b)
	return loaded(arrs, names, err)
}

// pyBytes is the n bytes at addr of a buffer that Python keeps alive during the call.
func pyBytes(addr, n int64) ([]byte, error) {
	if n < 0 || (addr == 0 && n > 0) {
		return nil, mxerr.ValueErr("invalid buffer (address %#x, %d bytes)", addr, n)
	}
	if n == 0 {
		return nil, nil
	}
	return unsafe.Slice((*byte)(C.mxgo_buffer_at(C.uintptr_t(addr))), n), nil
}

func loaded(arrs []*ndarray.NDArray, names []string, err error) (string, error) {
	if err != nil {
		return "", pyErr(err)
	}
	res := struct {
		Handles []int64  `json:"handles"`
		Names   []string `json:"names"`
	}{Handles: make([]int64, len(arrs))}
	if names != nil {
		res.Names = make([]string, len(names))
		for i, n := range names {
			res.Names[i] = hex.EncodeToString([]byte(n))
		}
	}
	for i, a := range arrs {
		res.Handles[i] = register(a)
	}
	out, err := json.Marshal(res)
	if err != nil { // cannot happen for these types; free what was registered
		for _, h := range res.Handles {
			free(h)
		}
		return "", pyErr(err)
	}
	return string(out), nil
}
