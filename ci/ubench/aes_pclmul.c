// aes_pclmul.c: issue cost of AESENC and PCLMULQDQ (xmm) and of the mix
// an AES-128-GCM loop needs (10 AESENC + 3.25 PCLMULQDQ per block), all
// on independent registers so that throughput, not latency, is measured;
// the instruction mixes of the aesni-avx and vaes-avx2 loops; then, on a
// CPU with AVX-512 and VAES, the same for their zmm forms.
// Cycles assume the clock printed by clock.c (pass it as argv[1], in GHz).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
	struct timespec a;
	clock_gettime(CLOCK_MONOTONIC, &a);
	return a.tv_sec + a.tv_nsec * 1e-9;
}

#define CLOBBER "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", \
	"xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13"

#define YA8 "vaesenc %%ymm15,%%ymm0,%%ymm0\n vaesenc %%ymm15,%%ymm1,%%ymm1\n vaesenc %%ymm15,%%ymm2,%%ymm2\n vaesenc %%ymm15,%%ymm3,%%ymm3\n" \
	"vaesenc %%ymm15,%%ymm4,%%ymm4\n vaesenc %%ymm15,%%ymm5,%%ymm5\n vaesenc %%ymm15,%%ymm6,%%ymm6\n vaesenc %%ymm15,%%ymm7,%%ymm7\n"
#define YC2 "vpclmulqdq $0,%%ymm14,%%ymm15,%%ymm8\n vpclmulqdq $0,%%ymm14,%%ymm15,%%ymm9\n"
#define YX6 "vpxor %%ymm14,%%ymm12,%%ymm12\n vpxor %%ymm14,%%ymm13,%%ymm13\n vpshufd $0x4e,%%ymm14,%%ymm12\n vpxor %%ymm15,%%ymm13,%%ymm13\n" \
	"vpshufb %%ymm14,%%ymm12,%%ymm12\n vpaddd %%ymm15,%%ymm13,%%ymm13\n"
#define YX2 "vpxor %%ymm14,%%ymm12,%%ymm12\n vpxor %%ymm14,%%ymm13,%%ymm13\n"
#define YB1 "vbroadcasti128 %[k],%%ymm11\n"

// vaes16 runs m times vaes-avx2's 16-block batch as its loop has it
// (counters stepped big-endian), independent as the mixes below: per 16
// blocks 80 VAESENC (the last round included), 26 VPCLMULQDQ, 80 XORs,
// shuffles and adds, and the 11 round-key broadcasts from memory. It
// returns nanoseconds per block.
static double vaes16(long m) {
	static const unsigned char key[16] __attribute__((aligned(16)));
	double t = now();
	for (long i = 0; i < m; i++)
		__asm__ volatile(YB1 YA8 YB1 YA8 YB1 YA8 YB1 YA8 YB1 YA8 YB1 YA8 YB1 YA8 YB1 YA8 YB1 YA8 YB1 YA8 YB1
		                 YC2 YC2 YC2 YC2 YC2 YC2 YC2 YC2 YC2 YC2 YC2 YC2 YC2
		                 YX6 YX6 YX6 YX6 YX6 YX6 YX6 YX6 YX6 YX6 YX6 YX6 YX6 YX2
		                 :: [k] "m"(key) : CLOBBER, "xmm14", "xmm15");
	return (now() - t) * 1e9 / m / 16;
}

int main(int argc, char **argv) {
	double ghz = argc > 1 ? atof(argv[1]) : 2.65, t;
	// "aes_pclmul GHZ vaes16 COUNT": only vaes16, COUNT batches, its ns
	// per block (for runs alternated with the loop's benchmark).
	if (argc > 3 && strcmp(argv[2], "vaes16") == 0) {
		printf("%.4f\n", vaes16(atol(argv[3])));
		return 0;
	}
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

	// The batch mixes of the xmm and ymm loops, independent as above (the
	// multiplies read two constant registers, so no product waits for
	// another): per 16
	// blocks of AES-128 aesni-avx runs 160 AESENC (the last rounds
	// included), 50 PCLMULQDQ and 118 XORs and shuffles; per 8 blocks
	// vaes-avx2 runs 40 VAESENC ymm, 14 VPCLMULQDQ ymm and 48 XORs,
	// shuffles and adds.
#define XA8 "vaesenc %%xmm15,%%xmm0,%%xmm0\n vaesenc %%xmm15,%%xmm1,%%xmm1\n vaesenc %%xmm15,%%xmm2,%%xmm2\n vaesenc %%xmm15,%%xmm3,%%xmm3\n" \
	"vaesenc %%xmm15,%%xmm4,%%xmm4\n vaesenc %%xmm15,%%xmm5,%%xmm5\n vaesenc %%xmm15,%%xmm6,%%xmm6\n vaesenc %%xmm15,%%xmm7,%%xmm7\n"
#define XC1 "vpclmulqdq $0,%%xmm14,%%xmm15,%%xmm8\n"
#define XC5 XC1 "vpclmulqdq $0,%%xmm14,%%xmm15,%%xmm9\n vpclmulqdq $0,%%xmm14,%%xmm15,%%xmm10\n vpclmulqdq $0,%%xmm14,%%xmm15,%%xmm11\n" XC1
#define XX6 "vpxor %%xmm14,%%xmm12,%%xmm12\n vpxor %%xmm14,%%xmm13,%%xmm13\n vpshufd $0x4e,%%xmm14,%%xmm12\n vpxor %%xmm15,%%xmm13,%%xmm13\n" \
	"vpshufb %%xmm14,%%xmm12,%%xmm12\n vpxor %%xmm15,%%xmm13,%%xmm13\n"
#define XX2 "vpxor %%xmm14,%%xmm12,%%xmm12\n vpxor %%xmm14,%%xmm13,%%xmm13\n"
	if (__builtin_cpu_supports("avx")) {
		long m = n / 20;
		t = now();
		for (long i = 0; i < m; i++)
			__asm__ volatile(XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8 XA8
			                 XC5 XC5 XC5 XC5 XC5 XC5 XC5 XC5 XC5 XC5
			                 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX6 XX2 ::: CLOBBER, "xmm14", "xmm15");
		printf("an aesni-avx batch's mix (160 AESENC, 50 PCLMULQDQ, 116 XOR/shuffle xmm per 16 blocks): %.2f cycles per block\n",
		       (now() - t) * ghz * 1e9 / m / 16);
	}
	if (__builtin_cpu_supports("vaes") && __builtin_cpu_supports("vpclmulqdq")) {
		long m = n / 10;
		t = now();
		for (long i = 0; i < m; i++)
			__asm__ volatile(YA8 YA8 ::: CLOBBER, "xmm14", "xmm15");
		printf("VAESENC ymm:      %.2f cycles each (two blocks)\n", (now() - t) * ghz * 1e9 / m / 16);
		t = now();
		for (long i = 0; i < m; i++)
			__asm__ volatile(YA8 YA8 YA8 YA8 YA8 YC2 YC2 YC2 YC2 YC2 YC2 YC2 YX6 YX6 YX6 YX6 YX6 YX6 YX6 YX6 ::: CLOBBER, "xmm14", "xmm15");
		printf("a vaes-avx2 batch's mix (40 VAESENC, 14 VPCLMULQDQ, 48 XOR/shuffle/add ymm per 8 blocks): %.2f cycles per block\n",
		       (now() - t) * ghz * 1e9 / m / 8);
		double ns = vaes16(n / 20);
		printf("vaes-avx2's 16-block batch mix (80 VAESENC, 26 VPCLMULQDQ, 80 XOR/shuffle/add, 11 broadcasts per 16 blocks): %.2f cycles per block (%.3f ns)\n",
		       ns * ghz, ns);
	}

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
