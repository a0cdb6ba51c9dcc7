// adx_row.c: the cost of the RSA kernels' building block, one limb step of a
// Montgomery product row (MULX of a limb by RDX, the high word carried on
// the CF chain with ADCX, the accumulator limb added on the OF chain with
// ADOX), of the instructions in it, and of the step with the accumulator in
// registers instead of memory. Cycles assume the clock printed by
// clock.c (pass it as argv[1], in GHz).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
	struct timespec a;
	clock_gettime(CLOCK_MONOTONIC, &a);
	return a.tv_sec + a.tv_nsec * 1e-9;
}

// STEP: one limb step of a row writing its accumulator back, as the rsa
// adx kernels emit it (z[o] += a[o]*rdx + carry, the previous high word
// in h, this one left in h2).
#define STEP(o, h, h2)                          \
	" mulx " #o "(%1), %%r8, " h2 "\n"          \
	" adcx " h ", %%r8\n"                       \
	" adox " #o "(%2), %%r8\n"                  \
	" mov %%r8, " #o "(%2)\n"

int main(int argc, char **argv) {
	double ghz = argc > 1 ? atof(argv[1]) : 2.65, t;
	long n = 100000000;
	uint64_t a[16], z[16] = {0};
	for (int i = 0; i < 16; i++)
		a[i] = 0x9e3779b97f4a7c15ull * (i + 1);

	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(
			".rept 16\n mulx %0, %%r8, %%r9\n .endr\n" ::"r"(a[0]), "d"(a[1])
			: "r8", "r9");
	printf("MULX alone:                    %.2f cycles each\n", (now() - t) * ghz * 1e9 / (16.0 * n));

	t = now();
	for (long i = 0; i < n; i++) {
		uint64_t x = 1, y = 2;
		__asm__ volatile("xor %%eax, %%eax\n .rept 8\n adcx %2, %0\n adox %2, %1\n .endr\n"
		                 : "+r"(x), "+r"(y)
		                 : "r"(a[2])
		                 : "rax", "cc");
	}
	printf("ADCX + ADOX, two chains:       %.2f cycles per pair\n", (now() - t) * ghz * 1e9 / (8.0 * n));

	// A 16-limb row, each row independent of the last except through
	// the accumulator in memory (as consecutive rows of a product are).
	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(
			" xor %%r8d, %%r8d\n"
			" mulx 0(%1), %%r8, %%r9\n adox 0(%2), %%r8\n mov %%r8, 0(%2)\n"
			STEP(8, "%%r9", "%%r10") STEP(16, "%%r10", "%%r9") STEP(24, "%%r9", "%%r10")
			STEP(32, "%%r10", "%%r9") STEP(40, "%%r9", "%%r10") STEP(48, "%%r10", "%%r9")
			STEP(56, "%%r9", "%%r10") STEP(64, "%%r10", "%%r9") STEP(72, "%%r9", "%%r10")
			STEP(80, "%%r10", "%%r9") STEP(88, "%%r9", "%%r10") STEP(96, "%%r10", "%%r9")
			STEP(104, "%%r9", "%%r10") STEP(112, "%%r10", "%%r9") STEP(120, "%%r9", "%%r10")
			::"d"(a[3]), "r"(a), "r"(z)
			: "r8", "r9", "r10", "cc", "memory");
	printf("row of 16 limb steps:          %.2f cycles per limb\n", (now() - t) * ghz * 1e9 / (16.0 * n));

	// The same steps with the accumulator in registers (r11-r15, rbx,
	// rsi, rdi, as a kernel that keeps a tile of the product in registers
	// would), so no step loads or stores: what a step costs without the
	// memory traffic.
#define RSTEP(o, acc, h, h2)                    \
	" mulx " #o "(%1), %%r8, " h2 "\n"          \
	" adcx " h ", %%r8\n"                       \
	" adox %%r8, " acc "\n"
	t = now();
	for (long i = 0; i < n; i++)
		__asm__ volatile(
			" xor %%r8d, %%r8d\n"
			" mulx 0(%1), %%r8, %%r9\n adox %%r8, %%r11\n"
			RSTEP(8, "%%r12", "%%r9", "%%r10") RSTEP(16, "%%r13", "%%r10", "%%r9") RSTEP(24, "%%r14", "%%r9", "%%r10")
			RSTEP(32, "%%r15", "%%r10", "%%r9") RSTEP(40, "%%rbx", "%%r9", "%%r10") RSTEP(48, "%%rsi", "%%r10", "%%r9")
			RSTEP(56, "%%rdi", "%%r9", "%%r10")
			::"d"(a[3]), "r"(a)
			: "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rbx", "rsi", "rdi", "cc");
	printf("row of 8 limb steps, accumulator in registers: %.2f cycles per limb\n", (now() - t) * ghz * 1e9 / (8.0 * n));
	return 0;
}
