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
//     (XORBlocksWords) is checked against the byte form (Encrypt).
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
)

// A Proof is one generated function proven equal to its specification.
type Proof struct {
	// Module is the algorithm module, Backend the backend the file is, File
	// the .s file relative to the repository root, Func the function.
	Module, Backend, File, Func string
	// Covers says for which public parameters the proof holds.
	Covers string
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
		Covers: fmt.Sprintf("n = 64·k for k in %s; dst apart from src and dst == src", countList(xorBlocksCounts)),
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

// Proofs lists every proof, in the order the table prints them.
func Proofs() []Proof {
	return []Proof{
		xorBlocksProof("ssse3", "asm_ssse3_amd64.s", "xorBlocksSSSE3"),
		xorBlocksProof("avx2", "asm_avx2_amd64.s", "xorBlocksAVX2"),
		xorBlocksProof("avx512", "asm_avx512_amd64.s", "xorBlocksAVX512"),
	}
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
	// Checked is how many distinct instructions CheckSymbolic compared with
	// the concrete model.
	Checked int
	// Time is how long the check and the proof took.
	Time time.Duration
	// Err is the first failure: a disagreement with the model, a refused
	// run, or a word unlike the specification's.
	Err error
}

// Run checks the symbolic semantics of the function's instructions against
// the concrete model, then runs the proof.
func Run(root string, pr *Proof) Result {
	start := time.Now()
	src, err := os.ReadFile(filepath.Join(root, pr.File))
	if err != nil {
		return Result{Err: err}
	}
	p, err := x86sim.Load(pr.File, src)
	if err != nil {
		return Result{Err: err}
	}
	n, err := p.CheckSymbolic(pr.Func, 16, 1)
	if err == nil {
		err = pr.Run(p, pr.Func)
	}
	return Result{Checked: n, Time: time.Since(start), Err: err}
}
