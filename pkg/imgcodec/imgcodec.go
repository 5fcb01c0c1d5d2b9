// Package imgcodec decodes and encodes JPEG and PNG images for mx.image and mx.recordio
// with Go's standard library (image/jpeg, image/png), so that they work wherever mxgo
// does with nothing else to install. Images are (height, width, channels) uint8 arrays
// laid out as OpenCV's (MXNet 1.9.1 decodes with OpenCV): channels in BGR order unless
// asked for RGB.
package imgcodec

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/device"
	"github.com/mxgo/mxgo/pkg/mxerr"
	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Decode decodes a JPEG or PNG image as OpenCV's imdecode with flag: 1 three channels,
// 0 one (gray), -1 the file's own (1, 3, or 4 with alpha). toRGB orders colour channels
// R, G, B (A) instead of B, G, R (A).
func Decode(b []byte, flag int, toRGB bool) (*ndarray.NDArray, error) {
	if flag < -1 || flag > 1 {
		return nil, mxerr.ValueErr("imdecode: flag must be -1, 0 or 1, got %d", flag)
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, mxerr.New(mxerr.MXNet, "imdecode: cannot decode the image (%d bytes; JPEG and PNG are supported): %v", len(b), err)
	}
	r := img.Bounds()
	ch := 3
	switch {
	case flag == 0 || (flag == -1 && isGray(img)):
		ch = 1
	case flag == -1 && !opaque(img):
		ch = 4
	}
	out, err := ndarray.Empty(ndarray.Uint8, []int{r.Dy(), r.Dx(), ch}, device.Host)
	if err != nil {
		return nil, err
	}
	dst := unsafe.Slice((*byte)(out.Data()), r.Dy()*r.Dx()*ch)
	fill(dst, img, ch, toRGB)
	return out, nil
}

func isGray(img image.Image) bool {
	switch img.(type) {
	case *image.Gray, *image.Gray16:
		return true
	}
	return false
}

func opaque(img image.Image) bool {
	o, ok := img.(interface{ Opaque() bool })
	return !ok || o.Opaque()
}

// gray is OpenCV's RGB to gray (cvtColor's 14-bit fixed-point weights, rounded).
func gray(r, g, b uint8) uint8 {
	return uint8((4899*uint32(r) + 9617*uint32(g) + 1868*uint32(b) + 1<<13) >> 14)
}

// fill writes img's pixels into dst, (height, width, ch), channel order per toRGB.
func fill(dst []byte, img image.Image, ch int, toRGB bool) {
	r := img.Bounds()
	w := r.Dx()
	ri, bi := 2, 0 // where red and blue go
	if toRGB {
		ri, bi = 0, 2
	}
	put := func(i int, cr, cg, cb, ca uint8) {
		p := dst[i*ch : i*ch+ch]
		switch ch {
		case 1:
			p[0] = cr
			if cr != cg || cr != cb {
				p[0] = gray(cr, cg, cb)
			}
		default:
			p[ri], p[1], p[bi] = cr, cg, cb
			if ch == 4 {
				p[3] = ca
			}
		}
	}
	switch m := img.(type) {
	case *image.YCbCr:
		ycbcr(dst, m, ch, ri, bi)
	case *image.Gray:
		for y := 0; y < r.Dy(); y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+w]
			for x, v := range row {
				put(y*w+x, v, v, v, 255)
			}
		}
	case *image.NRGBA:
		rows(m.Pix, m.Stride, r.Dy(), w, put)
	case *image.RGBA:
		if !m.Opaque() { // premultiplied: the general path divides alpha out
			general(img, w, put)
			break
		}
		rows(m.Pix, m.Stride, r.Dy(), w, put)
	default:
		general(img, w, put)
	}
}

// ycbcr writes a decoded JPEG: its luma plane for gray (as libjpeg decodes a colour
// JPEG to gray), else libjpeg's colour output (ycc.go); chroma subsamplings other than
// 4:2:0 and 4:2:2 replicate their samples. A decoded image's rectangle starts at the origin.
func ycbcr(dst []byte, m *image.YCbCr, ch, ri, bi int) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	if ch == 1 {
		for y := 0; y < h; y++ {
			copy(dst[y*w:(y+1)*w], m.Y[y*m.YStride:])
		}
		return
	}
	cb, cr, fancy := upsampled(m)
	for y := 0; y < h; y++ {
		luma, out := m.Y[y*m.YStride:y*m.YStride+w], dst[y*w*3:(y+1)*w*3]
		for x, l := range luma {
			var u, v uint8
			if fancy {
				u, v = cb[y*w+x], cr[y*w+x]
			} else {
				ci := m.COffset(x+m.Rect.Min.X, y+m.Rect.Min.Y)
				u, v = m.Cb[ci], m.Cr[ci]
			}
			p := out[3*x : 3*x+3] // a YCbCr image is opaque: ch is 3
			p[ri], p[1], p[bi] = yccToRGB(l, u, v)
		}
	}
}

// rows feeds put the pixels of 8-bit RGBA rows (non-premultiplied, or opaque).
func rows(pix []byte, stride, h, w int, put func(i int, r, g, b, a uint8)) {
	for y := 0; y < h; y++ {
		row := pix[y*stride : y*stride+4*w]
		for x := 0; x < w; x++ {
			put(y*w+x, row[4*x], row[4*x+1], row[4*x+2], row[4*x+3])
		}
	}
}

// general feeds put any image's pixels through NRGBA64, keeping each sample's high
// byte (as OpenCV strips 16-bit PNGs to 8 bits); slow, for the rarer pixel formats.
func general(img image.Image, w int, put func(i int, r, g, b, a uint8)) {
	r := img.Bounds()
	for y := 0; y < r.Dy(); y++ {
		for x := 0; x < w; x++ {
			c := color.NRGBA64Model.Convert(img.At(x+r.Min.X, y+r.Min.Y)).(color.NRGBA64)
			put(y*w+x, uint8(c.R>>8), uint8(c.G>>8), uint8(c.B>>8), uint8(c.A>>8))
		}
	}
}

// Encode encodes the (h, w, ch) uint8 pixels pix (ch 1, 3 or 4; colour in B, G, R (A)
// order unless rgb) as format ".jpg"/".jpeg" (at quality 1..100) or ".png".
func Encode(pix []byte, h, w, ch int, rgb bool, format string, quality int) ([]byte, error) {
	if h <= 0 || w <= 0 || (ch != 1 && ch != 3 && ch != 4) || len(pix) != h*w*ch {
		return nil, mxerr.ValueErr("imencode: expects a non-empty (height, width, 1, 3 or 4 channels) uint8 image, got (%d, %d, %d)", h, w, ch)
	}
	var img image.Image
	if ch == 1 {
		img = &image.Gray{Pix: pix, Stride: w, Rect: image.Rect(0, 0, w, h)}
	} else {
		m := image.NewNRGBA(image.Rect(0, 0, w, h))
		ri, bi := 2, 0
		if rgb {
			ri, bi = 0, 2
		}
		for i := 0; i < h*w; i++ {
			p, q := pix[i*ch:i*ch+ch], m.Pix[4*i:4*i+4]
			q[0], q[1], q[2], q[3] = p[ri], p[1], p[bi], 255
			if ch == 4 {
				q[3] = p[3]
			}
		}
		img = m
	}
	var buf bytes.Buffer
	var err error
	switch format {
	case ".jpg", ".jpeg":
		if quality < 1 || quality > 100 {
			return nil, mxerr.ValueErr("imencode: JPEG quality must be in 1..100, got %d", quality)
		}
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality})
	case ".png":
		err = png.Encode(&buf, img)
	default:
		return nil, mxerr.ValueErr("imencode: format must be '.jpg', '.jpeg' or '.png', got %q", format)
	}
	if err != nil {
		return nil, mxerr.New(mxerr.MXNet, "imencode: %v", err)
	}
	return buf.Bytes(), nil
}
