// chacha_block.c: the latency of one ChaCha20 block (20 rounds) in the
// row layout on AVX2 (two blocks per ymm register, rotations by 16 and 8
// with VPSHUFB, by 12 and 7 with two shifts and an OR, diagonals with
// VPSHUFD), one dependent chain: the floor of any 16-byte seal that must
// compute a keystream block after the Poly1305 key block or beside it.
#include <immintrin.h>
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
#define HALF(a, b, c, d)                                                             \
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = ROTB(d, r16);        \
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = ROT(b, 12);          \
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = ROTB(d, r8);         \
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = ROT(b, 7);

int main(int argc, char **argv) {
	double ghz = argc > 1 ? atof(argv[1]) : 2.65;
	long n = 2000000;
	__m256i a = _mm256_set1_epi32(1), b = _mm256_set1_epi32(2);
	__m256i c = _mm256_set1_epi32(3), d = _mm256_set1_epi32(4);
	__m256i r16 = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
	                               2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
	__m256i r8 = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
	                              3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
	double t = now();
	for (long i = 0; i < n; i++) {
		for (int r = 0; r < 10; r++) {
			HALF(a, b, c, d)
			b = _mm256_shuffle_epi32(b, 0x39); c = _mm256_shuffle_epi32(c, 0x4e); d = _mm256_shuffle_epi32(d, 0x93);
			HALF(a, b, c, d)
			b = _mm256_shuffle_epi32(b, 0x93); c = _mm256_shuffle_epi32(c, 0x4e); d = _mm256_shuffle_epi32(d, 0x39);
			__asm__ volatile("" : "+x"(a), "+x"(b), "+x"(c), "+x"(d));
		}
	}
	t = now() - t;
	int s[8];
	_mm256_storeu_si256((void *)s, _mm256_add_epi32(a, d));
	printf("20-round block, row layout: %.1f ns = %.0f cycles (checksum %d)\n",
	       t * 1e9 / n, t * ghz * 1e9 / n, s[0]);
	return 0;
}
