// Whether the CPU and the OS run the kernels, read with CPUID and XGETBV. Not
// __builtin_cpu_supports: under zig cc (the manylinux wheels) it answers 0 for every
// feature, as zig's runtime does not fill the CPU model, and every kernel was off.
#ifndef MXGO_CPU_H
#define MXGO_CPU_H

#if defined(__x86_64__)
#include <cpuid.h>

// AVX2 (and FMA when fma is set) usable: the CPU has them and the OS saves YMM state.
static inline int mxgo_cpu_avx2(int fma) {
	unsigned a, b, c, d, lo, hi;
	if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
	int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, has_fma = (c >> 12) & 1;
	if (!osxsave || !avx || (fma && !has_fma)) return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	if ((lo & 6) != 6) return 0; // XMM and YMM state
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
	return (b >> 5) & 1; // AVX2
}

// AVX-512F usable: AVX2 and FMA are, the CPU has AVX-512F, and the OS saves the opmask
// and all 32 ZMM registers.
static inline int mxgo_cpu_avx512(void) {
	unsigned a, b, c, d, lo, hi;
	if (!mxgo_cpu_avx2(1)) return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	if ((lo & 0xe6) != 0xe6) return 0;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
	return (b >> 16) & 1;
}
#endif

#endif
