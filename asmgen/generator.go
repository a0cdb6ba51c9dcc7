package asmgen

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
	"github.com/vgcrypto/vg/cpufeat"
)

// DefaultConstraint is the build constraint of generated files unless
// [Generator.Constraint] sets another: the assembly is for amd64 and the
// purego tag removes it.
const DefaultConstraint = "amd64 && !purego"

// Generator builds one assembly file (and its Go declarations) for one
// backend. It embeds avo's *build.Context, so every avo instruction is a method
// of the Generator (g.MOVOU(...), g.VPXOR(...)) and virtual registers come from
// g.GP64(), g.XMM(), g.YMM(), ...; functions are started with [Generator.Func],
// never with the Context's Function or TEXT.
//
// A Generator is used once: declare functions, then call [Generator.Generate],
// [Generator.Main] or [Generator.Build].
type Generator struct {
	*build.Context

	backend    cpufeat.Backend
	isas       map[string]bool
	pkg        string
	constraint string
	funcs      []*Func
	cur        *Func
	errs       []error
	// built are the functions of the last successful Build, in file order.
	built  []*Func
	vec    *Vec
	consts []constDecl
}

// New returns a Generator for the backend b. The backend's Requires set (the
// same declaration the Go dispatch code selects with) is the whole list of
// CPU features the generated instructions may use.
func New(b cpufeat.Backend) *Generator {
	return &Generator{
		Context:    build.NewContext(),
		backend:    b,
		isas:       AllowedISAs(b.Requires),
		constraint: DefaultConstraint,
	}
}

// Has reports whether the backend may use feature f. Generators use it to pick
// instruction widths (for example 64-byte stores where AVX-512 is allowed).
func (g *Generator) Has(f cpufeat.Feature) bool {
	return g.backend.Requires.Has(f) || f == cpufeat.SSE2
}

// Package sets the Go package name written in the declarations file. By
// default it is the name of the directory the declarations file is written
// to.
func (g *Generator) Package(name string) { g.pkg = name }

// Constraint sets the //go:build expression of the generated files, in the
// && syntax ("amd64 && !purego") or the "+build" comma syntax avo accepts
// ("amd64,!purego"): a conjunction of terms. asmgen adds "!vgsim" to it for
// the assembly and the declarations and "vgsim" for the trampolines that run
// the assembly on the model instead (see [Generator.Trampolines]).
func (g *Generator) Constraint(expr string) { g.constraint = expr }

// constraintTerms returns the terms of the constraint conjunction.
func (g *Generator) constraintTerms() ([]string, error) {
	expr := strings.ReplaceAll(g.constraint, "&&", ",")
	var terms []string
	for _, t := range strings.Split(expr, ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if strings.ContainsAny(t, " |()") || strings.Contains(t[1:], "!") {
			return nil, fmt.Errorf("asmgen: Constraint %q is not a conjunction of build tags", g.constraint)
		}
		if strings.TrimPrefix(t, "!") == SimTag {
			return nil, fmt.Errorf("asmgen: Constraint %q names %s, which asmgen adds itself", g.constraint, SimTag)
		}
		terms = append(terms, t)
	}
	return terms, nil
}

func (g *Generator) errorf(format string, args ...any) {
	g.errs = append(g.errs, fmt.Errorf("asmgen: "+format, args...))
}

// Build runs avo's compilation (register allocation), expands the wipes, runs
// the three checks (arch gates, constant-time taint, wipe present) and returns
// the assembly and the Go declarations. Any failed check is an error naming
// the function and the instruction; nothing is returned then.
func (g *Generator) Build() (asm, stubs []byte, err error) {
	if len(g.errs) > 0 {
		return nil, nil, errors.Join(g.errs...)
	}
	terms, err := g.constraintTerms()
	if err != nil {
		return nil, nil, err
	}
	g.Context.ConstraintExpr(strings.Join(append(terms, "!"+SimTag), ","))
	f, err := g.Context.Result()
	if err != nil {
		return nil, nil, fmt.Errorf("asmgen: %w", err)
	}
	if err := compile.Execute(f); err != nil {
		return nil, nil, fmt.Errorf("asmgen: avo compile: %w", err)
	}
	byName := map[string]*Func{}
	for _, fn := range g.funcs {
		byName[fn.name] = fn
	}
	var fns []*Func
	for _, irf := range f.Functions() {
		fn := byName[irf.Name]
		if fn == nil {
			return nil, nil, fmt.Errorf("asmgen: function %s was not declared with Generator.Func", irf.Name)
		}
		fn.ir = irf
		fns = append(fns, fn)
	}
	for _, fn := range fns {
		if err := g.expandWipe(fn); err != nil {
			return nil, nil, err
		}
		if err := recomputeCFG(fn.ir); err != nil {
			return nil, nil, fmt.Errorf("asmgen: %s: %w", fn.name, err)
		}
	}
	var errs []error
	for _, fn := range fns {
		errs = append(errs, g.checkISA(fn)...)
		errs = append(errs, g.checkTaint(fn)...)
		errs = append(errs, g.checkWipe(fn)...)
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	pkg := g.pkg
	if pkg == "" {
		pkg = "main"
	}
	cfg := printer.Config{Name: "asmgen for backend " + string(g.backend.Algorithm) + "/" + g.backend.Name, Pkg: pkg}
	asm, err = printer.NewGoAsm(cfg).Print(f)
	if err != nil {
		return nil, nil, fmt.Errorf("asmgen: printing assembly: %w", err)
	}
	stubs, err = printer.NewStubs(cfg).Print(f)
	if err != nil {
		return nil, nil, fmt.Errorf("asmgen: printing declarations: %w", err)
	}
	if stubs, err = format.Source(append(stubs, g.constSource()...)); err != nil {
		return nil, nil, fmt.Errorf("asmgen: formatting declarations: %w", err)
	}
	g.built = fns
	return asm, stubs, nil
}

// Generate builds the file (see [Generator.Build]) and writes the assembly to
// asmPath, the Go declarations to stubsPath and the trampolines that run the
// assembly on the model under the build tag vgsim (see
// [Generator.Trampolines]) beside them, to [SimPath](stubsPath). The assembly
// and the declarations must be in the same directory (the trampolines embed
// the assembly). Unless [Generator.Package] was called, the package name is
// the base name of stubsPath's directory. Nothing is written when a check
// fails.
func (g *Generator) Generate(asmPath, stubsPath string) error {
	if filepath.Dir(filepath.Clean(asmPath)) != filepath.Dir(filepath.Clean(stubsPath)) {
		return fmt.Errorf("asmgen: %s and %s are in different directories: the vgsim trampolines embed the assembly", asmPath, stubsPath)
	}
	if g.pkg == "" {
		abs, err := filepath.Abs(stubsPath)
		if err != nil {
			return err
		}
		g.pkg = filepath.Base(filepath.Dir(abs))
	}
	asm, stubs, err := g.Build()
	if err != nil {
		return err
	}
	sim, err := g.Trampolines(filepath.Base(asmPath))
	if err != nil {
		return err
	}
	if err := WriteIfChanged(asmPath, asm); err != nil {
		return err
	}
	if err := WriteIfChanged(stubsPath, stubs); err != nil {
		return err
	}
	return WriteIfChanged(SimPath(stubsPath), sim)
}

// Target is one backend's output in a generator program: the backend, the
// functions it declares, and the directory its files go to.
type Target struct {
	// Backend is the backend's name, as declared in cpufeat.
	Backend string
	// Dir is the package directory the files are written to, relative to
	// the directory the generator runs in; empty means "..", the package
	// of a generator in <alg>/_asm. The file names are [FileBase]'s.
	Dir string
	// Declare declares the backend's functions on g.
	Declare func(g *Generator)
}

// FileBase returns the base name of the generated files of the backend
// name, the one naming scheme of every module: asm_<name>_amd64.s (the
// assembly), asm_<name>_amd64.go (its Go declarations) and
// asm_<name>_vgsim_amd64.go (the trampolines), with the name's hyphens as
// underscores: "aesni-avx" -> "asm_aesni_avx".
func FileBase(backend string) string {
	return "asm_" + strings.ReplaceAll(backend, "-", "_")
}

// Suffix returns the suffix every generated function of the backend name
// ends with: the name in upper case without hyphens ("aesni-avx" ->
// "AESNIAVX", "vaes-avx2" -> "VAESAVX2"). [Generator.Func] rejects a
// function whose name does not end with it, so that a call site names the
// backend it runs.
func Suffix(backend string) string {
	return strings.ToUpper(strings.ReplaceAll(backend, "-", ""))
}

// Suffix returns [Suffix] of the Generator's backend.
func (g *Generator) Suffix() string { return Suffix(g.backend.Name) }

// Main is the main function of an algorithm's generator program (a nested
// module in <alg>/_asm, one file per backend). Run with no flags, as CI's
// regeneration step does (cd <alg>/_asm && GOWORK=off go run .), it
// generates every target; with -backend name only that one, optionally to
// -out and -stubs instead of the target's paths. Backends are looked up with
// cpufeat.Lookup(alg, name). It prints the error and exits with status 1 when
// a check fails (nothing is written for that backend), 2 on bad flags.
//
//	func main() {
//		asmgen.Main(cpufeat.AESGCM,
//			asmgen.Target{Backend: "aesni", Declare: aesni},
//			asmgen.Target{Backend: "vaes-avx2", Declare: vaesAVX2},
//		)
//	}
//
// The algorithm package runs it with
//
//	//go:generate env GOWORK=off go -C _asm run .
//
// (GOWORK=off because the repository's go.work does not list _asm modules, so
// inside one the go command would otherwise refuse to run it). Main parses its
// own flag set: avo's build package claims -out and -stubs on
// flag.CommandLine, so generators must not define those there.
func Main(alg cpufeat.Algorithm, targets ...Target) {
	MainBackends(cpufeat.Backends(alg), targets...)
}

// MainBackends is [Main] for backends declared outside cpufeat, such as
// asmgen's own example.
func MainBackends(backends []cpufeat.Backend, targets ...Target) {
	fs := flag.NewFlagSet(os.Args[0], flag.ExitOnError)
	only := fs.String("backend", "", "generate only the backend `name`")
	out := fs.String("out", "", "assembly output `path` (with -backend)")
	stubs := fs.String("stubs", "", "Go declarations output `path` (with -backend)")
	pkg := fs.String("pkg", "", "Go package `name` (default: the directory of the declarations)")
	_ = fs.Parse(os.Args[1:])
	if err := runTargets(backends, targets, *only, *out, *stubs, *pkg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		var usage usageError
		if errors.As(err, &usage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func runTargets(backends []cpufeat.Backend, targets []Target, only, out, stubs, pkg string) error {
	var names []string
	for _, t := range targets {
		names = append(names, t.Backend)
	}
	if (out != "" || stubs != "") && only == "" {
		return usageError{"asmgen: -out and -stubs need -backend"}
	}
	var errs []error
	ran := false
	for _, t := range targets {
		if only != "" && t.Backend != only {
			continue
		}
		ran = true
		var b cpufeat.Backend
		found := false
		for _, c := range backends {
			if c.Name == t.Backend {
				b, found = c, true
			}
		}
		if !found {
			return usageError{fmt.Sprintf("asmgen: backend %q is not declared", t.Backend)}
		}
		dir := t.Dir
		if dir == "" {
			dir = ".."
		}
		base := filepath.Join(dir, FileBase(t.Backend))
		asmPath, stubsPath := base+"_amd64.s", base+"_amd64.go"
		if out != "" {
			asmPath = out
		}
		if stubs != "" {
			stubsPath = stubs
		}
		g := New(b)
		if pkg != "" {
			g.Package(pkg)
		}
		t.Declare(g)
		if err := g.Generate(asmPath, stubsPath); err != nil {
			errs = append(errs, err)
		}
	}
	if !ran {
		return usageError{fmt.Sprintf("asmgen: no target %q (targets: %s)", only, strings.Join(names, ", "))}
	}
	return errors.Join(errs...)
}

// WriteIfChanged writes b to path unless the file already holds exactly b,
// so that regenerating leaves unchanged files untouched. Generators use it
// for files of their own beside asmgen's.
func WriteIfChanged(path string, b []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
		return nil
	}
	return os.WriteFile(path, b, 0o644)
}

// recomputeCFG clears and rebuilds the label targets and control-flow graph
// after instructions were inserted, and the function's ISA list.
func recomputeCFG(fn *ir.Function) error {
	for _, i := range fn.Instructions() {
		i.Pred, i.Succ = nil, nil
	}
	if err := pass.LabelTarget(fn); err != nil {
		return err
	}
	if err := pass.CFG(fn); err != nil {
		return err
	}
	fn.ISA = nil
	return pass.RequiredISAExtensions(fn)
}

func sortedKeys[M ~map[K]V, K ~string, V any](m M) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return ks
}

// constDecl is one [Generator.Const].
type constDecl struct {
	name, doc string
	value     int
}

// Const declares a constant the Go code and the assembly share, such as the
// longest input a function is generated for, on which the Go side
// dispatches: asmgen writes
//
//	// doc
//	const name = value
//
// into the Go declarations and into the vgsim trampolines, which replace
// them under the build tag vgsim, so that the package has the constant
// exactly once in every build and the Go side never copies the generator's
// value by hand. The generator itself uses value in the instructions it
// emits. name must be a Go identifier declared once in the Generator
// (constants of different backends in one package need different names,
// such as the backend's [Generator.Suffix]), and doc a sentence starting
// with it.
func (g *Generator) Const(name string, value int, doc string) {
	switch {
	case !token.IsIdentifier(name):
		g.errorf("Const %q: not a Go identifier", name)
		return
	case !strings.HasPrefix(doc, name+" "):
		g.errorf("Const %s: the doc %q does not start with the name", name, doc)
		return
	}
	for _, c := range g.consts {
		if c.name == name {
			g.errorf("Const %s declared twice", name)
			return
		}
	}
	g.consts = append(g.consts, constDecl{name: name, doc: doc, value: value})
}

// constSource returns the Go source of the Generator's constants, for the
// end of the declarations and of the trampolines.
func (g *Generator) constSource() []byte {
	var b bytes.Buffer
	for _, c := range g.consts {
		b.WriteString("\n")
		for _, l := range wrap(c.doc, 76) {
			fmt.Fprintf(&b, "// %s\n", l)
		}
		fmt.Fprintf(&b, "const %s = %d\n", c.name, c.value)
	}
	return b.Bytes()
}

// wrap splits text into lines of at most width bytes at spaces (a longer
// word stays whole).
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// Table declares a read-only, pointer-free static table holding data (for
// example byte-shuffle masks or round constants) and returns its address. Its
// contents are public: loads from it are public, and indexing it with a
// secret is an error like any secret address.
func (g *Generator) Table(name string, data []byte) operand.Mem {
	m := g.Context.StaticGlobal(name)
	g.Context.DataAttributes(attr.RODATA | attr.NOPTR)
	for off := 0; off < len(data); {
		switch {
		case len(data)-off >= 8:
			g.Context.AppendDatum(operand.U64(binary.LittleEndian.Uint64(data[off:])))
			off += 8
		default:
			g.Context.AppendDatum(operand.U8(data[off]))
			off++
		}
	}
	return m
}
