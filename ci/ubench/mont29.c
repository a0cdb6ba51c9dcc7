// mont29.c: whether a second multiplier helps RSA where MULX bounds it. A
// 1024-bit Montgomery product (one CRT half of RSA-2048) in radix 2^29 on
// AVX2 (36 digits, VPMULUDQ, the representation of OpenSSL's rsaz-avx2),
// checked against a textbook digit-serial loop, and timed: alone (its q chain
// in general registers or in xmm registers; unrolled or looped), as a
// squaring that makes its shifted copies anew each time, as a dedicated
// squaring kernel (each cross product once) that writes the next squaring's
// copies itself, beside the 512 MULX/ADCX/ADOX limb steps of the same
// product in the rsa adx kernels' form (32 rows of 16, as adx_row.c), and
// with those rows interleaved between its steps in one instruction stream,
// as a kernel running one CRT half on each unit would. The kernels are
// written by mont29_gen.py; cycles assume the clock printed by clock.c
// (argv[1], in GHz). Compare with rsa's BenchmarkMontMulADX16 and
// BenchmarkMontSqrADX16, run alternately with this.
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define W 29
#define MASK ((1ull << W) - 1)
#define N 36

// z = a*b / 2^(29*36) mod m, almost: z < 2m for a, b < 2m. sa and sm are a
// and m shifted by 0-3 digits (40 digits each, zero-padded), so every load
// is aligned; m0inv = -m^-1 mod 2^29.
typedef void kernel(uint64_t *z, const uint64_t *b, const uint64_t (*sa)[40], const uint64_t (*sm)[40], const uint64_t *m, uint64_t m0inv);
kernel k_vec, k_xvec, k_rows, k_fused, k_xfused, k_vecl, k_fusedl;
// z = a*a / 2^(29*36) mod m, almost: buf holds a's shifted copies, then 2a's.
// k_sqrc also leaves the copies of z and 2z in buf (z's digits below
// 2^29 + 2^7, not exact), for the next squaring.
typedef void sqrkernel(uint64_t *z, uint64_t (*buf)[40], const uint64_t (*sm)[40], const uint64_t *m, uint64_t m0inv);
sqrkernel k_sqr, k_sqrc;
uint64_t rowbuf[32] __attribute__((aligned(64)));  // the rows' operand and accumulator

static double now(void) {
	struct timespec a;
	clock_gettime(CLOCK_MONOTONIC, &a);
	return a.tv_sec + a.tv_nsec * 1e-9;
}

// The shifted copies: s[k][j] = a[j-k], zero outside a.
static void shifted(uint64_t (*s)[40], const uint64_t *a) {
	__m256i z = _mm256_setzero_si256();
	for (int k = 0; k < 4; k++) {
		_mm256_store_si256((__m256i *)&s[k][0], z);
		_mm256_store_si256((__m256i *)&s[k][36], z);
		for (int j = 0; j < N; j += 4) _mm256_storeu_si256((__m256i *)&s[k][j + k], _mm256_loadu_si256((const __m256i *)&a[j]));
	}
}

// The textbook loop: exact 29-bit digits after every pass.
static void ref(uint64_t *z, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t m0inv) {
	uint64_t t[N + 2] = {0};
	for (int i = 0; i < N; i++) {
		uint64_t c = 0, v;
		for (int j = 0; j < N; j++) { v = t[j] + a[j] * b[i] + c; t[j] = v & MASK; c = v >> W; }
		v = t[N] + c; t[N] = v & MASK; t[N + 1] += v >> W;
		uint64_t q = (t[0] * m0inv) & MASK;
		c = 0;
		for (int j = 0; j < N; j++) { v = t[j] + m[j] * q + c; t[j] = v & MASK; c = v >> W; }
		v = t[N] + c; t[N] = v & MASK; t[N + 1] += v >> W;
		if (t[0]) { printf("ref: low digit not cleared\n"); exit(1); }
		memmove(t, t + 1, (N + 1) * 8);
		t[N + 1] = 0;
	}
	if (t[N]) { printf("ref: product too large\n"); exit(1); }
	memcpy(z, t, N * 8);
}

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

// 29-bit digits of the low `bits` bits of l.
static void digits(uint64_t *d, const uint64_t *l, int bits) {
	for (int i = 0; i < N; i++) {
		d[i] = 0;
		for (int k = 0; k < W; k++) {
			int bit = i * W + k;
			if (bit < bits && (l[bit / 64] >> (bit % 64)) & 1) d[i] |= 1ull << k;
		}
	}
}

static uint64_t minusinv(uint64_t m0) {
	uint64_t inv = m0;
	for (int k = 0; k < 6; k++) inv *= 2 - m0 * inv;
	return -inv & MASK;
}

static int cmp(const void *x, const void *y) { double a = *(const double *)x, b = *(const double *)y; return (a > b) - (a < b); }

static uint64_t sa[4][40] __attribute__((aligned(32))), sm[4][40] __attribute__((aligned(32)));
static uint64_t buf[8][40] __attribute__((aligned(32)));

// buf for a squaring of a: the shifted copies of a and of 2a.
static void sqrbuf(const uint64_t *a) {
	uint64_t d[N];
	for (int j = 0; j < N; j++) d[j] = 2 * a[j];
	shifted(buf, a), shifted(buf + 4, d);
}

// exact 29-bit digits of a value given as digits of any size below 2^64
static void exact(uint64_t *z) {
	uint64_t c = 0;
	for (int j = 0; j < N; j++) { uint64_t v = z[j] + c; z[j] = v & MASK; c = v >> W; }
	if (c) { printf("exact: value too large\n"); exit(1); }
}

int main(int argc, char **argv) {
	double ghz = argc > 1 ? atof(argv[1]) : 2.65;
	uint64_t ml[17], al[17], bl[17], m[N], a[N], b[N], want[N], got[N];
	int bad = 0;
	// Random odd 1024-bit moduli and operands below 2m; every fourth the
	// largest digits: m = 2^1024-1, a = b = 2m-1.
	for (int trial = 0; trial < 4000; trial++) {
		int big = trial % 4 == 0;
		for (int i = 0; i < 17; i++) { ml[i] = big ? ~0ull : rnd(); al[i] = big ? ~0ull : rnd(); bl[i] = big ? ~0ull : rnd(); }
		ml[0] |= 1, ml[15] |= 1ull << 63, ml[16] = 0;
		al[16] = bl[16] = big;
		if (big) al[0] = bl[0] = ~3ull;
		digits(m, ml, 1024), digits(a, al, 1024 + big), digits(b, bl, 1024 + big);
		uint64_t m0inv = minusinv(m[0]);
		shifted(sa, a), shifted(sm, m);
		ref(want, a, b, m, m0inv);
		kernel *products[] = {k_vec, k_xvec, k_fused, k_xfused, k_vecl, k_fusedl};
		for (size_t j = 0; j < sizeof products / sizeof products[0]; j++) {
			products[j](got, b, sa, sm, m, m0inv);
			bad += memcmp(want, got, sizeof got) != 0;
		}
	}
	// squarings, from the last random operand and from the largest digits
	// (m = 2^1024-1, a = 2m-1): the product kernel through the copies, the
	// squaring kernel, and 100 chained squarings through k_sqrc's own copies
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			for (int i = 0; i < 17; i++) ml[i] = al[i] = ~0ull;
			ml[16] = 0, al[16] = 1, al[0] = ~3ull;
			digits(m, ml, 1024), digits(a, al, 1025);
			shifted(sm, m);
		}
		uint64_t m0inv = minusinv(m[0]), a0[N];
		memcpy(a0, a, sizeof a0);
		for (int trial = 0; trial < 100; trial++) {
			ref(want, a, a, m, m0inv);
			shifted(sa, a);
			k_vec(got, a, sa, sm, m, m0inv);
			bad += memcmp(want, got, sizeof got) != 0;
			sqrbuf(a);
			k_sqr(got, buf, sm, m, m0inv);
			bad += memcmp(want, got, sizeof got) != 0;
			memcpy(a, got, sizeof a);
		}
		memcpy(a, a0, sizeof a);
		sqrbuf(a);
		for (int trial = 0; trial < 100; trial++) {
			ref(want, a, a, m, m0inv);
			k_sqrc(got, buf, sm, m, m0inv);
			exact(got);
			bad += memcmp(want, got, sizeof got) != 0;
			memcpy(a, got, sizeof a);
		}
	}
	printf("4000 products (every 4th with the largest digits) by each vector and fused kernel and 600 squarings, against the textbook loop: %d wrong\n", bad);
	if (bad) return 1;

	uint64_t m0inv = minusinv(m[0]), z[N];
	memcpy(z, b, sizeof z);
	long n = 200000;
#define K 10
	double t[K][15];
	const char *name[K] = {"radix 2^29, q by IMUL", "radix 2^29, q by VPMULUDQ", "512 MULX limb steps", "IMUL kernel + MULX steps", "VPMULUDQ kernel + MULX steps", "IMUL kernel, squaring", "squaring kernel, copies given", "squaring kernel, its own copies", "IMUL kernel, looped", "IMUL kernel + MULX steps, looped"};
	kernel *k[K] = {k_vec, k_xvec, k_rows, k_fused, k_xfused, 0, 0, 0, k_vecl, k_fusedl};
	int rounds = 15;  // interleaved: every kernel once per round
	for (int r = 0; r < rounds; r++)
		for (int v = 0; v < K; v++) {
			double t0 = now();
			if (k[v])
				for (long i = 0; i < n; i++) k[v](z, z, sa, sm, m, m0inv);  // each product waits for the last, as in an exponentiation
			else if (v == 5)  // z = z*z: the shifted copies of z made anew for each product
				for (long i = 0; i < n; i++) shifted(sa, z), k_vec(z, z, sa, sm, m, m0inv);
			else if (v == 6) {  // the copies of one operand, squared again and again
				sqrbuf(a);
				for (long i = 0; i < n; i++) k_sqr(z, buf, sm, m, m0inv);
			} else {  // z = z*z through the copies the kernel writes
				sqrbuf(a);
				for (long i = 0; i < n; i++) k_sqrc(z, buf, sm, m, m0inv);
			}
			t[v][r] = (now() - t0) * 1e9 / n;
		}
	printf("per 1024-bit product, over %d rounds: minimum and median ns; cycles at the minimum\n", rounds);
	for (int v = 0; v < K; v++) {
		qsort(t[v], rounds, sizeof t[v][0], cmp);
		printf("%-34s %4.0f %4.0f ns  %5.0f cycles\n", name[v], t[v][0], t[v][rounds / 2], t[v][0] * ghz);
	}
	return 0;
}
