// Package x86sim is an executable model of the amd64 assembly that vg's
// generators emit (Go assembler syntax, as avo prints it), so that every
// backend, AVX-512 included, runs its whole test suite on any amd64 machine,
// and runs it under checks stricter than the hardware's.
//
// # What runs
//
// [Load] parses a committed .s file (TEXT, DATA, GLOBL, labels and every
// instruction and operand form the generators use, EVEX write masks, zeroing
// and broadcast included) into a [Program]; an unknown opcode or operand form
// is a [ParseError] naming file:line. [Program.Call] runs one function on a Go
// ABI0 argument frame ([Frame]) over real memory: the model reads and writes
// the caller's buffers through unsafe.Pointer, but only inside the [Region]s
// the call registers (each pointer argument with its extent), the model's own
// stack (the TEXT frame, StackBelowSP bytes below SP, the argument frame) and
// the read-only DATA tables. The generated trampolines (build tag vgsim, see
// asmgen) make each call; the .s files are the same bytes the assembler
// builds.
//
// # State
//
// Sixteen general registers, CF/PF/ZF/SF/OF, 32 vector registers of 512 bits
// and 8 opmask registers. Upper bits follow the SDM: a legacy SSE instruction
// leaves bits 511:128 of its destination unchanged, VEX and EVEX forms zero
// the bits above their vector length, VZEROUPPER and VZEROALL clear what they
// clear. Flags the SDM leaves undefined are set to a fixed value (the hardware
// probes exclude them from the comparison).
//
// # Checks
//
// Every byte of register, flag and memory state carries a secret bit. Memory
// behind a Secret region starts secret; every instruction propagates the bit
// soundly (a result byte is secret whenever the semantics let a secret byte
// reach it; byte- or element-precise where lanes are independent, whole lanes
// for AES rounds and carry-less products). A call faults ([Fault]) on:
//   - a conditional branch on a secret flag;
//   - a memory address computed from a secret byte (base, index, a BT bit
//     offset, a masked access under a secret mask);
//   - a variable-time instruction (DIV) on any operand;
//   - a secret byte stored into public input memory (a Public region or an
//     argument slot);
//   - an access outside every region, by even one byte, or a write to
//     read-only data; masked loads and stores touch only enabled elements;
//   - a return with a secret byte left in any vector or opmask register or
//     anywhere in the model's stack (the TEXT frame and the bytes below SP);
//   - before it runs, a Public region overlapping memory a test named secret
//     ([NameSecret]): the annotations are cross-checked, not trusted.
//
// Under valgrind's memcheck (build tag valgrind, as ci/cmd/ctgrind builds
// the tests with -tags valgrind,vgsim) the secret bits come from the caller
// instead of the annotations: each call reads memcheck's definedness of its
// argument words and regions, which memcheck tracked through the Go code from
// the memory the test marked undefined, and faults when an argument word
// not declared Secret (a Public scalar: a length, a counter, a window index)
// holds a value derived from a secret ([UnderValgrind]); the results come
// back undefined where the model computed them from secrets.
//
// General registers are not checked at return: Go's ABI0 treats them as
// clobbered by an assembly call, the compiler reuses them at once, and asmgen
// does not wipe them (its documented policy, asmgen/doc.go). Result slots of
// the argument frame and Output regions receive values computed from secrets
// (ciphertext, tags, a tag-check bit) and may hold secret bits.
//
// # Coverage
//
// The model records which basic blocks of each function ran
// ([Program.Coverage]); [CoverageFromEnv] writes them for ci/cmd/simcover,
// which fails listing every block no test executed.
//
// # What it cannot see
//
// Timing: the model checks the constant-time discipline (no secret branch,
// address or variable-time instruction), not cycles, so it says nothing about
// microarchitectural leaks of instructions the CPU runs in variable time on
// public-looking paths. Paths no test executes: every check is dynamic, which
// is why coverage must be complete. Concurrency and memory ordering: each call
// runs alone on its own machine state.
package x86sim
