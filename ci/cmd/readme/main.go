// Command readme regenerates the parts of vg's README.md that come from the
// code and from committed benchmark results, or checks that they are
// current (ci/test runs the check):
//
//	go run ./ci/cmd/readme        # check: exit status 1 naming each stale part
//	go run ./ci/cmd/readme -w     # rewrite them
//
// It handles README.md and every module's README.md (one folder down) that
// has generated parts (-readme FILE: that one only). Each generated part
// sits between two marker lines that say what produces it:
//
//	<!-- BEGIN GENERATED: backends -->
//	...
//	<!-- END GENERATED -->
//
// "backends" is the table of every backend cpufeat declares (algorithm,
// name, required features, whether this version builds it, and the module's
// one-line Doc of it, from each module's Backends()); the table is of the
// amd64 build without the purego tag, so it is the same on every machine,
// and this command refuses to run in another build. What runs on a given
// CPU is printed at run time by go run ./cmd/cpufeat instead.
//
// "prove ARGS" is the standard output of go run ./conformance/cmd/prove
// -list ARGS: the table of the generated functions the proofs cover (-md
// MODULE for one module's, -md all for a summary per backend).
//
// "benchcmp ARGS" is the standard output of go run ./ci/cmd/benchcmp ARGS,
// for example the markdown speed tables of a committed results file
// (benchcmp -load ci/results/....txt -pair '*=stdlib' -md -). When ARGS has
// -svg FILE, FILE is generated too (and checked byte for byte), and the part
// is the markdown image of it, its alt text the chart's title. ARGS are split
// on spaces; single quotes group words as in the shell; file names in them
// are relative to the repository root, whichever README they are in (the
// image link is made relative to the README's folder).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/rsa"
)

func main() {
	write := flag.Bool("w", false, "rewrite the generated parts (default: check them)")
	dir := flag.String("C", ".", "the repository `root`")
	file := flag.String("readme", "", "one README, relative to the root (default: README.md and every module's README.md with generated parts)")
	flag.Parse()
	files := []string{*file}
	if *file == "" {
		var err error
		if files, err = readmes(*dir); err != nil {
			fmt.Fprintf(os.Stderr, "readme: %v\n", err)
			os.Exit(1)
		}
	}
	if err := run(*dir, files, *write, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "readme: %v\n", err)
		os.Exit(1)
	}
}

// errStale reports that the check found stale parts.
var errStale = errors.New("generated parts are stale: run go run ./ci/cmd/readme -w")

// readmes returns the root's README.md and each README.md one folder down
// (the modules') that has a generated part.
func readmes(root string) ([]string, error) {
	files := []string{"README.md"}
	more, err := filepath.Glob(filepath.Join(root, "*", "README.md"))
	if err != nil {
		return nil, err
	}
	for _, m := range more {
		data, err := os.ReadFile(m)
		if err != nil {
			return nil, err
		}
		if strings.Contains(string(data), beginPrefix) {
			rel, err := filepath.Rel(root, m)
			if err != nil {
				return nil, err
			}
			files = append(files, filepath.ToSlash(rel))
		}
	}
	return files, nil
}

func run(root string, files []string, write bool, out io.Writer) error {
	g := &generator{root: root, write: write}
	defer g.cleanup()
	var stale []string
	for _, file := range files {
		path := filepath.Join(root, file)
		old, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		g.dir = filepath.Dir(filepath.FromSlash(file))
		updated, parts, err := regenerate(string(old), g.generate)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		for _, p := range parts {
			stale = append(stale, file+" part "+p)
		}
		if write && updated != string(old) {
			if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
				return err
			}
		}
	}
	stale = append(stale, g.staleFiles...)
	if write {
		for _, s := range stale {
			fmt.Fprintf(out, "readme: rewrote %s\n", s)
		}
		return nil
	}
	if len(stale) > 0 {
		for _, s := range stale {
			fmt.Fprintf(out, "readme: stale: %s\n", s)
		}
		return errStale
	}
	fmt.Fprintf(out, "readme: %s: every generated part is current\n", strings.Join(files, ", "))
	return nil
}

const (
	beginPrefix = "<!-- BEGIN GENERATED: "
	markerEnd   = " -->"
	endMarker   = "<!-- END GENERATED -->"
)

// regenerate replaces the body of every generated part of text with what gen
// returns for its spec, and returns the new text and the specs of the parts
// that changed.
func regenerate(text string, gen func(spec string) (string, error)) (string, []string, error) {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	var stale []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		b.WriteString(line)
		trimmed := strings.TrimRight(line, "\n")
		if !strings.HasPrefix(trimmed, beginPrefix) {
			if strings.HasPrefix(trimmed, endMarker) {
				return "", nil, fmt.Errorf("line %d: %s without a BEGIN line", i+1, endMarker)
			}
			continue
		}
		if !strings.HasSuffix(trimmed, markerEnd) {
			return "", nil, fmt.Errorf("line %d: a BEGIN GENERATED marker must end with %q", i+1, markerEnd)
		}
		spec := strings.TrimSuffix(strings.TrimPrefix(trimmed, beginPrefix), markerEnd)
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], endMarker) {
			if strings.HasPrefix(lines[j], beginPrefix) {
				return "", nil, fmt.Errorf("line %d: BEGIN GENERATED inside the part that line %d begins", j+1, i+1)
			}
			j++
		}
		if j == len(lines) {
			return "", nil, fmt.Errorf("line %d: %q has no %s line", i+1, spec, endMarker)
		}
		body, err := gen(spec)
		if err != nil {
			return "", nil, fmt.Errorf("line %d: %s: %w", i+1, spec, err)
		}
		if body != "" && !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		if body != strings.Join(lines[i+1:j], "") {
			stale = append(stale, spec)
		}
		b.WriteString(body)
		b.WriteString(lines[j])
		i = j
	}
	return b.String(), stale, nil
}

// generator makes the body of each part.
type generator struct {
	root       string
	dir        string // the folder of the README being generated, relative to root
	write      bool
	tmp        string   // temporary folder: the benchcmp binary, checked charts
	benchcmp   string   // the built benchcmp, once built
	staleFiles []string // generated files (charts) that differ
	charts     int      // charts made so far, to name their temporary files
}

func (g *generator) cleanup() {
	if g.tmp != "" {
		os.RemoveAll(g.tmp)
	}
}

func (g *generator) generate(spec string) (string, error) {
	words, err := splitArgs(spec)
	if err != nil {
		return "", err
	}
	switch {
	case len(words) == 1 && words[0] == "backends":
		return backendsTable(declaredBackends())
	case len(words) > 1 && words[0] == "benchcmp":
		return g.runBenchcmp(words[1:])
	case len(words) >= 1 && words[0] == "prove":
		return g.runProve(words[1:])
	}
	return "", fmt.Errorf("unknown generated part %q (want backends, benchcmp ARGS or prove ARGS)", spec)
}

// runProve returns the output of go run ./conformance/cmd/prove -list ARGS
// in the root: the table of what the proofs cover, without running them.
func (g *generator) runProve(args []string) (string, error) {
	cmd := exec.Command("go", append([]string{"run", "./conformance/cmd/prove", "-list"}, args...)...)
	cmd.Dir = g.root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("prove -list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

// splitArgs splits s on spaces, keeping single-quoted text together.
func splitArgs(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
			inWord = true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// runBenchcmp runs benchcmp with args in the root and returns its output;
// an -svg FILE argument is redirected to a temporary file in check mode, and
// the part becomes the image of FILE.
func (g *generator) runBenchcmp(args []string) (string, error) {
	if g.tmp == "" {
		tmp, err := os.MkdirTemp("", "vg-readme-")
		if err != nil {
			return "", err
		}
		g.tmp = tmp
	}
	if g.benchcmp == "" {
		bin := filepath.Join(g.tmp, "benchcmp")
		cmd := exec.Command("go", "build", "-o", bin, "./ci/cmd/benchcmp")
		cmd.Dir = g.root
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("building benchcmp: %v\n%s", err, out)
		}
		g.benchcmp = bin
	}
	args = append([]string(nil), args...)
	svg, svgTarget := "", ""
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "-svg" || args[i] == "--svg" {
			svg = args[i+1]
			g.charts++
			svgTarget = filepath.Join(g.tmp, fmt.Sprintf("chart-%d.svg", g.charts))
			args[i+1] = svgTarget
		}
	}
	cmd := exec.Command(g.benchcmp, args...)
	cmd.Dir = g.root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("benchcmp %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	if svg == "" {
		return stdout.String(), nil
	}
	chart, err := os.ReadFile(svgTarget)
	if err != nil {
		return "", err
	}
	committed := filepath.Join(g.root, svg)
	if old, err := os.ReadFile(committed); err != nil || !bytes.Equal(old, chart) {
		g.staleFiles = append(g.staleFiles, svg)
		if g.write {
			if err := os.WriteFile(committed, chart, 0o644); err != nil {
				return "", err
			}
		}
	}
	title := "benchmark chart"
	if m := regexp.MustCompile(`<title>([^<]*)</title>`).FindSubmatch(chart); m != nil {
		title = string(m[1])
	}
	link, err := imageLink(g.dir, svg)
	if err != nil {
		return "", err
	}
	return stdout.String() + "![" + unescapeXML(title) + "](" + link + ")\n", nil
}

// imageLink returns the link to svg (relative to the root, as every
// benchcmp argument is) from a README in dir (relative to the root too).
func imageLink(dir, svg string) (string, error) {
	link, err := filepath.Rel(filepath.FromSlash(dir), filepath.FromSlash(svg))
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(link), nil
}

// unescapeXML undoes the escapes of a chart's title text.
func unescapeXML(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&#xA;", " ", "&#x9;", " ", "&amp;", "&").Replace(s)
}

// declared is one declared backend with what this build has of it.
type declared struct {
	decl  cpufeat.Backend
	built bool
	doc   string
}

// declaredBackends returns every declared backend, by algorithm and best
// first, with the modules' Backends() of this build.
func declaredBackends() []declared {
	built := map[cpufeat.Algorithm][]cpufeat.BackendInfo{
		cpufeat.AESGCM:           aesgcm.Backends(),
		cpufeat.ChaCha20Poly1305: chacha20poly1305.Backends(),
		cpufeat.RSA:              rsa.Backends(),
	}
	var out []declared
	for _, alg := range cpufeat.Algorithms() {
		for _, d := range cpufeat.Backends(alg) {
			row := declared{decl: d}
			for _, b := range built[alg] {
				if b.Name == d.Name {
					row.built, row.doc = true, b.Doc
				}
			}
			out = append(out, row)
		}
	}
	return out
}

// backendsTable renders the backends as a markdown table, with the GOARCHes
// each is built for. It fails when this is not the amd64 assembly build
// (the table would list less), or when a built backend has no Doc; a
// backend the amd64 build lacks is described by its declaration's Doc.
func backendsTable(rows []declared) (string, error) {
	if !asmBuild {
		return "", errors.New("the backends table is that of the amd64 build without -tags purego: run this command there")
	}
	var b strings.Builder
	b.WriteString("| algorithm | backend | requires | built for | how it works |\n| --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		req := strings.ReplaceAll(r.decl.Requires.String(), ",", ", ")
		if r.decl.Requires == 0 {
			req = "nothing"
		}
		built, doc := strings.Join(r.decl.GOARCHes, ", "), r.doc
		if r.decl.GOARCHes == nil {
			built = "every GOARCH"
		}
		switch {
		case !r.built && r.decl.Doc != "":
			// Built for other GOARCHes: its declaration describes it.
			doc = r.decl.Doc
		case !r.built:
			built, doc = "not yet", "declared in cpufeat; not implemented in this version"
		case doc == "":
			return "", fmt.Errorf("%s backend %q has no Doc: give its cpufeat.Registration in the module's registrations list a one-line Doc", r.decl.Algorithm, r.decl.Name)
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", r.decl.Algorithm, r.decl.Name, req, built, strings.ReplaceAll(doc, "|", `\|`))
	}
	return b.String(), nil
}
