// Command doccheck fails when a package's exported API is not fully
// documented, or, with -examples, when a package has no runnable example:
// what `go doc -all` shows a user must explain every name it lists.
//
//	doccheck [-examples] dir...
//
// A dir ending in /... stands for every package below it. Each package's
// non-test Go files are read under every build tag (a file for another
// architecture or for the model documents its names too); generated files,
// package main, testdata, internal and _asm folders are skipped. Checked:
// the package comment; every exported function, method of an exported
// type, type, constant and variable; every exported field of an exported
// struct type and every method of an exported interface type. A field or
// constant without a comment of its own counts as documented when the
// comment of an earlier one in the same list names it (as in "// Pass,
// Fail and Skip count ..."), as `go doc` shows them together. With
// -examples, each package's test files must define an Example function
// with an output comment, so that the documentation has code that runs.
// The package comment of an algorithm package (aesgcm, chacha20poly1305,
// rsa: the root package of the module of that name) must name, in quotes,
// every backend cpufeat declares for it.
//
// It prints one line per gap, file:line: what, and exits with status 1 when
// there is any.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/vgcrypto/vg/cpufeat"
)

func main() {
	examples := flag.Bool("examples", false, "require a runnable example (an Example function with an output comment) in every package")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: doccheck [-examples] dir...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var gaps []string
	n := 0
	for _, arg := range flag.Args() {
		dirs, err := packageDirs(arg)
		if err != nil {
			fmt.Fprintln(os.Stderr, "doccheck:", err)
			os.Exit(2)
		}
		for _, dir := range dirs {
			g, checked, err := checkDir(dir, *examples)
			if err != nil {
				fmt.Fprintln(os.Stderr, "doccheck:", err)
				os.Exit(2)
			}
			if checked {
				n++
			}
			gaps = append(gaps, g...)
		}
	}
	for _, g := range gaps {
		fmt.Println(g)
	}
	if len(gaps) > 0 {
		fmt.Printf("doccheck: %d gaps in %d packages\n", len(gaps), n)
		os.Exit(1)
	}
	fmt.Printf("doccheck: %d packages documented\n", n)
}

// packageDirs expands arg: a folder, or a folder followed by /... for it
// and every folder below it but testdata, internal, _asm and hidden ones.
func packageDirs(arg string) ([]string, error) {
	root, all := strings.CutSuffix(arg, "/...")
	if !all {
		return []string{root}, nil
	}
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "testdata" || name == "internal" || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		dirs = append(dirs, path)
		return nil
	})
	return dirs, err
}

// checkDir returns the gaps of the package in dir, and whether dir held a
// package that is checked (not main, not only tests).
func checkDir(dir string, examples bool) (gaps []string, checked bool, err error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, false, err
	}
	sort.Strings(names)
	fset := token.NewFileSet()
	var lib, tests []*ast.File
	pkgName := ""
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, false, err
		}
		switch {
		case strings.HasSuffix(name, "_test.go"):
			tests = append(tests, f)
		case f.Name.Name != "main":
			lib = append(lib, f)
			pkgName = f.Name.Name
		}
	}
	if len(lib) == 0 {
		return nil, false, nil
	}
	c := checker{fset: fset}
	pkgDoc := ""
	for _, f := range lib {
		if ast.IsGenerated(f) {
			continue
		}
		if f.Doc != nil {
			pkgDoc += f.Doc.Text()
		}
		c.file(f)
	}
	if pkgDoc == "" {
		c.gaps = append(c.gaps, fmt.Sprintf("%s: package %s has no package comment", dir, pkgName))
	}
	// The algorithm packages are the roots of their modules; a package of the
	// same name elsewhere (conformance/spec/aesgcm, a reference
	// implementation) has no backends.
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		for _, name := range unnamedBackends(pkgName, pkgDoc) {
			c.gaps = append(c.gaps, fmt.Sprintf("%s: the package comment of %s does not name its backend %q", dir, pkgName, name))
		}
	}
	if examples && !hasRunnableExample(tests) {
		c.gaps = append(c.gaps, fmt.Sprintf("%s: package %s has no runnable example (func Example... with an // Output: comment)", dir, pkgName))
	}
	return c.gaps, true, nil
}

// unnamedBackends returns the backends cpufeat declares for the algorithm
// package pkg (none for another package) that its package comment doc does
// not name, in quotes as users pass them to WithBackend: a package comment
// that lists the backends must list them all.
func unnamedBackends(pkg, doc string) []string {
	var missing []string
	for _, alg := range cpufeat.Algorithms() {
		if string(alg) != pkg {
			continue
		}
		for _, b := range cpufeat.Backends(alg) {
			if !strings.Contains(doc, `"`+b.Name+`"`) {
				missing = append(missing, b.Name)
			}
		}
	}
	return missing
}

// hasRunnableExample reports whether files define an Example function
// with an output comment (go test runs those and compares their output).
func hasRunnableExample(files []*ast.File) bool {
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Example") || fn.Body == nil {
				continue
			}
			for _, cg := range f.Comments {
				if cg.Pos() < fn.Body.Lbrace || cg.End() > fn.Body.Rbrace {
					continue
				}
				if t := strings.TrimSpace(cg.Text()); strings.HasPrefix(t, "Output:") || strings.HasPrefix(t, "Unordered output:") {
					return true
				}
			}
		}
	}
	return false
}

type checker struct {
	fset *token.FileSet
	gaps []string
}

func (c *checker) gap(pos token.Pos, format string, args ...any) {
	p := c.fset.Position(pos)
	c.gaps = append(c.gaps, fmt.Sprintf("%s:%d: %s", p.Filename, p.Line, fmt.Sprintf(format, args...)))
}

func (c *checker) file(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			c.funcDecl(d)
		case *ast.GenDecl:
			c.genDecl(d)
		}
	}
}

func (c *checker) funcDecl(d *ast.FuncDecl) {
	if !d.Name.IsExported() || d.Doc != nil {
		return
	}
	if d.Recv == nil {
		c.gap(d.Pos(), "func %s has no doc comment", d.Name.Name)
		return
	}
	if recv := receiverType(d.Recv.List[0].Type); recv != "" && ast.IsExported(recv) {
		c.gap(d.Pos(), "method %s.%s has no doc comment", recv, d.Name.Name)
	}
}

// receiverType returns the name of a method's receiver type: T from T, *T,
// T[P] or *T[P, Q].
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

func (c *checker) genDecl(d *ast.GenDecl) {
	var prior []string // docs of the earlier specs of a const or var list
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			if !s.Name.IsExported() {
				continue
			}
			if s.Doc == nil && d.Doc == nil {
				c.gap(s.Pos(), "type %s has no doc comment", s.Name.Name)
			}
			switch t := s.Type.(type) {
			case *ast.StructType:
				c.fields(s.Name.Name, "field", t.Fields)
			case *ast.InterfaceType:
				c.fields(s.Name.Name, "method", t.Methods)
			}
		case *ast.ValueSpec:
			own := docText(s.Doc, s.Comment)
			for _, n := range s.Names {
				if n.IsExported() && own == "" && d.Doc == nil && !named(prior, n.Name) {
					c.gap(n.Pos(), "%s %s has no doc comment", d.Tok, n.Name)
				}
			}
			if own != "" {
				prior = append(prior, own)
			}
		}
	}
}

// fields checks the exported fields (or interface methods) of type typ;
// embedded ones are documented with their own type.
func (c *checker) fields(typ, what string, list *ast.FieldList) {
	var prior []string
	for _, f := range list.List {
		own := docText(f.Doc, f.Comment)
		for _, n := range f.Names {
			if n.IsExported() && own == "" && !named(prior, n.Name) {
				c.gap(n.Pos(), "%s %s.%s has no doc comment", what, typ, n.Name)
			}
		}
		if own != "" {
			prior = append(prior, own)
		}
	}
}

func docText(groups ...*ast.CommentGroup) string {
	var b strings.Builder
	for _, g := range groups {
		if g != nil {
			b.WriteString(g.Text())
		}
	}
	return strings.TrimSpace(b.String())
}

// named reports whether one of the comments mentions name as a word.
func named(comments []string, name string) bool {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	for _, c := range comments {
		if re.MatchString(c) {
			return true
		}
	}
	return false
}
