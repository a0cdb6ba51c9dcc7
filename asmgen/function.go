package asmgen

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/gotypes"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
)

// An Option configures a function declared with [Generator.Func].
type Option func(*funcConfig)

type funcConfig struct {
	secret       []string
	secretSlices []string
	public       []string
	scratch      int
	doc          []string
	noSecrets    bool
	attrs        *attr.Attribute
}

// Secret declares arguments as secret. For a pointer, slice, string or
// unsafe.Pointer argument it is the memory the argument points to that is
// secret: every load through it (or through a pointer derived from it by
// arithmetic) yields a secret value; the pointer and the lengths themselves
// stay public. For any other argument (an integer, an array passed by value)
// the value itself is secret.
func Secret(names ...string) Option {
	return func(c *funcConfig) { c.secret = append(c.secret, names...) }
}

// SecretSlices declares arguments that point to public slice headers (a
// [][]byte, or a pointer to an array of slices: the descriptor arrays of the
// gather functions) whose elements point to secret memory. Loads through the
// argument yield pointers to secret memory; loads through those are secret.
func SecretSlices(names ...string) Option {
	return func(c *funcConfig) { c.secretSlices = append(c.secretSlices, names...) }
}

// Public declares arguments as public: descriptors, lengths, counters,
// destinations that are only written, tables of public constants. Loads through
// a public pointer are public.
func Public(names ...string) Option {
	return func(c *funcConfig) { c.public = append(c.public, names...) }
}

// Scratch reserves n bytes of stack scratch for the function, available as
// [Func.Scratch]. It is wiped before every return. n is rounded up to a
// multiple of 16.
func Scratch(n int) Option {
	return func(c *funcConfig) { c.scratch = n }
}

// Doc sets the function's doc comment: one line saying what it computes,
// starting with the function's name. asmgen appends a line listing the secret
// and public arguments and the scratch size.
func Doc(lines ...string) Option {
	return func(c *funcConfig) { c.doc = append(c.doc, lines...) }
}

// NoSecrets declares that the function handles no secret at all. It opts the
// function out of the wipe: [Func.Ret] is a plain RET and the wipe-present
// check skips it. A function with NoSecrets may not declare Secret arguments.
func NoSecrets() Option {
	return func(c *funcConfig) { c.noSecrets = true }
}

// Attributes overrides the TEXT attributes. The default is NOSPLIT when the
// function's frame is at most 512 bytes and no attribute otherwise (so the Go
// assembler adds a stack check for larger frames).
func Attributes(a attr.Attribute) Option {
	return func(c *funcConfig) { c.attrs = &a }
}

// paramClass says what loading an argument's words yields.
type paramClass int

const (
	classPublic paramClass = iota
	classSecret
	classSecretSlices
)

// argSlot is a byte range of the argument frame and what its words are.
type argSlot struct {
	name     string
	off, end int
	taint    taint
	what     string
}

// Func is an assembly function being generated.
type Func struct {
	g         *Generator
	name      string
	cfg       funcConfig
	scratch   operand.Mem
	slots     []argSlot
	ir        *ir.Function
	labels    map[string]int
	secretArg []string
	publicArg []string
}

// wipeMarker is the comment [Func.Ret] places before each RET of a function
// with secrets; the wipe is inserted after it once registers are allocated.
const wipeMarker = "asmgen: wipe stack scratch and vector registers"

// Func starts the assembly function name with the Go signature sig (for
// example "func(dst, src *byte, n int)"). Every pointer-like argument must be
// declared with [Secret], [SecretSlices] or [Public] unless the function has
// [NoSecrets]; [Doc] is required. Errors are reported by [Generator.Build].
func (g *Generator) Func(name, sig string, opts ...Option) *Func {
	fn := &Func{g: g, name: name, labels: map[string]int{}}
	for _, o := range opts {
		o(&fn.cfg)
	}
	g.funcs = append(g.funcs, fn)
	g.cur = fn
	g.Context.Function(name)
	g.Context.SignatureExpr(sig)
	g.Context.Pragma("noescape")
	if err := fn.classify(sig); err != nil {
		g.errorf("%s: %v", name, err)
	}
	if len(fn.cfg.doc) == 0 {
		g.errorf("%s: missing Doc", name)
	}
	if fn.cfg.scratch < 0 {
		g.errorf("%s: negative Scratch", name)
	}
	if fn.cfg.scratch > 0 {
		fn.cfg.scratch = (fn.cfg.scratch + 15) &^ 15
		fn.scratch = g.Context.AllocLocal(fn.cfg.scratch)
	}
	a := attr.NOSPLIT
	if fn.cfg.scratch > 512 {
		a = 0
	}
	if fn.cfg.attrs != nil {
		a = *fn.cfg.attrs
	}
	g.Context.Attributes(a)
	g.Context.Doc(fn.docLines()...)
	return fn
}

func (fn *Func) docLines() []string {
	lines := append([]string(nil), fn.cfg.doc...)
	var b strings.Builder
	if fn.cfg.noSecrets {
		b.WriteString("It handles no secrets (no wipe).")
	} else {
		if len(fn.secretArg) > 0 {
			fmt.Fprintf(&b, "Secret: %s. ", strings.Join(fn.secretArg, ", "))
		}
		if len(fn.publicArg) > 0 {
			fmt.Fprintf(&b, "Public: %s. ", strings.Join(fn.publicArg, ", "))
		}
		if fn.cfg.scratch > 0 {
			fmt.Fprintf(&b, "Wipes its %d bytes of stack scratch and the vector registers it wrote before returning.", fn.cfg.scratch)
		} else {
			b.WriteString("Zeroes the vector registers it wrote before returning.")
		}
	}
	return append(lines, "", strings.TrimSpace(b.String()))
}

// Name returns the function's name.
func (fn *Func) Name() string { return fn.name }

// HasSecrets reports whether the function handles secrets (it was not
// declared with [NoSecrets]).
func (fn *Func) HasSecrets() bool { return !fn.cfg.noSecrets }

// Scratch returns the function's stack scratch (its size is the [Scratch]
// option rounded up to 16 bytes). It panics when the function has none.
func (fn *Func) Scratch() operand.Mem {
	if fn.cfg.scratch == 0 {
		panic("asmgen: " + fn.name + " has no Scratch")
	}
	return fn.scratch
}

// ScratchSize returns the size of the function's stack scratch in bytes.
func (fn *Func) ScratchSize() int { return fn.cfg.scratch }

// Label returns a label name unique within the function, built from prefix.
// The shared building blocks use it; generators may too.
func (fn *Func) Label(prefix string) string {
	fn.labels[prefix]++
	return fmt.Sprintf("%s_%d", prefix, fn.labels[prefix])
}

// Ret ends a path of the function: for a function with secrets it emits the
// wipe (stack scratch and every vector and opmask register the function
// writes, computed after register allocation) and then RET; for a function
// with [NoSecrets] a plain RET.
func (fn *Func) Ret() {
	if fn.g.cur != fn {
		fn.g.errorf("%s: Ret called while another function is being generated", fn.name)
		return
	}
	if !fn.cfg.noSecrets {
		fn.g.Context.Comment(wipeMarker)
	}
	fn.g.Context.RET()
}

// classify parses the signature and records what each argument word is.
func (fn *Func) classify(sig string) error {
	tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, sig)
	if err != nil {
		return fmt.Errorf("signature %q: %v", sig, err)
	}
	s, ok := tv.Type.(*types.Signature)
	if !ok {
		return fmt.Errorf("signature %q is not a function type", sig)
	}
	class := map[string]paramClass{}
	declared := map[string]string{}
	set := func(names []string, c paramClass, opt string) error {
		for _, n := range names {
			if prev, ok := declared[n]; ok {
				return fmt.Errorf("argument %s declared both %s and %s", n, prev, opt)
			}
			declared[n] = opt
			class[n] = c
		}
		return nil
	}
	if err := set(fn.cfg.secret, classSecret, "Secret"); err != nil {
		return err
	}
	if err := set(fn.cfg.secretSlices, classSecretSlices, "SecretSlices"); err != nil {
		return err
	}
	if err := set(fn.cfg.public, classPublic, "Public"); err != nil {
		return err
	}
	if fn.cfg.noSecrets && len(fn.cfg.secret)+len(fn.cfg.secretSlices) > 0 {
		return fmt.Errorf("NoSecrets with Secret arguments")
	}
	if !fn.cfg.noSecrets && len(fn.cfg.secret)+len(fn.cfg.secretSlices) == 0 {
		return fmt.Errorf("no Secret or SecretSlices argument: declare them, or NoSecrets to opt out of the wipe")
	}

	params := s.Params()
	vars := make([]*types.Var, params.Len())
	seen := map[string]bool{}
	for i := range vars {
		vars[i] = params.At(i)
		seen[vars[i].Name()] = true
	}
	for n := range declared {
		if !seen[n] {
			return fmt.Errorf("%s names no argument", n)
		}
	}
	offsets := gotypes.Sizes.Offsetsof(vars)
	for i, v := range vars {
		name := v.Name()
		c, ok := class[name]
		ptrLike := isPointerLike(v.Type())
		if !ok && ptrLike && !fn.cfg.noSecrets {
			return fmt.Errorf("pointer argument %s is neither Secret, SecretSlices nor Public", name)
		}
		off := int(offsets[i])
		size := int(gotypes.Sizes.Sizeof(v.Type()))
		switch c {
		case classSecret:
			fn.secretArg = append(fn.secretArg, name)
			if ptrLike {
				fn.slots = append(fn.slots, argSlot{name, off, off + 8, tSecretPtr, "points to secret memory (declared Secret)"})
				fn.slots = append(fn.slots, argSlot{name, off + 8, off + size, 0, ""})
			} else {
				fn.slots = append(fn.slots, argSlot{name, off, off + size, tSecret, "declared Secret"})
			}
		case classSecretSlices:
			if !ptrLike {
				return fmt.Errorf("SecretSlices argument %s is not a pointer or slice", name)
			}
			fn.secretArg = append(fn.secretArg, name+" (slice headers public, their elements secret)")
			fn.slots = append(fn.slots, argSlot{name, off, off + 8, tDescPtr, "points to slice headers of secret memory (declared SecretSlices)"})
			fn.slots = append(fn.slots, argSlot{name, off + 8, off + size, 0, ""})
		default:
			if ok {
				fn.publicArg = append(fn.publicArg, name)
			}
			fn.slots = append(fn.slots, argSlot{name, off, off + size, 0, ""})
		}
	}
	return nil
}

func isPointerLike(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer || u.Kind() == types.Uintptr || u.Kind() == types.String
	}
	return false
}

// argSlotAt returns the argument slot holding byte off of the argument frame.
func (fn *Func) argSlotAt(off int) (argSlot, bool) {
	for _, s := range fn.slots {
		if off >= s.off && off < s.end {
			return s, true
		}
	}
	return argSlot{}, false
}
