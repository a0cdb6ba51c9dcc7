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
	output       []string
	lens         []lenDecl
	scratch      int
	spills       []string
	doc          []string
	noSecrets    bool
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
// destinations that are only written with public data, tables of public
// constants. Loads through a public pointer are public. The memory behind a
// public pointer is public input: storing a value derived from a secret
// through the pointer (or one computed from it) fails generation, and on
// the model (build tag vgsim) storing such a byte into it is an error;
// memory that receives results is [Output].
func Public(names ...string) Option {
	return func(c *funcConfig) { c.public = append(c.public, names...) }
}

// Output declares pointer arguments to memory that receives results the
// algorithm makes public although they are computed from secrets:
// ciphertext, tags, a J0 computed with the hash key, the result of a tag
// check. On the model (build tag vgsim) the memory starts public and may be
// written with secret-derived bytes. For the generation-time taint check an
// Output pointer is a Secret one: what the function stored there and loads
// back is secret, since stores to memory other than the stack are not
// tracked.
func Output(names ...string) Option {
	return func(c *funcConfig) { c.output = append(c.output, names...) }
}

// lenDecl is one [Len] option.
type lenDecl struct{ name, expr string }

// Len declares the extent of the pointer argument name for the model's
// bounds check (build tag vgsim): expr is a Go expression over the
// function's other arguments, or a constant ("textLen", "32*n", "8"), giving
// the number of elements of the pointed-to type the function may access
// from the pointer on, as unsafe.Slice takes it (bytes for a *byte or an
// unsafe.Pointer, limbs for a *uint64, slice headers for the *[]byte of a
// [SecretSlices] descriptor array). The generated trampoline evaluates it on
// every call. Every pointer argument needs one except pointers to arrays,
// slices and strings, which carry their extent.
func Len(name, expr string) Option {
	return func(c *funcConfig) { c.lens = append(c.lens, lenDecl{name, expr}) }
}

// Scratch reserves n bytes of stack scratch for the function, available as
// [Func.Scratch]. It is wiped before every return. n is rounded up to a
// multiple of 16.
func Scratch(n int) Option {
	return func(c *funcConfig) { c.scratch = n }
}

// Spills declares stack slots of 8 bytes, one per name, where the
// function parks public values to free a register: running pointers
// (which may point to secret memory), counts, lengths. [Func.Spill]
// returns a slot. They lie outside the [Scratch] area and the taint check
// tracks each of them exactly: what is loaded from a slot is what was last
// stored there, so a public count stays public. Storing a secret value
// into one is an error, since the slots are not wiped. Pointers computed
// from the Scratch area (such as the scratch aligned through a register)
// are taken to stay within it, so stores through them leave the slots
// alone; the model (build tag vgsim) checks every byte at run time.
func Spills(names ...string) Option {
	return func(c *funcConfig) { c.spills = append(c.spills, names...) }
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

// Options combines options into one, for generators that build a
// function's options in a helper.
func Options(opts ...Option) Option {
	return func(c *funcConfig) {
		for _, o := range opts {
			o(c)
		}
	}
}

// paramClass says what loading an argument's words yields.
type paramClass int

const (
	classPublic paramClass = iota
	classSecret
	classSecretSlices
	classOutput
)

// param is one argument of a function, as the vgsim trampoline needs it.
type param struct {
	name      string
	typ       types.Type
	off, size int
	class     paramClass
	// declared is false for an argument no option names (a scalar, or any
	// argument of a NoSecrets function): public.
	declared bool
	// extent is the Len expression, "" for arrays pointers, slices,
	// strings and scalars.
	extent string
}

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
	spills    []spillSlot
	slots     []argSlot
	ir        *ir.Function
	labels    map[string]int
	secretArg []string
	publicArg []string
	outputArg []string
	params    []param
	results   []*types.Var
}

// spillSlot is one of the function's [Spills].
type spillSlot struct {
	name string
	mem  operand.Mem
}

// wipeMarker is the comment [Func.Ret] places before each RET of a function
// with secrets, the function's last phase ([Func.Phase]); the wipe is
// inserted after it once registers are allocated.
const wipeMarker = phasePrefix + "wipe (stack scratch and vector registers)"

// phasePrefix starts the comment of every [Func.Phase] landmark.
const phasePrefix = "phase: "

// Func starts the assembly function name with the Go signature sig (for
// example "func(dst, src *byte, n int)"). Every pointer-like argument must be
// declared with [Secret], [SecretSlices], [Output] or [Public] unless the
// function has [NoSecrets], and every pointer to anything but an array needs
// its extent, [Len]; [Doc] is required. Errors are reported by
// [Generator.Build].
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
	if !strings.HasSuffix(name, g.Suffix()) {
		g.errorf("%s: the name does not end with the backend's suffix %s", name, g.Suffix())
	}
	if fn.cfg.scratch < 0 {
		g.errorf("%s: negative Scratch", name)
	}
	if fn.cfg.scratch > 0 {
		fn.cfg.scratch = (fn.cfg.scratch + 15) &^ 15
		fn.scratch = g.Context.AllocLocal(fn.cfg.scratch)
	}
	for _, name := range fn.cfg.spills {
		if _, dup := fn.spill(name); dup {
			g.errorf("%s: Spills %s declared twice", fn.name, name)
			continue
		}
		fn.spills = append(fn.spills, spillSlot{name, g.Context.AllocLocal(8)})
	}
	a := attr.NOSPLIT
	if fn.cfg.scratch+8*len(fn.spills) > 512 {
		a = 0
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
		if len(fn.outputArg) > 0 {
			fmt.Fprintf(&b, "Output: %s. ", strings.Join(fn.outputArg, ", "))
		}
		if fn.cfg.scratch > 0 {
			fmt.Fprintf(&b, "Wipes its %d bytes of stack scratch and the vector registers it wrote before returning.", fn.cfg.scratch)
		} else {
			b.WriteString("Zeroes the vector registers it wrote before returning.")
		}
		if len(fn.spills) > 0 {
			fmt.Fprintf(&b, " Parks public values in %d stack slots, which hold no secret and are not wiped.", len(fn.spills))
		}
	}
	return append(lines, "", strings.TrimSpace(b.String()))
}

// Scratch returns the function's stack scratch (its size is the [Scratch]
// option rounded up to 16 bytes). It panics when the function has none.
func (fn *Func) Scratch() operand.Mem {
	if fn.cfg.scratch == 0 {
		panic("asmgen: " + fn.name + " has no Scratch")
	}
	return fn.scratch
}

// Spill returns the stack slot declared with [Spills] as name. It panics
// when the function declared none of that name.
func (fn *Func) Spill(name string) operand.Mem {
	m, ok := fn.spill(name)
	if !ok {
		panic("asmgen: " + fn.name + " has no spill slot " + name + " (declare it with Spills)")
	}
	return m
}

func (fn *Func) spill(name string) (operand.Mem, bool) {
	for _, s := range fn.spills {
		if s.name == name {
			return s.mem, true
		}
	}
	return operand.Mem{}, false
}

// Label returns a label name unique within the function, built from prefix.
// The shared building blocks use it; generators may too.
func (fn *Func) Label(prefix string) string {
	fn.labels[prefix]++
	return fmt.Sprintf("%s_%d", prefix, fn.labels[prefix])
}

// Phase marks the start of a phase of the function (key setup, additional
// data, main loop, remainder, partial block, tag, ...) with a comment line
// in the generated assembly,
//
//	// phase: main loop (8 blocks a pass)
//
// so that a reader of a long .s file finds its landmarks by searching for
// "phase:". The text, formatted by fmt.Sprintf, names the phase first and
// may say what it computes after it. [Func.Ret] marks the wipe before each
// RET the same way.
func (fn *Func) Phase(format string, args ...any) {
	if fn.g.cur != fn {
		fn.g.errorf("%s: Phase called while another function is being generated", fn.name)
		return
	}
	text := fmt.Sprintf(format, args...)
	if text == "" || strings.ContainsAny(text, "\n") {
		fn.g.errorf("%s: Phase %q: the text must be one non-empty line", fn.name, text)
		return
	}
	fn.g.Context.Comment(phasePrefix + text)
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
	class, declared, err := fn.declaredClasses()
	if err != nil {
		return err
	}
	params := s.Params()
	vars := make([]*types.Var, params.Len())
	seen := map[string]bool{}
	for i := range vars {
		vars[i] = params.At(i)
		seen[vars[i].Name()] = true
	}
	for _, n := range sortedKeys(declared) {
		if !seen[n] {
			return fmt.Errorf("%s names no argument", n)
		}
	}
	extents, err := fn.extents(vars, class)
	if err != nil {
		return err
	}
	offsets := gotypes.Sizes.Offsetsof(vars)
	for i, v := range vars {
		c, ok := class[v.Name()]
		p := param{name: v.Name(), typ: v.Type(), off: int(offsets[i]), size: int(gotypes.Sizes.Sizeof(v.Type())), class: c, declared: ok, extent: extents[v.Name()]}
		if err := fn.addParam(p); err != nil {
			return err
		}
	}
	for i := 0; i < s.Results().Len(); i++ {
		fn.results = append(fn.results, s.Results().At(i))
	}
	return nil
}

// declaredClasses returns the class of each argument the options name, and
// the option that named it, checking that none is named twice and that
// Secret, Output and NoSecrets agree.
func (fn *Func) declaredClasses() (class map[string]paramClass, declared map[string]string, err error) {
	class, declared = map[string]paramClass{}, map[string]string{}
	for _, d := range []struct {
		names []string
		c     paramClass
		opt   string
	}{
		{fn.cfg.secret, classSecret, "Secret"},
		{fn.cfg.secretSlices, classSecretSlices, "SecretSlices"},
		{fn.cfg.public, classPublic, "Public"},
		{fn.cfg.output, classOutput, "Output"},
	} {
		for _, n := range d.names {
			if prev, ok := declared[n]; ok {
				return nil, nil, fmt.Errorf("argument %s declared both %s and %s", n, prev, d.opt)
			}
			declared[n] = d.opt
			class[n] = d.c
		}
	}
	if fn.cfg.noSecrets && len(fn.cfg.secret)+len(fn.cfg.secretSlices)+len(fn.cfg.output) > 0 {
		return nil, nil, fmt.Errorf("NoSecrets with Secret or Output arguments")
	}
	if !fn.cfg.noSecrets && len(fn.cfg.secret)+len(fn.cfg.secretSlices) == 0 {
		return nil, nil, fmt.Errorf("no Secret or SecretSlices argument: declare them, or NoSecrets to opt out of the wipe")
	}
	return class, declared, nil
}

// addParam records argument p and the taint of its frame words: a pointer
// word of a Secret, Output, SecretSlices or Public pointer points to
// memory of that kind, a Secret scalar's words are secret, every other
// word is public.
func (fn *Func) addParam(p param) error {
	name, off, size := p.name, p.off, p.size
	ptrLike := isPointerLike(p.typ)
	if !p.declared && ptrLike && !fn.cfg.noSecrets {
		return fmt.Errorf("pointer argument %s is neither Secret, SecretSlices, Output nor Public", name)
	}
	if p.class == classOutput && !ptrLike {
		return fmt.Errorf("Output argument %s is not a pointer, slice or string", name)
	}
	fn.params = append(fn.params, p)
	pointer := func(t taint, why string) {
		fn.slots = append(fn.slots, argSlot{name, off, off + 8, t, why})
		fn.slots = append(fn.slots, argSlot{name, off + 8, off + size, 0, ""})
	}
	switch p.class {
	case classOutput:
		fn.outputArg = append(fn.outputArg, name)
		pointer(tSecretPtr, "points to output memory (declared Output), which may hold results computed from secrets")
	case classSecret:
		fn.secretArg = append(fn.secretArg, name)
		if ptrLike {
			pointer(tSecretPtr, "points to secret memory (declared Secret)")
		} else {
			fn.slots = append(fn.slots, argSlot{name, off, off + size, tSecret, "declared Secret"})
		}
	case classSecretSlices:
		if !ptrLike {
			return fmt.Errorf("SecretSlices argument %s is not a pointer or slice", name)
		}
		fn.secretArg = append(fn.secretArg, name+" (slice headers public, their elements secret)")
		pointer(tDescPtr, "points to slice headers of secret memory (declared SecretSlices)")
	default:
		if p.declared {
			fn.publicArg = append(fn.publicArg, name)
		}
		if p.declared && ptrLike {
			pointer(tPublicPtr, "points to public input memory (declared Public)")
		} else {
			fn.slots = append(fn.slots, argSlot{name, off, off + size, 0, ""})
		}
	}
	return nil
}

// extents checks the Len options against the arguments and returns them by
// name: every pointer argument needs one unless it points to an array; an
// argument that carries its own extent (array pointer, slice, string) or is
// no pointer may not have one; each expression must be an integer expression
// over the other arguments.
func (fn *Func) extents(vars []*types.Var, class map[string]paramClass) (map[string]string, error) {
	byName := map[string]*types.Var{}
	pkg := types.NewPackage("args", "args")
	for _, v := range vars {
		if v.Name() == "" || v.Name() == "_" {
			return nil, fmt.Errorf("unnamed argument: every argument needs a name")
		}
		byName[v.Name()] = v
		pkg.Scope().Insert(types.NewVar(token.NoPos, pkg, v.Name(), v.Type()))
	}
	out := map[string]string{}
	for _, l := range fn.cfg.lens {
		v, ok := byName[l.name]
		if !ok {
			return nil, fmt.Errorf("Len %s names no argument", l.name)
		}
		if _, dup := out[l.name]; dup {
			return nil, fmt.Errorf("Len %s given twice", l.name)
		}
		if !needsLen(v.Type()) {
			return nil, fmt.Errorf("Len %s: argument of type %s has its own extent or is no pointer", l.name, v.Type())
		}
		tv, err := types.Eval(token.NewFileSet(), pkg, token.NoPos, l.expr)
		if err != nil {
			return nil, fmt.Errorf("Len %s: %q: %v", l.name, l.expr, err)
		}
		if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			return nil, fmt.Errorf("Len %s: %q is not an integer expression", l.name, l.expr)
		}
		out[l.name] = l.expr
	}
	for _, v := range vars {
		if !isPointerLike(v.Type()) {
			continue
		}
		if err := modelable(v.Type(), class[v.Name()] == classSecretSlices); err != nil {
			return nil, fmt.Errorf("argument %s: %v", v.Name(), err)
		}
		if _, ok := out[v.Name()]; needsLen(v.Type()) && !ok {
			return nil, fmt.Errorf("pointer argument %s needs Len: the extent of the memory it points to, for the model's bounds check", v.Name())
		}
	}
	return out, nil
}

// needsLen reports whether an argument of type t is a pointer whose extent
// the type does not give: a pointer to a non-array, or an unsafe.Pointer.
func needsLen(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		_, isArray := u.Elem().Underlying().(*types.Array)
		return !isArray
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	}
	return false
}

// modelable reports why the model cannot bound a pointer-like argument of
// type t: only pointers, unsafe.Pointer, slices and strings point to memory it
// knows the extent of, and a SecretSlices argument must point to slice
// headers.
func modelable(t types.Type, slices bool) error {
	var elem types.Type
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		elem = u.Elem()
		if a, ok := elem.Underlying().(*types.Array); ok && slices {
			elem = a.Elem()
		}
	case *types.Slice:
		elem = u.Elem()
	case *types.Basic:
		if u.Kind() == types.UnsafePointer || u.Kind() == types.String {
			if slices {
				return fmt.Errorf("SecretSlices argument of type %s does not point to slice headers", t)
			}
			return nil
		}
		return fmt.Errorf("type %s: the model cannot bound the memory it points to (use a pointer, unsafe.Pointer, slice or string)", t)
	default:
		return fmt.Errorf("type %s: the model cannot bound the memory it points to (use a pointer, unsafe.Pointer, slice or string)", t)
	}
	if slices {
		if _, ok := elem.Underlying().(*types.Slice); !ok {
			return fmt.Errorf("SecretSlices argument of type %s does not point to slice headers", t)
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
