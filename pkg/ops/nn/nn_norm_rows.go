package nn

import "github.com/mxgo/mxgo/internal/simd"

// The row loops of the normalisations and of global average pooling: a contiguous row's
// sum and sum of squared deviations in float64 over sixteen running sums (element j to
// sum j % 16 up to the last multiple of 16, combined as internal/simd's moments kernels
// combine them, then the tail in order), which float32 rows of simd.MomentsMin or more
// run in C with these bits; and y = ((x - m) * s) * g + b. One chain of dependent adds
// ran at a quarter of a core's speed; sixteen sums let C run at memory speed.

// nnSum16 is the sum of row in float64 (the order above).
func nnSum16[T nnFloat](row []T) float64 {
	if r, ok := any(row).([]float32); ok {
		if s, ok := simd.Sum16(r); ok {
			return s
		}
	}
	var s [16]float64
	j := 0
	for ; j+16 <= len(row); j += 16 {
		for k, v := range row[j : j+16] {
			s[k] += float64(v)
		}
	}
	t := fold16(&s)
	for _, v := range row[j:] {
		t += float64(v)
	}
	return t
}

// nnSqDev16 is the sum of (row[j] - m)^2 in float64 (the order above).
func nnSqDev16[T nnFloat](row []T, m float64) float64 {
	if r, ok := any(row).([]float32); ok {
		if s, ok := simd.SqDev16(r, m); ok {
			return s
		}
	}
	var s [16]float64
	j := 0
	for ; j+16 <= len(row); j += 16 {
		for k, v := range row[j : j+16] {
			d := float64(v) - m
			s[k] += d * d
		}
	}
	t := fold16(&s)
	for _, v := range row[j:] {
		d := float64(v) - m
		t += d * d
	}
	return t
}

// fold16 combines the sixteen running sums as C does.
func fold16(s *[16]float64) float64 {
	var l [4]float64
	for k := range l {
		l[k] = (s[k] + s[4+k]) + (s[8+k] + s[12+k])
	}
	return (l[0] + l[2]) + (l[1] + l[3])
}

// nnAffine sets y[j] = ((x[j] - m) * s) * g + b, with g and b rows as long as x or of
// one value each.
func nnAffine[T nnFloat](y, x []T, m, s T, g, b []T) {
	if yr, ok := any(y).([]float32); ok && simd.Affine32(yr, any(x).([]float32), float32(m), float32(s),
		any(g).([]float32), any(b).([]float32)) {
		return
	}
	if len(g) == 1 {
		gj, bj := g[0], b[0]
		for j, v := range x {
			y[j] = ((v-m)*s)*gj + bj
		}
		return
	}
	g, b = g[:len(x)], b[:len(x)]
	for j, v := range x {
		y[j] = ((v-m)*s)*g[j] + b[j]
	}
}
