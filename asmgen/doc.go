// Package asmgen is what every vg assembly generator shares: backends as data,
// function framing with secret annotations and wiped stack scratch, common
// loops, and the generation-time checks (arch gates, constant-time taint, wipe
// present) that fail a generator.
//
// It is imported only by the generator modules under <alg>/_asm/, never by the
// algorithm packages, so avo never becomes a dependency of a vg user.
//
// # Writing a generator
//
// A generator creates one [Generator] per backend from the backend's cpufeat
// declaration, the same value the algorithm's Go dispatch selects with, so the
// generated instructions and the dispatch cannot disagree:
//
//	g := asmgen.New(cpufeat.MustLookup(cpufeat.AESGCM, "aesni"))
//	fn := g.Func("gcmSealAESNI", "func(dst, src *byte, n int, ks *[240]byte)",
//		asmgen.Doc("gcmSealAESNI encrypts n bytes of src to dst with the expanded key ks."),
//		asmgen.Secret("src", "ks"), asmgen.Output("dst"), asmgen.Public("n"),
//		asmgen.Len("dst", "n"), asmgen.Len("src", "n"), asmgen.Scratch(256))
//	p := g.GP64()
//	g.Load(g.Param("src"), p) // every avo instruction is a method of g
//	...
//	fn.Ret() // the wipe, then RET
//	err := g.Generate("asm_aesni_amd64.s", "asm_aesni_amd64.go") // and asm_aesni_vgsim_amd64.go
//
// or, for a generator program with one file per backend, [Main]. The
// Generator embeds avo's build.Context: instructions (g.MOVQ, g.MULXQ, ...),
// virtual registers (g.GP64, g.XMM, g.YMM, g.ZMM, g.K), arguments (g.Param,
// g.Load, g.Store), labels and comments are avo's. Vector operations go
// through [Generator.Vec], which picks their encoding. Functions start only
// with [Generator.Func]; constant tables come from [Generator.Table].
//
// # Function declarations
//
// [Generator.Func] takes the Go signature, a one-line [Doc], which arguments
// point to secret memory ([Secret]; for a scalar, the value itself is
// secret), which point to public slice headers of secret memory
// ([SecretSlices], the gather descriptors), which point to memory that
// receives results the algorithm makes public although they are computed
// from secrets ([Output]: ciphertext, tags), which are public ([Public]), the
// extent of every pointer argument whose type does not give it ([Len]: a Go
// expression over the other arguments, in elements of the pointed-to type),
// how much stack [Scratch] the function uses ([Func.Scratch] returns it),
// and which stack slots it parks public values in to free registers
// ([Spills], [Func.Spill]: running pointers and counts, tracked exactly by
// the taint check and, holding no secret, not wiped).
// Every pointer-like argument must be classified. A function that handles no
// secrets says so with [NoSecrets], which opts it out of the wipe. asmgen adds
// the classification to the function's doc comment.
//
// # Landmarks and shared constants
//
// [Func.Phase] marks where a phase of a function starts (key setup,
// additional data, main loop, remainder, partial block, tag) with a
// comment line "// phase: ..." in the assembly, and [Func.Ret] marks each
// wipe the same way, so that a reader finds the landmarks of a long .s file
// by searching for "phase:". [Generator.Const] declares a constant the Go
// code and the assembly share (the longest text a function was generated
// for, on which the Go side dispatches): it is written into the
// declarations and into the vgsim trampolines, so that it is in every
// build once and the Go side never copies it by hand.
//
// # On the model: build tag vgsim
//
// [Generator.Generate] writes a third file beside the assembly and its
// declarations, the trampolines ([Generator.Trampolines], [SimPath]): with
// the build tag vgsim the assembly and the declarations drop out of the
// build, and each function is a Go function of the same name and signature
// that runs the embedded assembly on x86sim, the executable model of the
// generated assembly, with the argument frame laid out as ABI0 lays it out
// and the memory of each pointer argument listed as a region of its kind
// (Public, Secret or Output) and extent. The model checks every executed
// path byte by byte: secret branches, addresses and stores into public
// memory, accesses outside the regions, secrets left in vector registers or
// on the stack at RET. cpufeat reports every feature under vgsim, so
// VG_CPU_FEATURES selects any backend and the whole test suite runs every
// backend on any amd64 machine:
//
//	go test -tags vgsim ./aesgcm ./chacha20poly1305 ./rsa ./conformance/...
//
// # The wipe
//
// [Func.Ret] ends a path of a function with secrets. After avo's register
// allocation, asmgen inserts before each of those RETs the zeroing of every
// vector register the function wrote (VEX VPXOR, which clears the whole
// register, where AVX is allowed; EVEX VPXORQ for zmm16-31; KXORW for opmask
// registers), then zero stores over the stack scratch (64 bytes a store where
// AVX-512 is allowed, 32 with AVX, else 16), then VZEROUPPER where AVX is
// allowed. General-purpose registers are not wiped: Go's ABI0 treats them as
// clobbered by an assembly call and the compiler reuses them at once (the
// x86sim model follows this policy and does not check them at RET).
//
// # The checks
//
// [Generator.Build] (and so Generate and Main) compiles with avo, expands the
// wipes, rebuilds the control-flow graph, and runs three checks on every
// function; any failure is an error naming the function and the instruction,
// and nothing is written:
//
//   - Arch gates: each instruction's ISA list (avo's ir.Instruction.ISA, all
//     of it) must be within the baseline ([BaselineISAs]) plus the ISAs of
//     the backend's features ([AllowedISAs]); registers 16-31 and 512-bit
//     registers need AVX512F, and AVX512VL below 512 bits, and opmask
//     registers AVX512F, whatever avo reports.
//   - Constant time: a taint analysis over the control-flow graph after
//     register allocation. Loads through a Secret pointer (or one derived from
//     it) are secret; so is everything computed from a secret, through
//     registers, the flags (the carry flag apart from the others, so INC and
//     DEC keep a secret carry, and a DEC of a public counter makes JNZ public)
//     and stack bytes. Errors: a conditional branch on secret flags (or
//     register), a memory operand whose base or index is secret, and a
//     variable-time instruction (DIV, IDIV, floating-point division and
//     square root) on a secret. CMOVcc, SETcc, ADC and SBB on secret flags
//     are allowed. Each error lists the chain of instructions that made the
//     value secret, back to the argument. Flags and timing come from an
//     explicit table of opcodes (optable.go); an opcode it lacks fails the
//     generation.
//   - Wipe present: on every path to every RET of a function with secrets,
//     every vector and opmask register the function wrote has been zeroed and
//     every stack byte it wrote overwritten with zeros, the spill slots
//     apart (the taint check refuses a secret stored into one).
//
// The taint analysis is conservative where it cannot be exact: lengths loaded
// from SecretSlices descriptors count as pointers into secret memory, stack
// accesses with an index register or unknown width touch the whole frame,
// accesses through a pointer computed from the Scratch area (such as the
// scratch aligned through a register) touch the whole Scratch area (and
// only it: the spill slots stay exact), and
// memory other than arguments and the stack frame is not tracked (a secret
// stored to a public destination and loaded back is not seen as secret).
//
// # Vector operations
//
// [Generator.Vec] is the one vector-op layer of every generator: each
// operation ([Vec.Xor], [Vec.AddD], [Vec.ShufB], [Vec.Broadcast128], ...) is
// written once and emits the legacy SSE form (copying a source first where
// the two-operand form needs it), the VEX form, or for zmm operands the
// EVEX form, by the backend's features and the operands' width. A generator
// keeps only what is its algorithm's own: layouts, tables, round structure.
//
// # Shared building blocks
//
// Written once on [Vec], and branching only on lengths: [Func.LoadPartialGP]
// and [Func.StorePartialGP] (fewer than 16 bytes in two general registers,
// in at most four pieces, never touching memory outside the buffer;
// ChaCha20-Poly1305 absorbs its partial Poly1305 blocks with the first),
// [Func.LoadPartial] and [Func.StorePartial] (the same through a vector
// register), [Func.ForEachSlice] (the walk over a descriptor array),
// [Func.JoinSlicesMax] (the slices as one run, copied into place unless
// there is one) and [Func.ForEachSliceGathered] (the walk, or one joined
// run for a short text), [Func.CopyBytes] and [Func.CopyBytesMax] (the
// tail's last 16 bytes, then 64 and 16 bytes at a time; under 16 bytes the
// two ends), [Func.XORBytes] (128, 32 and 16 bytes at a time with AVX2, 16
// without, then the tail in pieces) and [Func.GatherCopy] (a walk with a
// copy).
//
// # Determinism
//
// Generation is deterministic: the same generator produces the same bytes,
// which CI checks by regenerating every _asm generator and failing on a diff.
// The example under internal/example is generated by
//
//	go generate ./asmgen/internal/example
//
// and its gen test fails when the committed files are stale.
package asmgen
