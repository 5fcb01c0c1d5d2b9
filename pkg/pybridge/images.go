package pybridge

import (
	"unsafe"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/imgcodec"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// mx.image's decoding and mx.recordio's pack_img (pkg/imgcodec). Bytes come in as the
// address and length of a buffer that Python keeps alive for the call, as LoadBuffer's.

// DecodeImage decodes the JPEG or PNG image in the n bytes at addr into a new (height,
// width, channels) uint8 array on the CPU, whose handle it returns (see imgcodec.Decode).
func DecodeImage(addr, n, flag int64, toRGB bool) (h int64, err error) {
	defer guard(&err)
	b, err := pyBytes(addr, n)
	if err != nil {
		return 0, pyErr(err)
	}
	a, err := imgcodec.Decode(b, int(flag), toRGB)
	if err != nil {
		return 0, pyErr(err)
	}
	return register(a), nil
}

// EncodeImage encodes the (height, width, ch) uint8 pixels at addr (see
// imgcodec.Encode) and returns the handle of a new 1-d uint8 array of the file's bytes.
func EncodeImage(addr, height, width, ch int64, rgb bool, format string, quality int64) (h int64, err error) {
	defer guard(&err)
	pix, err := pyBytes(addr, height*width*ch)
	if err != nil {
		return 0, pyErr(err)
	}
	b, err := imgcodec.Encode(pix, int(height), int(width), int(ch), rgb, format, int(quality))
	if err != nil {
		return 0, pyErr(err)
	}
	a, err := ndarray.Empty(ndarray.Uint8, []int{len(b)}, device.Host)
	if err != nil {
		return 0, pyErr(err)
	}
	copy(unsafe.Slice((*byte)(a.Data()), len(b)), b)
	return register(a), nil
}
