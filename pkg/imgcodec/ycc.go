package imgcodec

import "image"

// libjpeg's colour output, which OpenCV's imdecode (and so MXNet's) returns: chroma
// planes upsampled by its "fancy" triangle filter (jdsample.c: 3:1 weights toward the
// nearer sample, rounding alternately down and up) and YCbCr converted with its 16-bit
// fixed-point tables (jdcolor.c). Go's image/jpeg leaves upsampling to the reader.

const (
	scaleBits = 16
	oneHalf   = 1 << (scaleBits - 1)
)

func fix(x float64) int { return int(x*(1<<scaleBits) + 0.5) }

var crR, cbB, crG, cbG [256]int

func init() {
	for i := range crR {
		x := i - 128
		crR[i] = (fix(1.40200)*x + oneHalf) >> scaleBits
		cbB[i] = (fix(1.77200)*x + oneHalf) >> scaleBits
		crG[i] = -fix(0.71414) * x
		cbG[i] = -fix(0.34414)*x + oneHalf
	}
}

func clamp(v int) uint8 {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v)
}

// yccToRGB is libjpeg's ycc_rgb_convert for one pixel.
func yccToRGB(y, cb, cr uint8) (uint8, uint8, uint8) {
	yy := int(y)
	return clamp(yy + crR[cr]), clamp(yy + (cbG[cb]+crG[cr])>>scaleBits), clamp(yy + cbB[cb])
}

// upsampled returns m's chroma planes at full resolution (w*h each) as libjpeg's fancy
// upsampling gives them, for 4:2:0 and 4:2:2; ok is false for other subsamplings.
func upsampled(m *image.YCbCr) (cb, cr []byte, ok bool) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	vertical := m.SubsampleRatio == image.YCbCrSubsampleRatio420
	if !vertical && m.SubsampleRatio != image.YCbCrSubsampleRatio422 {
		return nil, nil, false
	}
	cw := (w + 1) / 2
	ch := h
	if vertical {
		ch = (h + 1) / 2
	}
	up := func(plane []byte) []byte {
		out := make([]byte, w*h)
		sums := make([]int, cw)
		for y := 0; y < h; y++ {
			row := func(r int) []byte { r = min(max(r, 0), ch-1); return plane[r*m.CStride : r*m.CStride+cw] }
			if vertical { // 3 x the nearer chroma row + the next one beyond it
				near, far := row(y/2), row(y/2-1)
				if y%2 == 1 {
					far = row(y/2 + 1)
				}
				for c := range sums {
					sums[c] = 3*int(near[c]) + int(far[c])
				}
			} else {
				for c, v := range row(y) {
					sums[c] = 4 * int(v) // so that both cases share the >> 4 below
				}
			}
			horizontal(out[y*w:(y+1)*w], sums, vertical)
		}
		return out
	}
	return up(m.Cb), up(m.Cr), true
}

// horizontal writes one output row from its column sums (16 x the sample for 4:2:2's
// scaled sums), as libjpeg's h2v2 (bias 8 then 7) or h2v1 (bias 1 then 2, in quarters).
func horizontal(out []byte, s []int, vertical bool) {
	evenBias, oddBias := 8, 7
	if !vertical {
		evenBias, oddBias = 4, 8 // h2v1: (3a + b + 1) >> 2 and (3a + b + 2) >> 2, times 4
	}
	last := len(s) - 1
	for x := range out {
		c := x / 2
		switch {
		case x%2 == 0 && c == 0:
			out[x] = uint8((4*s[0] + evenBias) >> 4)
		case x%2 == 0:
			out[x] = uint8((3*s[c] + s[c-1] + evenBias) >> 4)
		case c == last:
			out[x] = uint8((4*s[c] + oddBias) >> 4)
		default:
			out[x] = uint8((3*s[c] + s[c+1] + oddBias) >> 4)
		}
	}
}
