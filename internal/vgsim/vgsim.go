// Package vgsim is the seam between the trampolines asmgen generates for the
// build tag vgsim and x86sim, the executable model that runs them.
//
// With the tag vgsim, each generated assembly function of aesgcm,
// chacha20poly1305 and rsa is a Go trampoline that hands its argument frame
// and the memory it may touch to a [Program] of this package. The model
// itself (github.com/vgcrypto/vg/asmgen/x86sim) registers with [SetModel]
// when a binary links it: the modules' vgsim test files import it. So the
// algorithm modules' own packages import only this small package, and a
// module that uses vg never has the model among its requirements.
package vgsim

import (
	"fmt"
	"sync"
	"unsafe"
)

// A Kind says what the memory behind a pointer argument holds.
type Kind uint8

const (
	// Public memory holds public inputs; storing a secret byte into it is an
	// error.
	Public Kind = iota
	// Secret memory holds secrets: every byte starts secret.
	Secret
	// Output memory receives results that the algorithm makes public
	// (ciphertext, tags, tag-check results): it starts public and may be
	// written with bytes computed from secrets.
	Output
)

// String returns the kind's name: public, secret or output.
func (k Kind) String() string {
	switch k {
	case Public:
		return "public"
	case Secret:
		return "secret"
	case Output:
		return "output"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// A Region is memory a call may read and write: [Ptr, Ptr+Len).
type Region struct {
	// Name is the argument's name, in the model's reports.
	Name string
	// Ptr and Len are the memory's address and length in bytes.
	Ptr unsafe.Pointer
	Len uintptr
	// Kind is what the memory holds.
	Kind Kind
	// ReadOnly regions may not be written.
	ReadOnly bool
}

// A Frame is a call's argument frame: Size bytes at Ptr, the arguments then
// the results, laid out as Go's ABI0 lays them out (as a Go struct with the
// same fields, results starting at Results). The argument words whose bit is
// set in SecretWords (bit i: bytes 8i..8i+7) hold secret values; argument
// slots are public input (a secret stored into one is an error), result slots
// are outputs.
type Frame struct {
	// Ptr is the frame's address, Size its length in bytes.
	Ptr  unsafe.Pointer
	Size uintptr
	// Results is the offset of the first result.
	Results uintptr
	// SecretWords has bit i set when argument bytes 8i..8i+7 are secret.
	SecretWords uint64
}

// A Model loads an assembly file: it returns the model's program (for the
// model's own bookkeeping, see [Program.Model]) and the function that runs
// one of its functions, panicking when a check fails.
type Model func(file string, src []byte) (prog any, call func(name string, f Frame, regions ...Region), err error)

var (
	mu       sync.Mutex
	model    Model
	programs []*Program
)

// SetModel registers the model; x86sim calls it from its init.
func SetModel(m Model) {
	mu.Lock()
	model = m
	mu.Unlock()
}

// A Program is one generated assembly file, loaded into the model on first
// use.
type Program struct {
	file string
	src  []byte
	once sync.Once
	prog any
	call func(name string, f Frame, regions ...Region)
	err  error
}

// Load returns the program of an assembly file; the model parses it when a
// function of it first runs (or [Program.Model] is called).
func Load(file string, src []byte) *Program {
	p := &Program{file: file, src: src}
	mu.Lock()
	programs = append(programs, p)
	mu.Unlock()
	return p
}

// Programs returns every program loaded so far, in the order of Load.
func Programs() []*Program {
	mu.Lock()
	defer mu.Unlock()
	return append([]*Program(nil), programs...)
}

// File returns the name the program was loaded under.
func (p *Program) File() string { return p.file }

// Model returns the model's program, loading it on first use. It panics when
// the binary does not link the model or the model rejects the file.
func (p *Program) Model() any {
	p.once.Do(func() {
		mu.Lock()
		m := model
		mu.Unlock()
		if m == nil {
			p.err = fmt.Errorf("vgsim: %s: this binary was built with -tags vgsim but does not link the model; "+
				"import _ %q from one of its files (vg's vgsim test files do)", p.file, "github.com/vgcrypto/vg/asmgen/x86sim")
			return
		}
		p.prog, p.call, p.err = m(p.file, p.src)
	})
	if p.err != nil {
		panic(p.err)
	}
	return p.prog
}

// Call runs the function name on the argument frame f with the given regions
// and copies the results back into the frame. It panics with the model's
// fault when a check fails.
func (p *Program) Call(name string, f Frame, regions ...Region) {
	p.Model()
	p.call(name, f, regions...)
}
