// clock.c: the core's effective clock, from a chain of dependent ADDs of a
// register (one cycle each; an ADD of an immediate is not used: Intel's
// cores since Golden Cove fold chains of those at rename, several a
// cycle). Used to turn nanoseconds into cycles.
#include <stdio.h>
#include <time.h>

int main(void) {
	struct timespec a, b;
	long n = 2000000000, x = 0, one = 1;
	clock_gettime(CLOCK_MONOTONIC, &a);
	__asm__ volatile("1: add %2,%0\n add %2,%0\n add %2,%0\n add %2,%0\n sub $1,%1\n jnz 1b"
	                 : "+r"(x), "+r"(n)
	                 : "r"(one)
	                 : "cc");
	clock_gettime(CLOCK_MONOTONIC, &b);
	double t = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
	printf("%.2f GHz\n", 4 * 2e9 / t / 1e9);
	return 0;
}
