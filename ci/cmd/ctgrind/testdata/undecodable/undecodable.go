// Package undecodable is ci/cmd/ctgrind's fixture for an instruction
// valgrind cannot decode: its test executes an AVX-512 instruction, which
// valgrind 3.19 rejects on any CPU, so the run stops there as a run on a
// CPU whose features valgrind's CPUID claims but its decoder lacks does.
package undecodable

// evexInstruction clears Z1 with an EVEX-encoded VPXORQ. Only valgrind
// runs it: the test is skipped outside valgrind.
func evexInstruction()

// Run executes evexInstruction.
func Run() { evexInstruction() }
