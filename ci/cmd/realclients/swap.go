package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// swap applies cfg to the packages pkgdirs of the module copy at moddir; see
// the package comment. It reports whether every check passed.
func swap(moddir string, pkgdirs []string, cfg swapConfig, out io.Writer) (bool, error) {
	type result struct {
		path string
		src  []byte
	}
	var results []result
	var problems, edits []string
	importHits := map[string]int{}
	gcmHits := map[string]int{}
	for _, pd := range pkgdirs {
		dir := filepath.Join(moddir, pd)
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return false, err
		}
		if len(names) == 0 {
			return false, fmt.Errorf("swap: no Go files in %s", dir)
		}
		sort.Strings(names)
		for _, name := range names {
			rel, err := filepath.Rel(moddir, name)
			if err != nil {
				return false, err
			}
			rel = filepath.ToSlash(rel)
			src, err := os.ReadFile(name)
			if err != nil {
				return false, err
			}
			r, err := swapFile(rel, src, cfg, strings.HasSuffix(name, "_test.go"))
			if err != nil {
				return false, fmt.Errorf("%s: %v", rel, err)
			}
			edits = append(edits, r.edits...)
			problems = append(problems, r.problems...)
			for p, n := range r.importHits {
				importHits[p] += n
			}
			if r.gcmSites > 0 {
				gcmHits[rel] += r.gcmSites
			}
			if r.src != nil {
				results = append(results, result{name, r.src})
			}
		}
	}
	for old := range cfg.imports {
		if importHits[old] == 0 {
			problems = append(problems, fmt.Sprintf("no file of %s imports %s", strings.Join(pkgdirs, " "), old))
		}
	}
	for file, n := range cfg.gcm {
		if gcmHits[file] != n {
			problems = append(problems, fmt.Sprintf("%s: %d AES-GCM construction sites, expected %d", file, gcmHits[file], n))
		}
	}
	for file, n := range gcmHits {
		if _, ok := cfg.gcm[file]; !ok {
			problems = append(problems, fmt.Sprintf("%s: %d AES-GCM construction sites not in the -gcm list (review them, then list the file)", file, n))
		}
	}
	for _, e := range edits {
		fmt.Fprintln(out, e)
	}
	if len(edits) == 0 {
		problems = append(problems, "nothing to swap")
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		for _, p := range problems {
			fmt.Fprintln(out, "problem:", p)
		}
		fmt.Fprintln(out, "nothing written")
		return false, nil
	}
	for _, r := range results {
		if err := os.WriteFile(r.path, r.src, 0o644); err != nil {
			return false, err
		}
	}
	// Check what was written: no old import, no standard-library GCM left.
	ok := true
	for _, pd := range pkgdirs {
		names, _ := filepath.Glob(filepath.Join(moddir, pd, "*.go"))
		for _, name := range names {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				return false, fmt.Errorf("after the swap: %v", err)
			}
			for _, is := range f.Imports {
				p, _ := strconv.Unquote(is.Path.Value)
				if _, bad := cfg.imports[p]; bad {
					fmt.Fprintf(out, "problem: %s still imports %s\n", name, p)
					ok = false
				}
			}
			if len(cfg.gcm) > 0 && !strings.HasSuffix(name, "_test.go") {
				cipherName := importName(f, "crypto/cipher")
				ast.Inspect(f, func(n ast.Node) bool {
					if c, isCall := n.(*ast.CallExpr); isCall && cipherName != "" &&
						(isSel(c.Fun, cipherName, "NewGCM") || isSel(c.Fun, cipherName, "NewGCMWithRandomNonce")) {
						fmt.Fprintf(out, "problem: %s still calls cipher.%s\n", fset.Position(c.Pos()), c.Fun.(*ast.SelectorExpr).Sel.Name)
						ok = false
					}
					return true
				})
			}
		}
	}
	return ok, nil
}

// fileSwap is what swapFile did to one file.
type fileSwap struct {
	src        []byte // the new source, nil when unchanged
	edits      []string
	problems   []string
	importHits map[string]int
	gcmSites   int
}

// textEdit replaces src[start:end] with text.
type textEdit struct {
	start, end int
	text       string
}

// applyEdits applies non-overlapping edits to src.
func applyEdits(src []byte, edits []textEdit) ([]byte, error) {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b bytes.Buffer
	at := 0
	for _, e := range edits {
		if e.start < at || e.end < e.start || e.end > len(src) {
			return nil, fmt.Errorf("overlapping edits at offset %d", e.start)
		}
		b.Write(src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(src[at:])
	return b.Bytes(), nil
}

// swapFile computes the swap of one file (rel, relative to the module root):
// the import rewrites, then in a non-test file the AES-GCM sites, then the
// imports those leave unused or need, then gofmt. Edits are made on the text,
// so that everything else in the file stays byte for byte.
func swapFile(rel string, src []byte, cfg swapConfig, isTest bool) (*fileSwap, error) {
	r := &fileSwap{importHits: map[string]int{}}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var edits []textEdit
	for _, is := range f.Imports {
		p, _ := strconv.Unquote(is.Path.Value)
		new, ok := cfg.imports[p]
		if !ok {
			continue
		}
		text := strconv.Quote(new)
		if oldName, newName := lastElem(p), lastElem(new); is.Name == nil && oldName != newName {
			text = oldName + " " + text // keep the name the code uses
		}
		edits = append(edits, textEdit{off(is.Path.Pos()), off(is.Path.End()), text})
		r.importHits[p]++
		r.edits = append(r.edits, fmt.Sprintf("%s:%d: import %q -> %q", rel, fset.Position(is.Pos()).Line, p, new))
	}
	gcmEdits, sites, problems := gcmSites(fset, f, src)
	if !isTest {
		edits = append(edits, gcmEdits...)
		r.gcmSites = len(sites)
		for _, s := range sites {
			r.edits = append(r.edits, rel+":"+s)
		}
		for _, p := range problems {
			r.problems = append(r.problems, rel+":"+p)
		}
	}
	if len(edits) == 0 {
		return r, nil
	}
	out, err := applyEdits(src, edits)
	if err != nil {
		return nil, err
	}
	if r.gcmSites > 0 {
		if out, err = fixImports(rel, out); err != nil {
			return nil, err
		}
	}
	if r.src, err = format.Source(out); err != nil {
		return nil, fmt.Errorf("the edited file does not format: %v", err)
	}
	return r, nil
}

func lastElem(path string) string { return path[strings.LastIndex(path, "/")+1:] }

// importName returns the name by which f refers to the package at path, or ""
// when f does not import it.
func importName(f *ast.File, path string) string {
	for _, is := range f.Imports {
		if p, _ := strconv.Unquote(is.Path.Value); p == path {
			if is.Name != nil {
				return is.Name.Name
			}
			return lastElem(path)
		}
	}
	return ""
}

// isSel reports whether e is the selector pkg.name.
func isSel(e ast.Expr, pkg, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == pkg && s.Sel.Name == name
}

// gcmSites finds f's AES-GCM construction sites (see the package comment) and
// returns the text edits that rewrite them, one "line: description" per site,
// and "line: problem" for each aes.NewCipher whose block cipher goes to
// cipher.NewGCM* but not in the expected shape.
func gcmSites(fset *token.FileSet, f *ast.File, src []byte) (edits []textEdit, sites, problems []string) {
	aesName := importName(f, "crypto/aes")
	cipherName := importName(f, "crypto/cipher")
	if aesName == "" || cipherName == "" {
		return nil, nil, nil
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		// Every block of the function, closures included.
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			blk, ok := n.(*ast.BlockStmt)
			if !ok {
				return true
			}
			for i, st := range blk.List {
				as, ok := st.(*ast.AssignStmt)
				if !ok || len(as.Rhs) != 1 {
					continue
				}
				call, ok := as.Rhs[0].(*ast.CallExpr)
				if !ok || !isSel(call.Fun, aesName, "NewCipher") {
					continue
				}
				line := fset.Position(as.Pos()).Line
				e, site, problem := gcmSite(fset, src, fn, blk.List[i:], cipherName)
				switch {
				case problem != "":
					problems = append(problems, fmt.Sprintf("%d: %s", line, problem))
				case site != "":
					edits = append(edits, e...)
					sites = append(sites, fmt.Sprintf("%d: %s", line, site))
				}
			}
			return true
		})
	}
	return edits, sites, problems
}

// gcmSite examines the construction that starts at list[0], an assignment
// from aes.NewCipher. It returns the edits and a description, or nothing when
// the block cipher does not go to cipher.NewGCM* (quic-go's header
// protection), or a problem when the site is not of the expected shape.
func gcmSite(fset *token.FileSet, src []byte, fn *ast.FuncDecl, list []ast.Stmt, cipherName string) ([]textEdit, string, string) {
	const shape = "not of the form X, err := aes.NewCipher(K); if err != nil {...}"
	as := list[0].(*ast.AssignStmt)
	call := as.Rhs[0].(*ast.CallExpr)
	if as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(call.Args) != 1 {
		return nil, "", shape
	}
	x, ok1 := as.Lhs[0].(*ast.Ident)
	errID, ok2 := as.Lhs[1].(*ast.Ident)
	if !ok1 || !ok2 {
		return nil, "", shape
	}
	// Every use of X after the assignment must be the single argument of
	// one cipher.NewGCM* call.
	var gcmCall *ast.CallExpr
	uses := 0
	for _, st := range list[1:] {
		ast.Inspect(st, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && len(c.Args) == 1 {
				if a, ok := c.Args[0].(*ast.Ident); ok && a.Name == x.Name &&
					(isSel(c.Fun, cipherName, "NewGCM") || isSel(c.Fun, cipherName, "NewGCMWithRandomNonce")) {
					gcmCall = c
				}
			}
			if id, ok := n.(*ast.Ident); ok && id.Name == x.Name {
				uses++
			}
			return true
		})
	}
	if gcmCall == nil {
		return nil, "", ""
	}
	if uses != 1 {
		return nil, "", fmt.Sprintf("%s is used %d times after aes.NewCipher, expected once, in cipher.NewGCM*", x.Name, uses)
	}
	// The error check that must follow.
	if len(list) < 2 {
		return nil, "", shape
	}
	ifs, ok := list[1].(*ast.IfStmt)
	if !ok || ifs.Init != nil || ifs.Else != nil {
		return nil, "", shape
	}
	cond, ok := ifs.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ {
		return nil, "", shape
	}
	if l, ok := cond.X.(*ast.Ident); !ok || l.Name != errID.Name {
		return nil, "", shape
	}
	if r, ok := cond.Y.(*ast.Ident); !ok || r.Name != "nil" {
		return nil, "", shape
	}
	// The key: an identifier, or ident[:], not assigned (nor an element of
	// it) after aes.NewCipher, so that evaluating it at the cipher.NewGCM*
	// call gives the same bytes.
	key := call.Args[0]
	var keyID *ast.Ident
	switch k := key.(type) {
	case *ast.Ident:
		keyID = k
	case *ast.SliceExpr:
		if id, ok := k.X.(*ast.Ident); ok && k.Low == nil && k.High == nil && k.Max == nil {
			keyID = id
		}
	}
	if keyID == nil {
		return nil, "", "aes.NewCipher's key is not an identifier or ident[:]"
	}
	assigned := false
	for _, st := range list[1:] {
		ast.Inspect(st, func(n ast.Node) bool {
			if a, ok := n.(*ast.AssignStmt); ok {
				for _, l := range a.Lhs {
					if ix, ok := l.(*ast.IndexExpr); ok {
						l = ix.X
					}
					if id, ok := l.(*ast.Ident); ok && id.Name == keyID.Name {
						assigned = true
					}
				}
			}
			return true
		})
	}
	if assigned {
		return nil, "", fmt.Sprintf("the key %s is assigned after aes.NewCipher", keyID.Name)
	}
	// Delete the two statements' lines, which must hold nothing else.
	start := fset.Position(as.Pos()).Offset
	end := fset.Position(ifs.End()).Offset
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start > 0 && src[start-1] != '\n' {
		return nil, "", "code before aes.NewCipher on its line"
	}
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	if end < len(src) && src[end] != '\n' {
		return nil, "", "code or a comment after the error check on its line"
	}
	if end < len(src) {
		end++ // the newline
	}
	keyText := string(src[fset.Position(key.Pos()).Offset:fset.Position(key.End()).Offset])
	oldFun := gcmCall.Fun.(*ast.SelectorExpr).Sel.Name
	newFun := map[string]string{"NewGCM": "New", "NewGCMWithRandomNonce": "NewWithRandomNonce"}[oldFun]
	edits := []textEdit{
		{start, end, ""},
		{fset.Position(gcmCall.Pos()).Offset, fset.Position(gcmCall.End()).Offset, "aesgcm." + newFun + "(" + keyText + ")"},
	}
	return edits, fmt.Sprintf("%s, %s := aes.NewCipher(%s) + cipher.%s(%s) -> aesgcm.%s(%s) in %s",
		x.Name, errID.Name, keyText, oldFun, x.Name, newFun, keyText, fn.Name.Name), ""
}

const aesgcmPath = "github.com/vgcrypto/vg/aesgcm"

// fixImports edits the imports of src, a file whose AES-GCM sites were
// rewritten: crypto/aes and crypto/cipher go when nothing refers to them any
// more, and aesgcm comes in, in a group of its own after the standard
// library's when the last group is the standard library's.
func fixImports(rel string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("after the AES-GCM edits: %v", err)
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	var edits []textEdit
	var decl *ast.GenDecl
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT && g.Lparen.IsValid() {
			decl = g
		}
	}
	if decl == nil || len(decl.Specs) == 0 {
		return nil, fmt.Errorf("no parenthesized import declaration")
	}
	for _, s := range decl.Specs {
		is := s.(*ast.ImportSpec)
		p, _ := strconv.Unquote(is.Path.Value)
		if (p == "crypto/aes" || p == "crypto/cipher") && is.Name == nil && !used[lastElem(p)] {
			start := fset.Position(is.Pos()).Offset
			for start > 0 && src[start-1] != '\n' {
				start--
			}
			end := fset.Position(is.End()).Offset
			if end < len(src) && src[end] == '\n' {
				end++
			}
			edits = append(edits, textEdit{start, end, ""})
		}
	}
	if importName(f, aesgcmPath) == "" {
		last := decl.Specs[len(decl.Specs)-1].(*ast.ImportSpec)
		p, _ := strconv.Unquote(last.Path.Value)
		sep := "\n\t"
		if !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
			sep = "\n\n\t" // after the standard library's group
		}
		at := fset.Position(last.End()).Offset
		for at < len(src) && src[at] != '\n' {
			at++ // past a comment on the line
		}
		edits = append(edits, textEdit{at, at, sep + strconv.Quote(aesgcmPath)})
	}
	return applyEdits(src, edits)
}
