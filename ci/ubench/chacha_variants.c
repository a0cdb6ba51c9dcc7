// chacha_variants.c: the latency of one 20-round ChaCha20 block computed in
// different units, and of two computed side by side, to choose how a short
// seal computes its Poly1305 key block and its keystream block: the AVX2 row
// layout (rotations by shuffles and shift pairs), the AVX-512 row layout on
// ymm (two blocks) and on zmm (four blocks), every rotation one VPROLD, the general registers (one
// block, 16 words in 32-bit registers, ROL), and a general-register block
// interleaved with a zmm row block or with a second general-register block;
// and the AVX2 row layout's two and three register sets interleaved, as a
// short seal of up to 320 bytes computes them, and two sets beside a
// general-register block.
// The AVX-512 variants run only where the CPU has AVX-512F/VL:
// gcc -O2 -mavx2 chacha_variants.c.
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
	struct timespec a;
	clock_gettime(CLOCK_MONOTONIC, &a);
	return a.tv_sec + a.tv_nsec * 1e-9;
}

#define ROTB(x, tab) _mm256_shuffle_epi8(x, tab)
#define ROT(x, k) _mm256_or_si256(_mm256_slli_epi32(x, k), _mm256_srli_epi32(x, 32 - (k)))
#define HALF2(a, b, c, d)                                                            \
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = ROTB(d, r16);        \
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = ROT(b, 12);          \
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = ROTB(d, r8);         \
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = ROT(b, 7);

#define HALF5(a, b, c, d)                                                            \
	a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a); d = _mm512_rol_epi32(d, 16); \
	c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c); b = _mm512_rol_epi32(b, 12); \
	a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a); d = _mm512_rol_epi32(d, 8);  \
	c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c); b = _mm512_rol_epi32(b, 7);

#define R32(x, k) (((x) << (k)) | ((x) >> (32 - (k))))
#define QR(a, b, c, d)                                      \
	a += b; d ^= a; d = R32(d, 16); c += d; b ^= c; b = R32(b, 12); \
	a += b; d ^= a; d = R32(d, 8);  c += d; b ^= c; b = R32(b, 7);
#define GPROUND(x)                                                                  \
	QR(x[0], x[4], x[8], x[12]) QR(x[1], x[5], x[9], x[13])                        \
	QR(x[2], x[6], x[10], x[14]) QR(x[3], x[7], x[11], x[15])                      \
	QR(x[0], x[5], x[10], x[15]) QR(x[1], x[6], x[11], x[12])                      \
	QR(x[2], x[7], x[8], x[13]) QR(x[3], x[4], x[9], x[14])

static const long n = 1000000;

// rot16 and rot8 are the byte shuffles that rotate each 32-bit word by 16
// and by 8 bits.
static __m256i rot16(void) {
	return _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
	                        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
}

static __m256i rot8(void) {
	return _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
	                        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
}

static double avx2row(void) {
	__m256i a = _mm256_set1_epi32(1), b = _mm256_set1_epi32(2);
	__m256i c = _mm256_set1_epi32(3), d = _mm256_set1_epi32(4);
	__m256i r16 = rot16(), r8 = rot8();
	double t = now();
	for (long i = 0; i < n; i++) {
		for (int r = 0; r < 10; r++) {
			HALF2(a, b, c, d)
			b = _mm256_shuffle_epi32(b, 0x39); c = _mm256_shuffle_epi32(c, 0x4e); d = _mm256_shuffle_epi32(d, 0x93);
			HALF2(a, b, c, d)
			b = _mm256_shuffle_epi32(b, 0x93); c = _mm256_shuffle_epi32(c, 0x4e); d = _mm256_shuffle_epi32(d, 0x39);
			__asm__ volatile("" : "+x"(a), "+x"(b), "+x"(c), "+x"(d));
		}
	}
	t = now() - t;
	volatile int s = _mm256_extract_epi32(_mm256_add_epi32(a, d), 0);
	(void)s;
	return t * 1e9 / n;
}

// AVX2 row layout, sets register sets (2 blocks each) interleaved: what a
// short seal of up to 320 bytes computes (3 sets: block 0 and 5 text blocks);
// with gp, a general-register block in the same loop as an independent
// chain (block 0 beside two sets of text blocks).
static double avx2rows(int sets, int gp) {
	uint32_t x[16];
	for (int i = 0; i < 16; i++) x[i] = i * 0x01010101u;
	__m256i a[3], b[3], c[3], d[3];
	for (int s = 0; s < 3; s++) {
		a[s] = _mm256_set1_epi32(1 + s), b[s] = _mm256_set1_epi32(2 + s);
		c[s] = _mm256_set1_epi32(3 + s), d[s] = _mm256_set1_epi32(4 + s);
	}
	__m256i r16 = rot16(), r8 = rot8();
	double t = now();
	for (long i = 0; i < n; i++) {
		for (int r = 0; r < 10; r++) {
			for (int s = 0; s < sets; s++) {
				HALF2(a[s], b[s], c[s], d[s])
				b[s] = _mm256_shuffle_epi32(b[s], 0x39); c[s] = _mm256_shuffle_epi32(c[s], 0x4e); d[s] = _mm256_shuffle_epi32(d[s], 0x93);
			}
			for (int s = 0; s < sets; s++) {
				HALF2(a[s], b[s], c[s], d[s])
				b[s] = _mm256_shuffle_epi32(b[s], 0x93); c[s] = _mm256_shuffle_epi32(c[s], 0x4e); d[s] = _mm256_shuffle_epi32(d[s], 0x39);
			}
			for (int s = 0; s < sets; s++)
				__asm__ volatile("" : "+x"(a[s]), "+x"(b[s]), "+x"(c[s]), "+x"(d[s]));
			if (gp) {
				GPROUND(x)
			}
		}
	}
	t = now() - t;
	volatile int v = x[0] + x[15];
	for (int s = 0; s < sets; s++) v += _mm256_extract_epi32(_mm256_add_epi32(a[s], d[s]), 0);
	(void)v;
	return t * 1e9 / n;
}

// zmm row block, optionally with a general-register block in the same loop
// (gp != 0) as an independent chain.
__attribute__((target("avx512f,avx512vl"))) static double zmmrow(int gp) {
	__m512i a = _mm512_set1_epi32(1), b = _mm512_set1_epi32(2);
	__m512i c = _mm512_set1_epi32(3), d = _mm512_set1_epi32(4);
	uint32_t x[16];
	for (int i = 0; i < 16; i++) x[i] = i * 0x01010101u;
	double t = now();
	for (long i = 0; i < n; i++) {
		for (int r = 0; r < 10; r++) {
			HALF5(a, b, c, d)
			b = _mm512_shuffle_epi32(b, 0x39); c = _mm512_shuffle_epi32(c, 0x4e); d = _mm512_shuffle_epi32(d, 0x93);
			HALF5(a, b, c, d)
			b = _mm512_shuffle_epi32(b, 0x93); c = _mm512_shuffle_epi32(c, 0x4e); d = _mm512_shuffle_epi32(d, 0x39);
			__asm__ volatile("" : "+v"(a), "+v"(b), "+v"(c), "+v"(d));
			if (gp) {
				GPROUND(x)
			}
		}
	}
	t = now() - t;
	volatile uint32_t s = _mm512_cvtsi512_si32(_mm512_add_epi32(a, d)) + x[0] + x[15];
	(void)s;
	return t * 1e9 / n;
}

#define HALFY(a, b, c, d)                                                            \
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = _mm256_rol_epi32(d, 16); \
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = _mm256_rol_epi32(b, 12); \
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = _mm256_rol_epi32(d, 8);  \
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = _mm256_rol_epi32(b, 7);

// ymm row block with VPROLD (AVX-512VL).
__attribute__((target("avx512f,avx512vl"))) static double ymmrol(void) {
	__m256i a = _mm256_set1_epi32(1), b = _mm256_set1_epi32(2);
	__m256i c = _mm256_set1_epi32(3), d = _mm256_set1_epi32(4);
	double t = now();
	for (long i = 0; i < n; i++) {
		for (int r = 0; r < 10; r++) {
			HALFY(a, b, c, d)
			b = _mm256_shuffle_epi32(b, 0x39); c = _mm256_shuffle_epi32(c, 0x4e); d = _mm256_shuffle_epi32(d, 0x93);
			HALFY(a, b, c, d)
			b = _mm256_shuffle_epi32(b, 0x93); c = _mm256_shuffle_epi32(c, 0x4e); d = _mm256_shuffle_epi32(d, 0x39);
			__asm__ volatile("" : "+v"(a), "+v"(b), "+v"(c), "+v"(d));
		}
	}
	t = now() - t;
	volatile int s = _mm256_extract_epi32(_mm256_add_epi32(a, d), 0);
	(void)s;
	return t * 1e9 / n;
}

// general-register blocks: one, or two interleaved.
static double gpblocks(int two) {
	uint32_t x[16], y[16];
	for (int i = 0; i < 16; i++) x[i] = i * 0x01010101u, y[i] = i * 0x02020202u;
	double t = now();
	for (long i = 0; i < n; i++) {
		for (int r = 0; r < 10; r++) {
			GPROUND(x)
			if (two) {
				GPROUND(y)
			}
			__asm__ volatile("" ::: "memory");
		}
	}
	t = now() - t;
	volatile uint32_t s = x[0] + x[15] + y[0] + y[15];
	(void)s;
	return t * 1e9 / n;
}

int main(int argc, char **argv) {
	double ghz = argc > 1 ? atof(argv[1]) : 2.65;
	int avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
	struct { const char *what; double ns; int ran; } r[] = {
		{"AVX2 row layout, 2 blocks per ymm, one chain", avx2row(), 1},
		{"AVX2 row layout, 2 sets (4 blocks) interleaved", avx2rows(2, 0), 1},
		{"AVX2 row layout, 3 sets (6 blocks) interleaved", avx2rows(3, 0), 1},
		{"AVX2 row layout, 2 sets + general-register block", avx2rows(2, 1), 1},
		{"AVX-512VL row layout, 2 blocks per ymm, VPROLD, one chain", avx512 ? ymmrol() : 0, avx512},
		{"AVX-512 row layout, 4 blocks per zmm, VPROLD, one chain", avx512 ? zmmrow(0) : 0, avx512},
		{"general registers, 1 block", gpblocks(0), 1},
		{"general registers, 2 blocks interleaved", gpblocks(1), 1},
		{"zmm row block + general-register block, interleaved", avx512 ? zmmrow(1) : 0, avx512},
	};
	for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
		if (r[i].ran)
			printf("%-58s %6.1f ns = %4.0f cycles\n", r[i].what, r[i].ns, r[i].ns * ghz);
		else
			printf("%-58s (no AVX-512 here)\n", r[i].what);
	}
	return 0;
}
