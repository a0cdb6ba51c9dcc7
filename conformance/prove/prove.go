// Package prove proves vg's generated assembly equal to its specification
// for every value of the inputs it makes variables, by running each function
// in x86sim's symbolic mode and comparing the words it leaves with the words
// the specification (conformance/spec, instantiated over symbolic words)
// computes from the same variables.
//
// A proof covers one function of one generated .s file at the public
// parameters (lengths) it lists: those decide the control flow, which the
// symbolic mode requires to be constant. Within them it covers every key,
// state, nonce and text. Equality is decided on x86sim/sym's canonical form,
// without a solver: the words must come out identical, which they do when the
// code computes the specification's additions, XORs and rotations in any
// arrangement of lanes, rows, shuffles and byte orders.
//
// What the proofs trust, and how each is checked:
//   - the symbolic semantics of each instruction the function runs: before a
//     proof, x86sim's CheckSymbolic compares them with the concrete model on
//     random states, for every distinct instruction of the function;
//   - the concrete model: its probe tests compare it with the CPU
//     (asmgen/internal/probe), so the chain reaches the hardware;
//   - the canonical form: x86sim/sym's tests evaluate every constructor
//     against the plain definitions of its operations on random values;
//   - the specification: conformance/spec, written from the standards and
//     checked against their test vectors; the word form a proof runs
//     (XORBlocksWords, KeyExpansion) is checked against the byte form;
//   - the atoms both sides share: x86sim's AES round and final round equal
//     the specification's FIPS 197 rounds on random states, and the key
//     schedule's SubWord as a final round's atom equals the S-box
//     (TestAESRoundIsTheSpecification, TestSubWordIsTheSpecification);
//   - for GHASH (gf2.go): that GF(2^128) multiplication is bilinear, so that
//     spec.Mul on basis vectors is all of it; that Horner's rule may be
//     regrouped, y_t = y_s·H^(t-s) + Σ b_i·H^(t-i+1), when the table holds
//     H's powers (the proofs take the table's entries as independent
//     variables, so hold for every table, the real one among them, which
//     the gcmInit proofs show to hold H's powers); and the model's "eq"
//     atom (a byte compare's result), checked like any instruction;
//   - for Poly1305 (zint.go): the integer reading of words, whose every
//     rewrite is an identity of integers, and the comparison modulo
//     2^130-5 coefficient by coefficient (a polynomial whose coefficients
//     are all multiples of p is a multiple of p for every input); the
//     loop cuts (x86sim.SymCut), sound because each replaces words by
//     variables the rest of the run holds for every value of, once the
//     words are shown within the invariant's range; on zmm (polyvec.go),
//     the lanes' layout, three identities of polynomials in r, h, the
//     lanes and the blocks that the proof checks, composed by induction
//     over the loop's turns as written there;
//   - for Montgomery multiplication (montgomery.go): the same reading and
//     cuts, the contract's hypothesis m0inv·m[0] ≡ -1 modulo 2^64 (a
//     dropped limb congruent to a multiple of m0inv·m[0] + 1 is zero), and
//     the last step, written out in MontADX's doc and not checked by
//     machine: from the proven identity and x, y, Q, m < R, the pending
//     carry is a bit and the final subtraction's result is exact;
//   - for ifma's normalization (ifma.go): the model's compare and select
//     atoms (x86sim.SymCompare, x86sim.SymSelect: an opmask compare and an
//     element under a mask bit that is not a constant), checked like any
//     instruction, with the opmasks variables in some of CheckSymbolic's
//     trials; and the carry-lookahead lemma (ammChain.normalized), which
//     the z3 solver (Debian's z3 4.8, a child process) checks for each
//     kernel's lanes as bit-vectors, with a control query it must refute,
//     and TestLookaheadLemma tests on every value of four narrow lanes.
package prove

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

// A Proof is one generated function proven equal to its specification.
type Proof struct {
	// Module is the algorithm module, Backend the backend the file is, File
	// the .s file relative to the repository root, Func the function.
	Module, Backend, File, Func string
	// Covers says for which inputs and public parameters the proof holds.
	Covers string
	// Part names the part of the function's outputs proven, when it is not
	// all of them.
	Part string
	// Run proves the function of the loaded file.
	Run func(p *x86sim.Program, fn string) error
}

// xorBlocksCounts are the block counts the xorBlocks proofs take: every
// count up to one more than the widest pass (16 blocks), so every tail; then
// around two passes (the interleaved pair) and three.
var xorBlocksCounts = func() []int {
	var ks []int
	for k := 0; k <= 17; k++ {
		ks = append(ks, k)
	}
	return append(ks, 31, 32, 33, 47, 48, 49)
}()

func xorBlocksProof(backend, file, fn string) Proof {
	return Proof{
		Module: "chacha20poly1305", Backend: backend, File: "chacha20poly1305/" + file, Func: fn,
		Covers: fmt.Sprintf("every state and text, n = 64·k for k in %s; dst apart from src and dst == src", countList(xorBlocksCounts)),
		Run: func(p *x86sim.Program, fn string) error {
			for _, k := range xorBlocksCounts {
				if err := XORBlocks(p, fn, k); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// chachaTextProof proves a seal or open function, the text and the tag, at
// the lengths ns, with 13 bytes of additional data (and none at
// ns[len(ns)/2]).
func chachaTextProof(backend, file, fn string, open bool, ns []int) Proof {
	tag := ", and out[n:n+16] = Poly1305's tag of the additional data and the ciphertext (keyed by block 0)"
	if open {
		tag = ", and the result is 1 exactly when the tag given equals Poly1305's tag of the additional data and the text (keyed by block 0), else 0"
	}
	covers := fmt.Sprintf("out[:n] = the text XOR the keystream from block 1%s, for every key, nonce, text and 13 bytes of additional data, out apart from the text and out == the text: n in %s (and n = %d with no additional data)", tag, countList(ns), ns[len(ns)/2])
	return Proof{
		Module: "chacha20poly1305", Backend: backend, File: "chacha20poly1305/" + file, Func: fn,
		Covers: covers,
		Run: func(p *x86sim.Program, fn string) error {
			for _, n := range ns {
				if err := ChaChaText(p, fn, n, 13, open, true); err != nil {
					return err
				}
			}
			return ChaChaText(p, fn, ns[len(ns)/2], 0, open, true)
		},
	}
}

// polyBlocksLengths are the message lengths the polyBlocks proofs take:
// none, one to four blocks, 16 and 23 (the most avx512 hashes one block at
// a time), then avx512's zmm path: three groups of eight blocks (its
// least), three and one block, four groups, and 128 blocks.
var polyBlocksLengths = []int{0, 16, 32, 48, 64, 256, 368, 384, 400, 512, 2048}

// polyBlocksProof proves a Poly1305 block function at polyBlocksLengths.
func polyBlocksProof(backend, file, fn string) Proof {
	covers := fmt.Sprintf("h is congruent modulo 2^130-5 to the specification's loop (h = (h + block)·r for each 16-byte block with its 2^128 bit) and its top limb stays below 8, r and s kept, for every h (top limb below 8), clamped r and message, each turn of the loop proven for every h in that range: n in %s", countList(polyBlocksLengths))
	if backend == "avx512" {
		covers += "; from 384 bytes the zmm lanes too: each key power r^k proven congruent to r^(k-1)·r for every r^(k-1) in range, each turn of the lanes' loop for every lane value in range (five limbs below 2^27), and the lanes' sum at the exit the specification's loop over every block they took"
	}
	return Proof{
		Module: "chacha20poly1305", Backend: backend, File: "chacha20poly1305/" + file, Func: fn,
		Covers: covers,
		Run: func(p *x86sim.Program, fn string) error {
			for _, n := range polyBlocksLengths {
				if err := PolyBlocks(p, fn, n); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// countList prints ascending counts with runs as a..b.
func countList(ks []int) string {
	var parts []string
	for i := 0; i < len(ks); {
		j := i
		for j+1 < len(ks) && ks[j+1] == ks[j]+1 {
			j++
		}
		if j > i+1 {
			parts = append(parts, fmt.Sprintf("%d..%d", ks[i], ks[j]))
		} else {
			for k := i; k <= j; k++ {
				parts = append(parts, fmt.Sprint(ks[k]))
			}
		}
		i = j + 1
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// gcmShort are the text lengths every AES-GCM proof takes, with every key
// size: around one block and the short paths' limits.
var gcmShort = []int{0, 1, 15, 16, 17, 32, 63, 64, 100, 128, 255}

// gcmRounds are the AES round counts: 128-, 192- and 256-bit keys.
var gcmRounds = []int{10, 12, 14}

// gcmLong are the longer lengths (one and several passes of every width)
// and the round counts they are proven with: all of them where J0 can stay a
// variable; where the code branches on J0's last byte, and so each of its
// 256 values is a proof of its own, AES-128 at fewer lengths and AES-256 at
// the lengths long256 (the longest: every part of a pass).
type gcmLong struct {
	lengths, rounds []int
	perLastByte     bool
	long256         []int
}

// gcmTagBytes are the values of J0's last byte at which a proof that runs
// per value of it compares the tag: 0x01, every 12-byte nonce's, and 0xff,
// whose counter carries out of the byte at once.
var gcmTagBytes = []int{0x01, 0xff}

// gcmTagText says what a seal's proof covers of its tag.
const gcmTagText = "tag = E(J0) XOR GHASH_H(additional data, ciphertext) for every H (the table holding its powers, as gcmInit writes them)"

func gcmProof(backend, file, fn string, l gcmLayout, open bool, long gcmLong) Proof {
	what := "out[:n] = in[:n] XOR GCTR from inc32(J0) and " + gcmTagText
	if open {
		what = fmt.Sprintf("out[:n] = in[:n] XOR GCTR from inc32(J0), and the result is 1 exactly when the tag given equals E(J0) XOR GHASH_H(additional data, in) for every H (the table holding its powers, as gcmInit writes them), else 0: 16-byte tags at every length below, and 12 to 15 bytes (their first bytes compared) at n in %s with AES-128", countList(gcmTagLenN))
	}
	covers := fmt.Sprintf("%s, for every round-key table, J0, text and 13 bytes of additional data, out apart from in and out == in: n in %s with AES-128, -192 and -256, the tag with AES-128 (and n = 100 with no additional data); ", what, countList(gcmShort))
	if long.perLastByte {
		covers += fmt.Sprintf("n in %s with AES-128 and n in %s with AES-256, for each value of J0's last byte where the code branches on it, the tag with AES-128 at J0[15] = 0x01 and 0xff", countList(long.lengths), countList(long.long256))
	} else {
		covers += fmt.Sprintf("n in %s with every key size, the tag with AES-128", countList(long.lengths))
	}
	return Proof{
		Module: "aesgcm", Backend: backend, File: "aesgcm/" + file, Func: fn, Covers: covers,
		Run: func(p *x86sim.Program, fn string) error {
			check := func(rounds, n, aadLen int, perLastByte bool, tag TagAt) error {
				per, err := GCMCiphertext(p, fn, l, rounds, n, aadLen, open, tag)
				if err == nil && per && !perLastByte {
					err = fmt.Errorf("%s, n=%d: the code branches on J0's last byte, which the proof's list does not say", fn, n)
				}
				return err
			}
			for _, rounds := range gcmRounds {
				// The tag hashes the cipher's output whatever its rounds,
				// which the text proofs cover at every key size.
				tag := EveryTag
				if rounds != 10 {
					tag = NoTag
				}
				for _, n := range gcmShort {
					if err := check(rounds, n, 13, false, tag); err != nil {
						return err
					}
				}
				if err := check(rounds, 100, 0, false, tag); err != nil {
					return err
				}
			}
			for _, rounds := range long.rounds {
				tag := NoTag
				if rounds == 10 {
					tag = TagAtBytes(gcmTagBytes...)
				}
				lengths := long.lengths
				if rounds == 14 && long.long256 != nil {
					lengths = long.long256
				}
				for _, n := range lengths {
					if err := check(rounds, n, 13, long.perLastByte, tag); err != nil {
						return err
					}
				}
			}
			if !open {
				return nil
			}
			for tagLen := 12; tagLen < 16; tagLen++ {
				for _, n := range gcmTagLenN {
					if per, err := GCMOpenTag(p, fn, l, n, 13, tagLen); err != nil {
						return err
					} else if per {
						return fmt.Errorf("%s, n=%d: the code branches on J0's last byte, which the proof's list does not say", fn, n)
					}
				}
			}
			return nil
		},
	}
}

// gcmTagLenN are the text lengths at which the open proofs take tags of 12
// to 15 bytes: the comparison follows the hash whatever the length, and
// these take a partial block and whole ones.
var gcmTagLenN = []int{17, 100}

// gcmShapes are the piece lengths the gather proofs take.
var gcmShapes = [][]int{{}, {1}, {17}, {0, 16, 0}, {5, 12, 100}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {15, 17, 33}, {100, 200, 700}, {256, 44}}

func gcmGatherProof(backend, file, fn string, l gcmLayout) Proof {
	var ss []string
	for _, s := range gcmShapes {
		ss = append(ss, fmt.Sprint(s))
	}
	return Proof{
		Module: "aesgcm", Backend: backend, File: "aesgcm/" + file, Func: fn,
		Covers: fmt.Sprintf("out = the pieces' concatenation XOR GCTR from inc32(J0) and %s, for every round-key table, J0, text and 13 bytes of additional data, the pieces apart from out and each its own part of out: pieces of lengths %s, AES-128 (and AES-256 where they total 256 bytes or more), each value of J0's last byte where the code branches on it; the tag with AES-128 (at J0[15] = 0x01 and 0xff where the code branches on it)", gcmTagText, strings.Join(ss, ", ")),
		Run: func(p *x86sim.Program, fn string) error {
			for _, rounds := range []int{10, 14} {
				tag := NoTag
				if rounds == 10 {
					tag = TagAtBytes(gcmTagBytes...)
				}
				for _, shape := range gcmShapes {
					total := 0
					for _, n := range shape {
						total += n
					}
					if rounds == 14 && total < 256 {
						continue // AES-256 where a whole pass runs
					}
					if _, err := GCMGatherText(p, fn, l, rounds, shape, 13, tag); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}

// gcmStreamSteps are the (n, nopen) pairs the stream proofs take.
var gcmStreamSteps = [][2]int{{0, 0}, {1, 0}, {15, 0}, {16, 0}, {17, 0}, {100, 0}, {256, 0}, {300, 0}, {1000, 0},
	{1, 1}, {14, 1}, {15, 1}, {16, 1}, {100, 1}, {300, 1}, {1, 15}, {2, 15}, {17, 15}, {300, 15}}

func gcmStreamProof(backend, file, fn string, l gcmLayout) Proof {
	var ss []string
	for _, c := range gcmStreamSteps {
		ss = append(ss, fmt.Sprintf("%d/%d", c[0], c[1]))
	}
	return Proof{
		Module: "aesgcm", Backend: backend, File: "aesgcm/" + file, Func: fn,
		Covers: fmt.Sprintf("out[:n] = in[:n] XOR the stream's keystream (the open block's rest in the state, then GCTR from the state's counter); the state's hash GHASH_H continued over the whole blocks of the open block's bytes then out[:n]; the open block the bytes left over: for every H (the table holding its powers), round-key table, stream state (its open block zero past nopen, as every stream function leaves it) and text, out apart from in and out == in, AES-128 and -256 (the hash and open block with AES-128): n/nopen in {%s}", strings.Join(ss, ", ")),
		Run: func(p *x86sim.Program, fn string) error {
			for _, rounds := range []int{10, 14} {
				for _, c := range gcmStreamSteps {
					if err := GCMStreamText(p, fn, l, rounds, c[0], c[1], rounds == 10); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}

func gcmStreamStartProof(backend, file, fn string, l gcmLayout) Proof {
	return Proof{
		Module: "aesgcm", Backend: backend, File: "aesgcm/" + file, Func: fn,
		Covers: "the state's next counter block is inc32(J0), its mask E(J0), its hash GHASH_H of the additional data and its open block zero, for every H (the table holding its powers), round-key table, J0, state and additional data of 0, 1, 16, 17, 100 and 300 bytes, AES-128, -192 and -256",
		Run: func(p *x86sim.Program, fn string) error {
			for _, rounds := range gcmRounds {
				for _, aadLen := range []int{0, 1, 16, 17, 100, 300} {
					if err := GCMStreamStart(p, fn, l, rounds, aadLen); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}

// gcmFinishCases are the (nopen, aadLen, textLen) the stream finish proofs
// take.
var gcmFinishCases = [][3]int{{0, 0, 0}, {0, 13, 32}, {1, 0, 1}, {5, 13, 37}, {15, 16, 1000}, {0, 1 << 20, 1 << 30}}

func gcmStreamFinishProof(backend, file, fn string, l gcmLayout) Proof {
	var ss []string
	for _, c := range gcmFinishCases {
		ss = append(ss, fmt.Sprintf("%d/%d/%d", c[0], c[1], c[2]))
	}
	return Proof{
		Module: "aesgcm", Backend: backend, File: "aesgcm/" + file, Func: fn,
		Covers: fmt.Sprintf("tag = E(J0) (the state's mask) XOR GHASH_H continued from the state's hash over the open block and the lengths block, for every H (the table holding its powers) and stream state (its open block zero past nopen): nopen/aadLen/textLen in {%s}", strings.Join(ss, ", ")),
		Run: func(p *x86sim.Program, fn string) error {
			for _, c := range gcmFinishCases {
				if err := GCMStreamFinish(p, fn, l, c[0], c[1], c[2]); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

func gcmInitProof(backend, file, fn string, l gcmLayout) Proof {
	return Proof{
		Module: "aesgcm", Backend: backend, File: "aesgcm/" + file, Func: fn,
		Covers: fmt.Sprintf("the round keys are KeyExpansion of the key, and with H the cipher of the zero block under them the table holds H^1..H^%d (each times x^-1, byte-reflected) and their Karatsuba halves, for every key of 16, 24 and 32 bytes", l.npow),
		Run: func(p *x86sim.Program, fn string) error {
			for _, n := range []int{16, 24, 32} {
				if err := GCMInit(p, fn, l, n); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// gcmNonceLengths are the nonce lengths the nonce hash proofs take.
var gcmNonceLengths = []int{1, 8, 12, 15, 16, 17, 32, 64, 100, 128, 255, 256, 300}

func gcmNonceProof(backend, file, fn string, l gcmLayout) Proof {
	return Proof{
		Module: "aesgcm", Backend: backend, File: "aesgcm/" + file, Func: fn,
		Covers: fmt.Sprintf("j0 = GHASH_H(the nonce, zero padded, then 0^64 || its length in bits), for every H (the table holding its powers) and nonce: n in %s", countList(gcmNonceLengths)),
		Run: func(p *x86sim.Program, fn string) error {
			for _, n := range gcmNonceLengths {
				if err := GCMNonce(p, fn, l, n); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

func montProof(fn string, n int, sqr bool) Proof {
	what := "x·y"
	if sqr {
		what = "x²"
	}
	return Proof{
		Module: "rsa", Backend: "adx", File: "rsa/asm_adx_amd64.s", Func: fn,
		Covers: fmt.Sprintf("R·z = %s + (Q - top·R)·m with R = 2^(64n) (n the kernel's limbs), Q < R and top a bit, so z < R and z ≡ %s·R^-1 modulo m (almost Montgomery multiplication), for every x%s and m of n limbs and m0inv with m0inv·m[0] ≡ -1 modulo 2^64, z apart from x and z == x; each turn of the reduction loop proven for every T and pending carry", what, what, map[bool]string{false: ", y", true: ""}[sqr]),
		Run: func(p *x86sim.Program, fn string) error {
			for _, alias := range []bool{false, true} {
				if err := MontADX(p, fn, n, sqr, alias); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// gatherCounts are the limb counts the gather proof takes.
var gatherCounts = []int{1, 2, 3, 8, 16}

func gatherProof(fn string) Proof {
	return Proof{
		Module: "rsa", Backend: "adx", File: "rsa/asm_adx_amd64.s", Func: fn,
		Covers: fmt.Sprintf("z[j] = table[32·j + k] for j < n, for every table and each k < 32 (one proof per value of the secret index, which the code reads as masks): n in %s", countList(gatherCounts)),
		Run: func(p *x86sim.Program, fn string) error {
			for _, n := range gatherCounts {
				for k := range 32 {
					if err := Gather5ADX(p, fn, n, k); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}

// ammAndLemma proves amm<n>IFMA or ammDual<n>IFMA and has z3 check the
// lookahead lemma its normalization rests on, for its lanes.
func ammAndLemma(p *x86sim.Program, fn string, n int, dual bool) error {
	if err := AmmIFMA(p, fn, n, dual); err != nil {
		return err
	}
	if err := LookaheadLemma(ifmaLanes(n)); err != nil {
		return fmt.Errorf("%s: %w", fn, err)
	}
	return nil
}

func ifmaProofs(n int) []Proof {
	file := "rsa/asm_ifma_amd64.s"
	return []Proof{
		{
			Module: "rsa", Backend: "ifma", File: file, Func: fmt.Sprintf("amm%dIFMA", n),
			Covers: "z's lanes are below 2^52 and Σ z_j·2^(52j) ≡ A modulo 2^(52N) (N the lanes: n, the kernel's digits, rounded up to 8), A the accumulator the digit loop leaves, with 2^(52n)·A = x·y + Q·m for the code's Q < 2^(52n); so z ≡ x·y·2^(-52n) modulo m whenever A < 2^(52N), as the contract's bounds give (A < R' for x < R', y < 2m), for every x, y and m of n digits below 2^52 and k0 with k0·m[0] ≡ -1 modulo 2^52. Each turn of the digit loop proven for every accumulator in the range the turn before left; the normalization's carry lookahead ((G|P) + G) ^ P by a lemma over the N lanes that z3 checks",
			Run:    func(p *x86sim.Program, fn string) error { return ammAndLemma(p, fn, n, false) },
		},
		{
			Module: "rsa", Backend: "ifma", File: file, Func: fmt.Sprintf("ammDual%dIFMA", n),
			Covers: "both multiplications as amm's: za from xa, ya, ma, k0a and zb from xb, yb, mb, k0b, each with lanes below 2^52 and congruent modulo 2^(52N) to its accumulator A, 2^(52n)·A = x·y + Q·m, for every pair of inputs as amm's; each turn of the digit loop proven for every pair of accumulators in the range the turn before left; the lookahead lemma checked by z3 as for amm",
			Run:    func(p *x86sim.Program, fn string) error { return ammAndLemma(p, fn, n, true) },
		},
		{
			Module: "rsa", Backend: "ifma", File: file, Func: fmt.Sprintf("toDigits%dIFMA", n),
			Covers: "digit i of z is bits [52i, 52i+52) of x for i < n and the padding lanes are zero, for every x (n the kernel's digits)",
			Run:    func(p *x86sim.Program, fn string) error { return ToDigitsIFMA(p, fn, n) },
		},
		{
			Module: "rsa", Backend: "ifma", File: file, Func: fmt.Sprintf("fromDigits%dIFMA", n),
			Covers: "z's limbs are the bits of the n digits of x in order (zero above bit 52n), for every x whose digits are below 2^52 (the padding lanes anything)",
			Run:    func(p *x86sim.Program, fn string) error { return FromDigitsIFMA(p, fn, n) },
		},
		{
			Module: "rsa", Backend: "ifma", File: file, Func: fmt.Sprintf("gatherDual%dIFMA", n),
			Covers: "za = entry ka of ta and zb = entry kb of tb, for every pair of tables and (ka, kb) = (k, 31-k) and (k, k) for each k < 32 (one proof per pair of secret indexes, which the code reads as masks)",
			Run: func(p *x86sim.Program, fn string) error {
				for k := range 32 {
					for _, kb := range []int{31 - k, k} {
						if err := GatherDualIFMA(p, fn, n, k, kb); err != nil {
							return err
						}
					}
				}
				return nil
			},
		},
	}
}

// Proofs lists every proof, in the order the table prints them.
func Proofs() []Proof {
	var ps []Proof
	long := gcmLong{lengths: []int{256, 257, 300, 512, 1000}, rounds: gcmRounds}
	for _, b := range []struct {
		backend, file, suffix string
		l                     gcmLayout
		long                  gcmLong
	}{
		{"aesni", "asm_aesni_amd64.s", "AESNI", gcmLayout{16}, long},
		{"aesni-avx", "asm_aesni_avx_amd64.s", "AESNIAVX", gcmLayout{16}, long},
		{"vaes-avx2", "asm_vaes_avx2_amd64.s", "VAESAVX2", gcmLayout{16}, gcmLong{lengths: []int{256, 300, 512, 1000}, rounds: []int{10, 14}, perLastByte: true, long256: []int{1000}}},
		{"vaes-avx512", "asm_vaes_avx512_amd64.s", "VAESAVX512", gcmLayout{16}, gcmLong{lengths: []int{256, 1000}, rounds: []int{10, 14}, perLastByte: true, long256: []int{1000}}},
	} {
		ps = append(ps, gcmInitProof(b.backend, b.file, "gcmInit"+b.suffix, b.l), gcmProof(b.backend, b.file, "gcmSeal"+b.suffix, b.l, false, b.long), gcmProof(b.backend, b.file, "gcmOpen"+b.suffix, b.l, true, b.long),
			gcmGatherProof(b.backend, b.file, "gcmSealGather"+b.suffix, b.l), gcmStreamStartProof(b.backend, b.file, "gcmStreamStart"+b.suffix, b.l),
			gcmStreamProof(b.backend, b.file, "gcmStreamEncrypt"+b.suffix, b.l), gcmStreamFinishProof(b.backend, b.file, "gcmStreamFinish"+b.suffix, b.l),
			gcmNonceProof(b.backend, b.file, "gcmNonce"+b.suffix, b.l))
	}
	short := []int{0, 1, 15, 16, 17, 63, 64, 65, 100, 127, 128}
	for _, b := range []struct {
		backend, file, suffix string
		short, long           []int
	}{
		{"ssse3", "asm_ssse3_amd64.s", "SSSE3", short, nil},
		{"avx2", "asm_avx2_amd64.s", "AVX2", append(short, 129, 192, 255, 256, 257, 320), []int{321, 384, 500, 1000, 2100}},
		{"avx512", "asm_avx512_amd64.s", "AVX512", append(short, 129, 192, 256, 257, 320, 384, 448, 449, 511, 512), []int{513, 600, 1000, 2100, 4200}},
	} {
		ps = append(ps, xorBlocksProof(b.backend, b.file, "xorBlocks"+b.suffix), polyBlocksProof(b.backend, b.file, "polyBlocks"+b.suffix),
			chachaTextProof(b.backend, b.file, "sealShort"+b.suffix, false, b.short),
			chachaTextProof(b.backend, b.file, "openShort"+b.suffix, true, b.short))
		if b.long != nil {
			ps = append(ps, chachaTextProof(b.backend, b.file, "sealLong"+b.suffix, false, b.long),
				chachaTextProof(b.backend, b.file, "openLong"+b.suffix, true, b.long))
		}
	}
	for _, n := range []int{8, 16, 24, 32, 48, 64, 128} {
		ps = append(ps, montProof(fmt.Sprintf("montMul%dADX", n), n, false))
	}
	for _, n := range []int{8, 16, 24, 32} {
		ps = append(ps, montProof(fmt.Sprintf("montSqr%dADX", n), n, true))
	}
	ps = append(ps, gatherProof("gather5ADX"))
	for _, n := range []int{20, 30, 40} {
		ps = append(ps, ifmaProofs(n)...)
	}
	return ps
}

// sameBytes compares the bytes a function left with the specification's,
// the first len(want), and names the first that differs (as what[i]) with
// where the two part (sym.Diff).
func sameBytes(what string, got, want []*sym.Word) error {
	for i := range want {
		if !sym.Equal(got[i], want[i]) {
			d := sym.Diff(got[i], want[i])
			if len(d) > 1500 {
				d = d[:1500] + " ..."
			}
			return fmt.Errorf("%s[%d] differs from the specification's: %s", what, i, d)
		}
	}
	return nil
}

// arrangement names a run's memory: the output apart from its input, or
// the same memory.
func arrangement(alias bool, out, in string) string {
	if alias {
		return out + " == " + in
	}
	return out + " apart from " + in
}

// A Row is one function of a generated file and what is proven of it.
type Row struct {
	// Module, Backend and File are the generated file's, Func the
	// function's name.
	Module, Backend, File, Func string
	// Proof is nil for a function no proof covers.
	Proof *Proof
}

// Generated lists the generated .s files of the algorithm modules, with the
// backend each is.
var Generated = []struct{ Module, Backend, File string }{
	{"aesgcm", "aesni", "aesgcm/asm_aesni_amd64.s"},
	{"aesgcm", "aesni-avx", "aesgcm/asm_aesni_avx_amd64.s"},
	{"aesgcm", "vaes-avx2", "aesgcm/asm_vaes_avx2_amd64.s"},
	{"aesgcm", "vaes-avx512", "aesgcm/asm_vaes_avx512_amd64.s"},
	{"chacha20poly1305", "ssse3", "chacha20poly1305/asm_ssse3_amd64.s"},
	{"chacha20poly1305", "avx2", "chacha20poly1305/asm_avx2_amd64.s"},
	{"chacha20poly1305", "avx512", "chacha20poly1305/asm_avx512_amd64.s"},
	{"rsa", "adx", "rsa/asm_adx_amd64.s"},
	{"rsa", "ifma", "rsa/asm_ifma_amd64.s"},
}

var textRE = regexp.MustCompile(`(?m)^TEXT ·(\w+)\(SB\)`)

// Rows lists every function of every generated file under root, each with
// its proof if one covers it; a proof of a function no file has is an error.
func Rows(root string) ([]Row, error) {
	proofs := Proofs()
	used := make([]bool, len(proofs))
	var rows []Row
	for _, g := range Generated {
		src, err := os.ReadFile(filepath.Join(root, g.File))
		if err != nil {
			return nil, err
		}
		for _, m := range textRE.FindAllStringSubmatch(string(src), -1) {
			r := Row{Module: g.Module, Backend: g.Backend, File: g.File, Func: m[1]}
			if i := slices.IndexFunc(proofs, func(p Proof) bool { return p.File == g.File && p.Func == m[1] }); i >= 0 {
				r.Proof = &proofs[i]
				used[i] = true
			}
			rows = append(rows, r)
		}
	}
	for i, u := range used {
		if !u {
			return nil, fmt.Errorf("prove: %s has no function %s", proofs[i].File, proofs[i].Func)
		}
	}
	return rows, nil
}

// A Result is one proof's outcome.
type Result struct {
	// Time is how long the proof took.
	Time time.Duration
	// Err is the first failure: a refused run, or a word unlike the
	// specification's.
	Err error
}

// Load reads and parses the generated file (relative to root).
func Load(root, file string) (*x86sim.Program, error) {
	src, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	return x86sim.Load(file, src)
}

// Check checks the symbolic semantics of every distinct instruction of the
// functions of prs, all of the one program p, against the concrete model;
// it returns how many instructions it checked.
func Check(p *x86sim.Program, prs []*Proof) (int, Result) {
	start := time.Now()
	var names []string
	for _, pr := range prs {
		names = append(names, pr.Func)
	}
	n, err := p.CheckSymbolic(12, 1, names...)
	return n, Result{Time: time.Since(start), Err: err}
}

// Run runs one proof on the program of its file.
func Run(p *x86sim.Program, pr *Proof) Result {
	start := time.Now()
	err := pr.Run(p, pr.Func)
	return Result{Time: time.Since(start), Err: err}
}
