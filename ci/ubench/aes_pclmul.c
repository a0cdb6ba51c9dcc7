// aes_pclmul.c: issue cost of AESENC and PCLMULQDQ (xmm) and of the mix
// an AES-128-GCM loop needs (10 AESENC + 3.25 PCLMULQDQ per block), all
// on independent registers so that throughput, not latency, is measured;
// then, on a CPU with AVX-512 and VAES, the same for their zmm forms.
// Cycles assume the clock printed by clock.c (pass it as argv[1], in GHz).
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
	struct timespec a;
	clock_gettime(CLOCK_MONOTONIC, &a);
	return a.tv_sec + a.tv_nsec * 1e-9;
}

#define CLOBBER "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", \
	"xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13"

int main(int argc, char **argv) {
	double ghz = argc > 1 ? atof(argv[1]) : 2.65, t;
	long n = 100000000;

	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(
			"pclmulqdq $0,%%xmm8,%%xmm0\n pclmulqdq $0,%%xmm8,%%xmm1\n"
			"pclmulqdq $0,%%xmm8,%%xmm2\n pclmulqdq $0,%%xmm8,%%xmm3\n"
			"pclmulqdq $0,%%xmm8,%%xmm4\n pclmulqdq $0,%%xmm8,%%xmm5\n"
			"pclmulqdq $0,%%xmm8,%%xmm6\n pclmulqdq $0,%%xmm8,%%xmm7\n" ::: CLOBBER);
	printf("PCLMULQDQ alone:  %.2f cycles each\n", (now() - t) * ghz * 1e9 / (8.0 * n));

	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(
			"vpclmulqdq $0,%%ymm8,%%ymm0,%%ymm0\n vpclmulqdq $0,%%ymm8,%%ymm1,%%ymm1\n"
			"vpclmulqdq $0,%%ymm8,%%ymm2,%%ymm2\n vpclmulqdq $0,%%ymm8,%%ymm3,%%ymm3\n"
			"vpclmulqdq $0,%%ymm8,%%ymm4,%%ymm4\n vpclmulqdq $0,%%ymm8,%%ymm5,%%ymm5\n" ::: CLOBBER);
	printf("VPCLMULQDQ ymm:   %.2f cycles each (two products)\n", (now() - t) * ghz * 1e9 / (6.0 * n));

	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(
			"aesenc %%xmm8,%%xmm0\n aesenc %%xmm8,%%xmm1\n aesenc %%xmm8,%%xmm2\n aesenc %%xmm8,%%xmm3\n"
			"aesenc %%xmm8,%%xmm4\n aesenc %%xmm8,%%xmm5\n aesenc %%xmm8,%%xmm6\n aesenc %%xmm8,%%xmm7\n" ::: CLOBBER);
	printf("AESENC alone:     %.2f cycles each\n", (now() - t) * ghz * 1e9 / (8.0 * n));

	// 12 AESENC over 8 chains and 4 PCLMULQDQ over 4 more: the ratio of a
	// GCM loop (80 AESENC : 26 PCLMULQDQ per 8 blocks of AES-128).
	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(
			"aesenc %%xmm8,%%xmm0\n aesenc %%xmm8,%%xmm1\n aesenc %%xmm8,%%xmm2\n pclmulqdq $0,%%xmm9,%%xmm10\n"
			"aesenc %%xmm8,%%xmm3\n aesenc %%xmm8,%%xmm4\n aesenc %%xmm8,%%xmm5\n pclmulqdq $0x11,%%xmm9,%%xmm11\n"
			"aesenc %%xmm8,%%xmm6\n aesenc %%xmm8,%%xmm7\n aesenc %%xmm8,%%xmm0\n pclmulqdq $0,%%xmm9,%%xmm12\n"
			"aesenc %%xmm8,%%xmm1\n aesenc %%xmm8,%%xmm2\n aesenc %%xmm8,%%xmm3\n pclmulqdq $0x11,%%xmm9,%%xmm13\n" ::: CLOBBER);
	double mix = (now() - t) * ghz * 1e9 / n;
	printf("12 AESENC + 4 PCLMULQDQ: %.2f cycles; per AES-128-GCM block (10 + 3.25): %.2f cycles\n",
	       mix, mix * 10.0 / 12.0);

	// The 512-bit forms, on a CPU with AVX-512 and VAES: 16 VAESENC over 8
	// chains, 8 VPCLMULQDQ over 4, and the mixes of a vaes-avx512 batch
	// (per 16 blocks of AES-128: 40 AES rounds, 14 carry-less multiplies,
	// and 45 XORs, shuffles, adds and extracts), all independent: the
	// batch's instructions at the rate the pipes take them, without its
	// dependencies.
	if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("vaes") ||
	    !__builtin_cpu_supports("vpclmulqdq"))
		return 0;
	n /= 4;
#define A8 "vaesenc %%zmm15,%%zmm0,%%zmm0\n vaesenc %%zmm15,%%zmm1,%%zmm1\n vaesenc %%zmm15,%%zmm2,%%zmm2\n vaesenc %%zmm15,%%zmm3,%%zmm3\n" \
	"vaesenc %%zmm15,%%zmm4,%%zmm4\n vaesenc %%zmm15,%%zmm5,%%zmm5\n vaesenc %%zmm15,%%zmm6,%%zmm6\n vaesenc %%zmm15,%%zmm7,%%zmm7\n"
#define C2 "vpclmulqdq $0,%%zmm14,%%zmm8,%%zmm8\n vpclmulqdq $0,%%zmm14,%%zmm9,%%zmm9\n"
#define C4 C2 "vpclmulqdq $0,%%zmm14,%%zmm10,%%zmm10\n vpclmulqdq $0,%%zmm14,%%zmm11,%%zmm11\n"
#define X4 "vpxord %%zmm14,%%zmm12,%%zmm12\n vpxord %%zmm14,%%zmm13,%%zmm13\n vpshufd $0x4e,%%zmm14,%%zmm12\n vpxord %%zmm15,%%zmm13,%%zmm13\n"
#define X1 "vpxord %%zmm14,%%zmm12,%%zmm12\n"
	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(A8 A8 ::: CLOBBER, "xmm14", "xmm15");
	double a16 = (now() - t) * ghz * 1e9 / n;
	printf("16 VAESENC zmm:   %.2f cycles\n", a16);
	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(C4 C4 ::: CLOBBER, "xmm14", "xmm15");
	printf("8 VPCLMULQDQ zmm: %.2f cycles (four products each)\n", (now() - t) * ghz * 1e9 / n);
	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(A8 A8 C4 ::: CLOBBER, "xmm14", "xmm15");
	double m4 = (now() - t) * ghz * 1e9 / n;
	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(A8 A8 C4 C2 ::: CLOBBER, "xmm14", "xmm15");
	double m6 = (now() - t) * ghz * 1e9 / n;
	printf("16 VAESENC zmm + 4 VPCLMULQDQ zmm: %.2f cycles; + 6: %.2f (each multiply costs the AES rounds %.2f cycles)\n",
	       m4, m6, (m6 - a16) / 6);
	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(A8 A8 X4 X4 ::: CLOBBER, "xmm14", "xmm15");
	printf("16 VAESENC zmm + 8 XOR/shuffle zmm: %.2f cycles\n", (now() - t) * ghz * 1e9 / n);
	printf("floor of a vaes-avx512 AES-128-GCM batch (40 AES + 14 multiplies at that cost): %.2f cycles per block\n",
	       (40 * a16 / 16 + 14 * (m6 - a16) / 6) / 16);
	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(A8 A8 A8 A8 A8 C4 C4 C4 C2 X4 X4 X4 X4 X4 X4 X4 X4 X4 X4 X4 X1 ::: CLOBBER, "xmm14", "xmm15");
	printf("a vaes-avx512 batch's mix (40 VAESENC, 14 VPCLMULQDQ, 45 XOR/shuffle zmm): %.2f cycles per block\n",
	       (now() - t) * ghz * 1e9 / n / 16);
	return 0;
}
