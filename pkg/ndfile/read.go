package ndfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Load reads the file at path. names is nil for a list, else one name per array.
func Load(path string) (arrays []*ndarray.NDArray, names []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, ioErr(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, ioErr(err)
	}
	if !st.Mode().IsRegular() {
		return nil, nil, mxerr.ValueErr("%s is not a regular file", path)
	}
	return Read(bufio.NewReaderSize(f, 1<<16), st.Size())
}

// ReadBytes reads a file's contents from memory.
func ReadBytes(b []byte) (arrays []*ndarray.NDArray, names []string, err error) {
	return Read(bytes.NewReader(b), int64(len(b)))
}

// ioErr reports a failure of the file system as mx.MXNetError, as MXNet does.
func ioErr(err error) error {
	return mxerr.New(mxerr.MXNet, "%v", err)
}

// reader reads the format from r, which holds exactly size bytes.
type reader struct {
	r    io.Reader
	left int64 // bytes not yet read
	buf  [8]byte
}

func corrupt(format string, args ...any) error {
	return mxerr.ValueErr("invalid NDArray file: "+format, args...)
}

func (rd *reader) bytes(n int64, what string) ([]byte, error) {
	if n > rd.left {
		return nil, corrupt("truncated: %s needs %d bytes, %d remain", what, n, rd.left)
	}
	var b []byte
	if n <= int64(len(rd.buf)) {
		b = rd.buf[:n]
	} else {
		b = make([]byte, n)
	}
	if err := rd.fill(b, what); err != nil {
		return nil, err
	}
	return b, nil
}

// fill reads len(b) bytes, which the caller has checked against rd.left.
func (rd *reader) fill(b []byte, what string) error {
	if _, err := io.ReadFull(rd.r, b); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return corrupt("truncated while reading %s", what)
		}
		return ioErr(err)
	}
	rd.left -= int64(len(b))
	return nil
}

func (rd *reader) u32(what string) (uint32, error) {
	b, err := rd.bytes(4, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (rd *reader) i32(what string) (int32, error) {
	v, err := rd.u32(what)
	return int32(v), err
}

func (rd *reader) u64(what string) (uint64, error) {
	b, err := rd.bytes(8, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

// Read reads a whole file of size bytes from r. names is nil for a list, else one name
// per array. On error every array read so far is released.
func Read(r io.Reader, size int64) (arrays []*ndarray.NDArray, names []string, err error) {
	rd := &reader{r: r, left: size}
	defer func() {
		if err != nil {
			for _, a := range arrays {
				a.Release()
			}
			arrays, names = nil, nil
		}
	}()
	magic, err := rd.u64("the file header")
	if err != nil {
		return nil, nil, err
	}
	if magic != ListMagic {
		return nil, nil, corrupt("header %#x is not MXNet's NDArray list magic 0x112", magic)
	}
	if _, err := rd.u64("the reserved header field"); err != nil {
		return nil, nil, err
	}
	n, err := rd.u64("the array count")
	if err != nil {
		return nil, nil, err
	}
	if n > uint64(rd.left/4) { // every array record takes at least 4 bytes
		return nil, nil, corrupt("%d arrays claimed, but only %d bytes remain", n, rd.left)
	}
	arrays = make([]*ndarray.NDArray, 0, n)
	for i := uint64(0); i < n; i++ {
		a, err := rd.array(i)
		if err != nil {
			return arrays, nil, err
		}
		arrays = append(arrays, a)
	}
	m, err := rd.u64("the name count")
	if err != nil {
		return arrays, nil, err
	}
	if m != 0 && m != n {
		return arrays, nil, corrupt("%d names for %d arrays", m, n)
	}
	if m > 0 {
		names = make([]string, m)
		for i := range names {
			l, err := rd.u64("a name's length")
			if err != nil {
				return arrays, nil, err
			}
			if l > uint64(rd.left) {
				return arrays, nil, corrupt("name %d claims %d bytes, but only %d remain", i, l, rd.left)
			}
			b, err := rd.bytes(int64(l), "a name")
			if err != nil {
				return arrays, nil, err
			}
			names[i] = string(b)
		}
	}
	if rd.left != 0 {
		return arrays, nil, corrupt("%d unexpected bytes after the end of the data", rd.left)
	}
	return arrays, names, nil
}

// array reads array record i.
func (rd *reader) array(i uint64) (*ndarray.NDArray, error) {
	what := func(s string) string { return fmt.Sprintf("array %d's %s", i, s) }
	magic, err := rd.u32(what("magic"))
	if err != nil {
		return nil, err
	}
	var shape []int
	switch magic {
	case MagicV2, MagicV3:
		stype, err := rd.i32(what("storage type"))
		if err != nil {
			return nil, err
		}
		switch stype {
		case 0:
		case 1, 2:
			return nil, mxerr.New(mxerr.NotImplemented, "array %d has sparse storage (%s), which mxgo does not support",
				i, map[int32]string{1: "row_sparse", 2: "csr"}[stype])
		default:
			return nil, corrupt("array %d has unknown storage type %d", i, stype)
		}
		if shape, err = rd.shape(i, magic == MagicV3); err != nil {
			return nil, err
		}
	case MagicV1:
		if shape, err = rd.shape(i, false); err != nil {
			return nil, err
		}
	default: // before V1 there was no magic: this is ndim, and dimensions are uint32
		if magic > ndarray.MaxDims {
			return nil, corrupt("array %d starts with %#x, which is neither a known magic number nor a rank", i, magic)
		}
		if magic == 0 {
			return nil, noneErr(i)
		}
		b, err := rd.bytes(4*int64(magic), what("shape"))
		if err != nil {
			return nil, err
		}
		shape = make([]int, magic)
		for k := range shape {
			shape[k] = int(binary.LittleEndian.Uint32(b[4*k:]))
		}
	}
	dev, err := rd.i32(what("device type"))
	if err != nil {
		return nil, err
	}
	if dev != ctxCPU && dev != ctxGPU && dev != ctxCPUPinned && dev != ctxCPUShared {
		return nil, corrupt("array %d has unknown device type %d", i, dev)
	}
	if _, err := rd.i32(what("device id")); err != nil {
		return nil, err
	}
	flag, err := rd.i32(what("type flag"))
	if err != nil {
		return nil, err
	}
	dt, ok := typeFlags[flag]
	if !ok {
		return nil, corrupt("array %d has unknown type flag %d", i, flag)
	}
	count, err := ndarray.Size(shape)
	if err != nil {
		return nil, corrupt("array %d: %v", i, err)
	}
	if uint64(count) > uint64(rd.left)/uint64(dt.Size()) {
		return nil, corrupt("array %d of shape %v and dtype %s needs more bytes than the %d that remain",
			i, shape, dt, rd.left)
	}
	// Loaded arrays live on the CPU, as MXNet without CUDA loads them.
	a, err := ndarray.Empty(dt, shape, device.Host)
	if err != nil {
		return nil, err
	}
	if nbytes := count * dt.Size(); nbytes > 0 {
		if err := rd.fill(unsafe.Slice((*byte)(a.Data()), nbytes), what("data")); err != nil {
			a.Release()
			return nil, err
		}
	}
	return a, nil
}

// shape reads an int32 ndim and int64 dimensions. With numpy (V3) ndim -1 and dimension
// -1 mean unknown; otherwise (V1, V2) ndim 0 marks an uninitialised array.
func (rd *reader) shape(i uint64, numpy bool) ([]int, error) {
	ndim, err := rd.i32(fmt.Sprintf("array %d's rank", i))
	if err != nil {
		return nil, err
	}
	switch {
	case numpy && ndim == -1, !numpy && ndim == 0:
		return nil, noneErr(i)
	case ndim < 0:
		return nil, corrupt("array %d has rank %d", i, ndim)
	case ndim > ndarray.MaxDims:
		return nil, corrupt("array %d has rank %d, more than mxgo's maximum of %d", i, ndim, ndarray.MaxDims)
	}
	b, err := rd.bytes(8*int64(ndim), fmt.Sprintf("array %d's shape", i))
	if err != nil {
		return nil, err
	}
	shape := make([]int, ndim)
	for k := range shape {
		d := int64(binary.LittleEndian.Uint64(b[8*k:]))
		if d < 0 {
			if numpy && d == -1 {
				return nil, corrupt("array %d has an unknown dimension (-1) in its shape", i)
			}
			return nil, corrupt("array %d has negative dimension %d", i, d)
		}
		shape[k] = int(d)
	}
	return shape, nil
}

func noneErr(i uint64) error {
	return corrupt("array %d has no shape: MXNet writes this for an uninitialised NDArray "+
		"(or, in a way it cannot load back itself, for a 0-d array saved outside mx.util.np_shape); "+
		"mxgo has no uninitialised arrays", i)
}
