package ndfile

import (
	"bufio"
	"encoding/binary"
	"io"
	"os"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Write writes arrays (and names, when names is not nil: a dict) to w in MXNet's format,
// as V3 records (NumPy shape semantics, what MXNet writes inside np_shape and npx.save) when
// npShape is set or some array needs them.
// Non-contiguous arrays are written compact, in C order. The caller must have waited for
// pending writes to the arrays.
func Write(w io.Writer, arrays []*ndarray.NDArray, names []string, npShape bool) error {
	if err := Check(arrays, names); err != nil {
		return err
	}
	magic := MagicV2
	if npShape || NumPySemantics(arrays) {
		magic = MagicV3
	}
	le := binary.LittleEndian
	var hdr []byte
	hdr = le.AppendUint64(hdr, ListMagic)
	hdr = le.AppendUint64(hdr, 0)
	hdr = le.AppendUint64(hdr, uint64(len(arrays)))
	if _, err := w.Write(hdr); err != nil {
		return ioErr(err)
	}
	for _, a := range arrays {
		if err := writeArray(w, a, magic); err != nil {
			return err
		}
	}
	tail := le.AppendUint64(nil, uint64(len(names)))
	for _, n := range names {
		tail = le.AppendUint64(tail, uint64(len(n)))
		tail = append(tail, n...)
	}
	if _, err := w.Write(tail); err != nil {
		return ioErr(err)
	}
	return nil
}

func writeArray(w io.Writer, a *ndarray.NDArray, magic uint32) error {
	le := binary.LittleEndian
	flag := writable[a.DType()]
	rec := le.AppendUint32(nil, magic)
	rec = le.AppendUint32(rec, 0) // dense storage
	rec = le.AppendUint32(rec, uint32(a.NDim()))
	for _, d := range a.Shape() {
		rec = le.AppendUint64(rec, uint64(d))
	}
	ctx := int32(ctxCPU)
	if a.Device().Type == device.CUDA { // as MXNet writes it; a load here puts it on the CPU
		ctx = ctxGPU
	} else if a.Device().Type == device.CUDAHost {
		ctx = ctxCPUPinned
	}
	rec = le.AppendUint32(rec, uint32(ctx))
	rec = le.AppendUint32(rec, uint32(a.Device().ID))
	rec = le.AppendUint32(rec, uint32(flag))
	if _, err := w.Write(rec); err != nil {
		return ioErr(err)
	}
	n := a.Size() * a.DType().Size()
	if n == 0 {
		return nil
	}
	if !a.Storage().OnHost() { // device memory: through a host mirror (the caller waited for its writes)
		m, err := ndarray.Mirror(a)
		if err != nil {
			return err
		}
		defer m.Release()
		a = m
	}
	src := a
	if !a.Contiguous() {
		c, err := ndarray.Empty(a.DType(), a.Shape(), device.Host)
		if err != nil {
			return err
		}
		defer c.Release()
		if err := ndarray.CopyInto(c, a); err != nil {
			return err
		}
		src = c
	}
	if _, err := w.Write(unsafe.Slice((*byte)(src.Data()), n)); err != nil {
		return ioErr(err)
	}
	return nil
}

// Save writes arrays (and names) to the file path, replacing it. Nothing is created when
// Check fails; a file left incomplete by a write error is removed.
func Save(path string, arrays []*ndarray.NDArray, names []string, npShape bool) (err error) {
	if err := Check(arrays, names); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return ioErr(err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = ioErr(cerr)
		}
		if err != nil {
			_ = os.Remove(path)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := Write(bw, arrays, names, npShape); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return ioErr(err)
	}
	return nil
}
