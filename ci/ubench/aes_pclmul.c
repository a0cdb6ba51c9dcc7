// aes_pclmul.c: issue cost of AESENC and PCLMULQDQ (xmm) and of the mix
// an AES-128-GCM loop needs (10 AESENC + 3.25 PCLMULQDQ per block), all
// on independent registers so that throughput, not latency, is measured.
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
	return 0;
}
