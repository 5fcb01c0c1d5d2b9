package sorting

import (
	"slices"
	"unsafe"

	"github.com/mxgo/mxgo/pkg/ops"

	"github.com/mxgo/mxgo/pkg/ndarray"
)

// Order keys: every sortable dtype maps to unsigned integers that compare as the values
// do, so one radix sort serves them all. Signed integers flip their sign bit; floats
// flip every bit when negative and the sign bit otherwise, and every NaN becomes one
// quiet NaN that sorts above +inf (NumPy's place for NaN). A descending sort complements
// the keys; an argsort packs the lane index under a key of up to 32 bits, so equal keys
// keep their order (a stable sort, MXNet's) and the sort needs no comparisons.

// keyCodec loads the elements of one dtype as keys and stores keys back as elements.
type keyCodec struct {
	bits  uint // significant bits of a key
	load  func(dst []uint64, base unsafe.Pointer, off, stride int)
	store func(base unsafe.Pointer, off, stride int, keys []uint64)
}

func signedCodec[T int8 | int16 | int32 | int64]() keyCodec {
	var z T
	bits := uint(unsafe.Sizeof(z)) * 8
	sign, mask := uint64(1)<<(bits-1), ^uint64(0)>>(64-bits)
	return keyCodec{bits,
		func(dst []uint64, base unsafe.Pointer, off, stride int) {
			for i := range dst {
				dst[i] = (uint64(*ops.ElemAt[T](base, off+i*stride)) ^ sign) & mask
			}
		},
		func(base unsafe.Pointer, off, stride int, keys []uint64) {
			for i, k := range keys {
				*ops.ElemAt[T](base, off+i*stride) = T(k ^ sign) // the conversion keeps the low bits
			}
		}}
}

func unsignedCodec[T uint8 | uint16 | uint32 | uint64]() keyCodec {
	var z T
	return keyCodec{uint(unsafe.Sizeof(z)) * 8,
		func(dst []uint64, base unsafe.Pointer, off, stride int) {
			for i := range dst {
				dst[i] = uint64(*ops.ElemAt[T](base, off+i*stride))
			}
		},
		func(base unsafe.Pointer, off, stride int, keys []uint64) {
			for i, k := range keys {
				*ops.ElemAt[T](base, off+i*stride) = T(k)
			}
		}}
}

// floatCodec works on a float's bits (T): expMask is the exponent field (a NaN's bits
// without the sign are above it), qnan the quiet NaN every NaN sorts and stores as.
func floatCodec[T uint16 | uint32 | uint64](expMask, qnan T) keyCodec {
	var z T
	bits := uint(unsafe.Sizeof(z)) * 8
	sign := T(1) << (bits - 1)
	nanKey := uint64(qnan | sign)
	return keyCodec{bits,
		func(dst []uint64, base unsafe.Pointer, off, stride int) {
			for i := range dst {
				b := *(*T)(unsafe.Add(base, (off+i*stride)*int(bits/8)))
				switch {
				case b&^sign > expMask:
					dst[i] = nanKey
				case b&sign != 0:
					dst[i] = uint64(^b)
				default:
					dst[i] = uint64(b | sign)
				}
			}
		},
		func(base unsafe.Pointer, off, stride int, keys []uint64) {
			for i, k := range keys {
				b := T(k)
				if b&sign != 0 {
					b &^= sign
				} else {
					b = ^b
				}
				*(*T)(unsafe.Add(base, (off+i*stride)*int(bits/8))) = b
			}
		}}
}

var keyCodecs = map[ndarray.DType]keyCodec{
	ndarray.Int8:     signedCodec[int8](),
	ndarray.Int16:    signedCodec[int16](),
	ndarray.Int32:    signedCodec[int32](),
	ndarray.Int64:    signedCodec[int64](),
	ndarray.Uint8:    unsignedCodec[uint8](),
	ndarray.Uint16:   unsignedCodec[uint16](),
	ndarray.Uint32:   unsignedCodec[uint32](),
	ndarray.Uint64:   unsignedCodec[uint64](),
	ndarray.Float16:  floatCodec[uint16](0x7c00, 0x7e00),
	ndarray.Bfloat16: floatCodec[uint16](0x7f80, 0x7fc0),
	ndarray.Float32:  floatCodec[uint32](0x7f800000, 0x7fc00000),
	ndarray.Float64:  floatCodec[uint64](0x7ff0000000000000, 0x7ff8000000000000),
}

// radixMin is the length from which an LSD radix sort beats pdqsort on uint64 keys.
const radixMin = 256

// radixCounts are the byte histograms of a radix sort, reused across lanes.
type radixCounts [8][256]int

// sortKeys sorts a ascending, where only bytes [lo, hi) of the keys may differ; tmp is
// scratch of a's length. It returns the sorted slice (a or tmp).
func sortKeys(a, tmp []uint64, lo, hi int, counts *radixCounts) []uint64 {
	if len(a) < radixMin {
		slices.Sort(a)
		return a
	}
	if len(a) >= msdMin && hi-lo >= 2 {
		return msdSort(a, tmp, lo, hi, counts)
	}
	for b := lo; b < hi; b++ {
		clear(counts[b][:])
	}
	// Every byte's histogram from one pass over the keys (four bytes unrolled: 32-bit keys).
	if hi-lo == 4 {
		c0, c1, c2, c3 := &counts[lo], &counts[lo+1], &counts[lo+2], &counts[lo+3]
		s := uint(8 * lo)
		for _, v := range a {
			v >>= s
			c0[byte(v)]++
			c1[byte(v>>8)]++
			c2[byte(v>>16)]++
			c3[byte(v>>24)]++
		}
	} else {
		for _, v := range a {
			for b := lo; b < hi; b++ {
				counts[b][byte(v>>(8*b))]++
			}
		}
	}
	for b := lo; b < hi; b++ {
		shift, cnt := uint(8*b), &counts[b]
		if cnt[byte(a[0]>>shift)] == len(a) {
			continue // every key has this byte: the pass would change nothing
		}
		sum := 0
		for i, c := range cnt {
			cnt[i] = sum
			sum += c
		}
		for _, v := range a {
			d := byte(v >> shift)
			tmp[cnt[d]] = v
			cnt[d]++
		}
		a, tmp = tmp, a
	}
	return a
}

// msdMin is the length from which sortKeys first sorts by the most significant byte into
// 256 buckets, which it then sorts by the other bytes one at a time while each is in
// cache, the buckets shared among the cores: a pass of the sort by the least significant
// byte first over a long lane scatters the keys to 256 places across all of it (four such
// passes over 1e7 float32 keys took 476 ms on a 2-core Intel VM, 120 ms a pass).
const msdMin = 1 << 16

// msdSort is sortKeys for long lanes: the buckets of the byte hi-1 in tmp, each sorted by
// bytes [lo, hi-1). It returns the sorted slice (a or tmp).
func msdSort(a, tmp []uint64, lo, hi int, counts *radixCounts) []uint64 {
	top := hi - 1
	shift := uint(8 * top)
	// The histogram and the scatter in parts of a, each its own histogram: part t's keys
	// of a byte go after part t-1's (a stable sort).
	parts := 1
	if len(a) >= ndarray.SerialBelow {
		parts = ndarray.Cores()
	}
	per := (len(a) + parts - 1) / parts
	hist := make([][256]int, parts)
	ndarray.ForChunks(len(a), parts, func(p0, p1 int) {
		h := &hist[p0/per]
		for _, v := range a[p0:p1] {
			h[byte(v>>shift)]++
		}
	})
	var starts [257]int
	for b := range 256 {
		n := 0
		for t := range hist {
			c := hist[t][b]
			hist[t][b] = starts[b] + n // from here on: where part t's keys of byte b go
			n += c
		}
		starts[b+1] = starts[b] + n
	}
	if b := int(byte(a[0] >> shift)); starts[b+1]-starts[b] == len(a) {
		return sortKeys(a, tmp, lo, top, counts) // every key has this byte
	}
	ndarray.ForChunks(len(a), parts, func(p0, p1 int) {
		next := &hist[p0/per]
		for _, v := range a[p0:p1] {
			d := byte(v >> shift)
			tmp[next[d]] = v
			next[d]++
		}
	})
	ndarray.ForItems(256, len(a)/256, func(b0, b1 int) {
		var own radixCounts // each chunk of buckets its own histograms
		for b := b0; b < b1; b++ {
			s, e := starts[b], starts[b+1]
			if e-s < 2 {
				continue
			}
			if r := sortKeys(tmp[s:e], a[s:e], lo, top, &own); &r[0] != &tmp[s] {
				copy(tmp[s:e], r)
			}
		}
	})
	return tmp
}

// keyIdx is a 64-bit key with its lane index (keys too wide to pack an index under).
type keyIdx struct {
	key uint64
	idx int
}

func keyIdxCmp(a, b keyIdx) int {
	switch {
	case a.key < b.key:
		return -1
	case a.key > b.key:
		return 1
	}
	return a.idx - b.idx
}

// smallestK moves the k smallest of a (by cmp, all distinct) to a[:k], sorted: a heap
// of the k best so far, which most elements of a long lane fail to enter at one
// comparison.
func smallestK[T any](a []T, k int, cmp func(x, y T) int) []T {
	h := a[:k]
	down := func(i int) {
		for {
			c := 2*i + 1
			if c >= k {
				return
			}
			if c+1 < k && cmp(h[c+1], h[c]) > 0 {
				c++
			}
			if cmp(h[c], h[i]) <= 0 {
				return
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		down(i)
	}
	for _, x := range a[k:] {
		if cmp(x, h[0]) < 0 {
			h[0] = x
			down(0)
		}
	}
	slices.SortFunc(h, cmp)
	return h
}

// laneSorter sorts one lane at a time into keys (sorted, in the codec's encoding) and,
// when asked, idx (their positions in the lane). Its buffers are reused across lanes.
type laneSorter struct {
	codec    keyCodec
	desc     bool
	buf, tmp []uint64
	pairs    []keyIdx
	keys     []uint64
	idx      []int
	counts   radixCounts
}

// sort sorts the n-element lane at base[off], base[off+stride], ... and keeps its first
// k (all when k is n).
func (s *laneSorter) sort(base unsafe.Pointer, off, stride, n, k int, withIdx bool) {
	c := s.codec
	flip := uint64(0)
	if s.desc {
		flip = ^uint64(0) >> (64 - c.bits)
	}
	s.buf = growU64(s.buf, n)
	keys := s.buf
	nb := int(c.bits / 8)
	packed := withIdx && c.bits <= 32 && n <= 1<<32
	ndarray.ForItems(n, 1, func(lo, hi int) { // the keys, with their index under them when packed
		c.load(keys[lo:hi], base, off+lo*stride, stride)
		for i := lo; i < hi; i++ {
			if keys[i] ^= flip; packed {
				keys[i] = keys[i]<<32 | uint64(i)
			}
		}
	})
	s.idx = s.idx[:0]
	switch {
	case !withIdx:
		keys = s.sortPacked(keys, k, 0, nb)
		ndarray.ForItems(len(keys), 1, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				keys[i] ^= flip
			}
		})
		s.keys = keys
	case packed:
		keys = s.sortPacked(keys, k, 4, 4+nb)
		s.idx = slices.Grow(s.idx, len(keys))[:len(keys)]
		ndarray.ForItems(len(keys), 1, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				v := keys[i]
				keys[i], s.idx[i] = v>>32^flip, int(uint32(v))
			}
		})
		s.keys = keys
	default:
		s.pairs = slices.Grow(s.pairs[:0], n)[:n]
		for i, v := range keys {
			s.pairs[i] = keyIdx{v, i}
		}
		p := s.pairs
		if k < n && k*16 <= n {
			p = smallestK(p, k, keyIdxCmp)
		} else {
			slices.SortFunc(p, keyIdxCmp)
			p = p[:k]
		}
		s.keys = keys[:k]
		for i, e := range p {
			s.keys[i] = e.key ^ flip
			s.idx = append(s.idx, e.idx)
		}
	}
}

// sortPacked sorts distinct-or-interchangeable keys and returns the k smallest.
func (s *laneSorter) sortPacked(keys []uint64, k, lo, hi int) []uint64 {
	if k < len(keys) && k*16 <= len(keys) {
		return smallestK(keys, k, func(x, y uint64) int {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		})
	}
	s.tmp = growU64(s.tmp, len(keys))
	return sortKeys(keys, s.tmp, lo, hi, &s.counts)[:k]
}

func growU64(b []uint64, n int) []uint64 {
	if cap(b) < n {
		return make([]uint64, n)
	}
	return b[:n]
}

// indexStorer writes lane indices as elements of dt (argsort's and topk's dtype).
func indexStorer(dt ndarray.DType) func(base unsafe.Pointer, off, stride int, idx []int) {
	switch dt {
	case ndarray.Float16:
		return func(base unsafe.Pointer, off, stride int, idx []int) {
			for i, v := range idx {
				*ops.ElemAt[uint16](base, off+i*stride) = ops.F32ToF16(float32(v))
			}
		}
	case ndarray.Float32:
		return storeIdxAs[float32]
	case ndarray.Float64:
		return storeIdxAs[float64]
	case ndarray.Int32:
		return storeIdxAs[int32]
	case ndarray.Uint8:
		return storeIdxAs[uint8] // wraps, as MXNet's cast does
	}
	return storeIdxAs[int64]
}

func storeIdxAs[T float32 | float64 | int32 | int64 | uint8](base unsafe.Pointer, off, stride int, idx []int) {
	for i, v := range idx {
		*ops.ElemAt[T](base, off+i*stride) = T(v)
	}
}
