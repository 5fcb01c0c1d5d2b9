package mxgotest

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/mxgo/mxgo/pkg/imgcodec"
	"github.com/mxgo/mxgo/pkg/mxerr"
)

// pkg/imgcodec: PNG round trips exactly in every channel layout and order, JPEG within
// its loss, and bad inputs fail with the error kinds Python raises.

func pixels(h, w, ch int) []byte {
	p := make([]byte, h*w*ch)
	for i := range p {
		p[i] = byte(i*37 + i/ch*11)
	}
	return p
}

func decoded(t *testing.T, b []byte, flag int, rgb bool) ([]int, []byte) {
	a, err := imgcodec.Decode(b, flag, rgb)
	require.NoError(t, err)
	return a.Shape(), unsafe.Slice((*byte)(a.Data()), a.Size())
}

func TestImgcodecPNGRoundTrip(t *testing.T) {
	for _, ch := range []int{1, 3, 4} {
		for _, rgb := range []bool{false, true} {
			pix := pixels(5, 7, ch)
			b, err := imgcodec.Encode(pix, 5, 7, ch, rgb, ".png", 95)
			require.NoError(t, err)
			shape, got := decoded(t, b, -1, rgb)
			require.Equal(t, []int{5, 7, ch}, shape)
			require.Equal(t, pix, got, "ch %d rgb %v", ch, rgb)
		}
	}
	b, err := imgcodec.Encode(pixels(5, 7, 3), 5, 7, 3, false, ".png", 95)
	require.NoError(t, err)
	_, bgr := decoded(t, b, 1, false)
	_, rgb := decoded(t, b, 1, true)
	require.Equal(t, []byte{bgr[2], bgr[1], bgr[0]}, rgb[:3]) // the orders swap red and blue
	shape, _ := decoded(t, b, 0, true)
	require.Equal(t, []int{5, 7, 1}, shape)
}

func TestImgcodecJPEG(t *testing.T) {
	pix := make([]byte, 16*16*3)
	for i := range pix {
		pix[i] = 100 + byte(i%3)*20 // flat colour: JPEG keeps it within a few levels
	}
	b, err := imgcodec.Encode(pix, 16, 16, 3, true, ".jpg", 95)
	require.NoError(t, err)
	shape, got := decoded(t, b, 1, true)
	require.Equal(t, []int{16, 16, 3}, shape)
	for i := range got {
		require.InDelta(t, float64(pix[i]), float64(got[i]), 3)
	}
	shape, _ = decoded(t, b, -1, true)
	require.Equal(t, []int{16, 16, 3}, shape)
}

func TestImgcodecBadInput(t *testing.T) {
	_, err := imgcodec.Decode([]byte("not an image"), 1, true)
	require.Equal(t, mxerr.MXNet, mxerr.KindOf(err))
	_, err = imgcodec.Decode(nil, 1, true)
	require.Equal(t, mxerr.MXNet, mxerr.KindOf(err))
	_, err = imgcodec.Decode([]byte{0x89, 'P', 'N', 'G'}, 2, true)
	require.Equal(t, mxerr.Value, mxerr.KindOf(err))
	for _, c := range []struct {
		h, w, ch int
		format   string
		quality  int
	}{{0, 3, 3, ".png", 95}, {2, 2, 2, ".png", 95}, {2, 2, 3, ".bmp", 95}, {2, 2, 3, ".jpg", 0}} {
		_, err := imgcodec.Encode(make([]byte, c.h*c.w*c.ch), c.h, c.w, c.ch, true, c.format, c.quality)
		require.Equal(t, mxerr.Value, mxerr.KindOf(err), "%+v", c)
	}
}
