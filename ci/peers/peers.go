// Package peers builds and runs vg's peer benchmark harness: one C program
// (c/peerbench.c, embedded here) built against each peer library present,
// which times the workloads of vg's Go benchmarks the way those time vg and
// prints the results under vg's own benchmark names with the peer as the
// last element, so that benchcmp treats each peer as a sibling of vg's
// backends:
//
//	BenchmarkSeal/AES-128/1350/vaes-avx512   (vg, go test)
//	BenchmarkSeal/AES-128/1350/stdlib        (crypto/cipher, go test)
//	BenchmarkSeal/AES-128/1350/boringssl     (this harness)
//
// The peers:
//
//   - boringssl and awslc: BoringSSL and AWS-LC, static libraries and headers
//     built from pinned commits in ../shared/peers/{boringssl,aws-lc} next to
//     the repository (see its README; $VG_PEERS_DIR overrides the folder). A
//     checkout without that folder skips both with a one-line note.
//   - openssl: the system's OpenSSL 3 (Debian: apt-get install -y libssl-dev),
//     skipped with a note when its headers are missing.
//
// No Go module a user imports uses cgo or this package: the harness is a
// separate program built with gcc (g++ links BoringSSL, which needs the C++
// runtime). benchcmp -peers runs it interleaved with vg's benchmarks; the
// smoke test of this package (ci/test's "peers" step) builds it against
// every peer present and checks each peer's output against vg's.
package peers

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

//go:embed c/peerbench.c
var harnessSource []byte

// The peers' names: the last element of their benchmark names.
const (
	BoringSSL = "boringssl"
	AWSLC     = "awslc"
	OpenSSL   = "openssl"
	// BestPeer is the name benchcmp gives the synthetic sibling whose value
	// in each round is the best of the peers measured in that round.
	BestPeer = "best-peer"
)

// Names lists the peers in the order they are built and run.
var Names = []string{BoringSSL, AWSLC, OpenSSL}

// IsPeer reports whether elem, the last element of a benchmark name, is a
// peer's or BestPeer.
func IsPeer(elem string) bool {
	switch elem {
	case BoringSSL, AWSLC, OpenSSL, BestPeer:
		return true
	}
	return false
}

// DirEnv names the environment variable that overrides the folder of the
// prebuilt peers (default: ../shared/peers from the repository root).
const DirEnv = "VG_PEERS_DIR"

// DefaultDir returns the folder of the prebuilt peers for the repository at
// root: $VG_PEERS_DIR when set, else root/../shared/peers.
func DefaultDir(root string) string {
	if d := os.Getenv(DirEnv); d != "" {
		return d
	}
	return filepath.Join(filepath.Dir(filepath.Clean(root)), "shared", "peers")
}

// KeysDir returns the folder of vg's RSA test keys, which the harness signs
// and decrypts with as vg's benchmarks do.
func KeysDir(root string) string { return filepath.Join(root, "rsa", "testdata") }

// Options says where to find the peers and where to build.
type Options struct {
	Root string // the repository root
	Dir  string // the prebuilt peers; "" for DefaultDir(Root)
	Out  string // folder for the sources and binaries (created if needed)
	// Env is the environment the harness runs in for its provenance line
	// (nil: this process's). The code path a peer reports follows
	// OPENSSL_ia32cap, so it is the environment of the timed runs.
	Env []string
}

// Binary is the harness built against one peer.
type Binary struct {
	// Name is the peer: BoringSSL, AWSLC or OpenSSL.
	Name string
	// Path is the harness binary built against it.
	Path string
	// Provenance is the peer's version or commit and the code path it
	// dispatches to on this CPU, as the binary prints it (without the
	// leading "# peer NAME: ").
	Provenance string
	keys       string
	env        []string // the environment of Build's runs (nil: this process's)
}

// Build builds the harness against every peer present. A peer that is
// absent (no ../shared/peers folder, no OpenSSL headers, no C compiler) is
// skipped with a one-line note; a peer that is present but does not build
// is an error.
func Build(ctx context.Context, o Options) (bins []*Binary, notes []string, err error) {
	dir := o.Dir
	if dir == "" {
		dir = DefaultDir(o.Root)
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, nil, err
	}
	cc, cxx := compiler("CC", "gcc", "cc"), compiler("CXX", "g++", "c++")
	if cc == "" {
		return nil, []string{"peers: every peer skipped: no C compiler (gcc) on PATH"}, nil
	}
	src := filepath.Join(o.Out, "peerbench.c")
	if err := os.WriteFile(src, harnessSource, 0o644); err != nil {
		return nil, nil, err
	}
	keys := KeysDir(o.Root)

	if fi, statErr := os.Stat(dir); statErr != nil || !fi.IsDir() {
		notes = append(notes, fmt.Sprintf("peers: boringssl and awslc skipped: %s does not exist (they are prebuilt there; see its README)", dir))
	} else {
		for _, p := range []struct{ name, folder, define, linker string }{
			{BoringSSL, "boringssl", "PEER_BORINGSSL", cxx},
			{AWSLC, "aws-lc", "PEER_AWSLC", cc},
		} {
			pd := filepath.Join(dir, p.folder)
			lib := filepath.Join(pd, "lib", "libcrypto.a")
			if _, err := os.Stat(filepath.Join(pd, "include", "openssl", "aead.h")); err != nil {
				notes = append(notes, fmt.Sprintf("peers: %s skipped: %s has no include/openssl/aead.h", p.name, pd))
				continue
			}
			if _, err := os.Stat(lib); err != nil {
				notes = append(notes, fmt.Sprintf("peers: %s skipped: %s has no lib/libcrypto.a", p.name, pd))
				continue
			}
			if p.linker == "" {
				return nil, notes, fmt.Errorf("peers: %s: no C++ compiler (g++) on PATH to link it", p.name)
			}
			source := pinnedSource(dir, p.folder)
			obj := filepath.Join(o.Out, p.name+".o")
			bin := filepath.Join(o.Out, "peerbench-"+p.name)
			if out, err := runTool(ctx, cc, "-O2", "-Wall", "-D"+p.define, "-DPEER_SOURCE="+cString(source),
				"-I", filepath.Join(pd, "include"), "-c", src, "-o", obj); err != nil {
				return nil, notes, fmt.Errorf("peers: building the harness against %s (%s): %v\n%s", p.name, pd, err, out)
			}
			if out, err := runTool(ctx, p.linker, "-o", bin, obj, lib, "-lpthread"); err != nil {
				return nil, notes, fmt.Errorf("peers: linking the harness with %s: %v\n%s", lib, err, out)
			}
			bins = append(bins, &Binary{Name: p.name, Path: bin, keys: keys})
		}
	}

	bin := filepath.Join(o.Out, "peerbench-"+OpenSSL)
	out, err := runTool(ctx, cc, "-O2", "-Wall", "-DPEER_OPENSSL", "-DPEER_SOURCE="+cString(systemOpenSSL(ctx)), src, "-o", bin, "-lcrypto")
	switch {
	case err == nil:
		bins = append(bins, &Binary{Name: OpenSSL, Path: bin, keys: keys})
	case bytes.Contains(out, []byte("openssl/")) && bytes.Contains(out, []byte("No such file")),
		bytes.Contains(out, []byte("cannot find -lcrypto")):
		notes = append(notes, "peers: openssl skipped: no OpenSSL 3 headers or library (Debian: apt-get install -y libssl-dev)")
	case bytes.Contains(out, []byte("OpenSSL 3 headers required")):
		notes = append(notes, "peers: openssl skipped: the system's OpenSSL is not version 3")
	default:
		return nil, notes, fmt.Errorf("peers: building the harness against the system's OpenSSL: %v\n%s", err, out)
	}

	for _, b := range bins {
		b.env = o.Env
		line, err := b.output(ctx, nil, "-provenance")
		if err != nil {
			return nil, notes, err
		}
		b.Provenance = strings.TrimPrefix(strings.TrimSpace(string(line)), "# peer "+b.Name+": ")
	}
	return bins, notes, nil
}

// compiler returns $env when set, else the first of names on PATH, or "".
func compiler(env string, names ...string) string {
	if c := os.Getenv(env); c != "" {
		return c
	}
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

func runTool(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	return out, err
}

// cString quotes s as a C string literal for a -D definition.
func cString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// pinnedSource returns the commit and date the peers README gives for the
// folder ("a0689af29e8e (2026-08-21)"), or says it has none.
func pinnedSource(dir, folder string) string {
	data, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		return "commit not recorded (no README.md in " + dir + ")"
	}
	re := regexp.MustCompile("(?m)^\\|\\s*`" + regexp.QuoteMeta(folder) + "/?`\\s*\\|[^|\\n]*\\|\\s*([0-9a-f]{40})\\s*(\\([^)\\n]*\\))?")
	m := re.FindSubmatch(data)
	if m == nil {
		return "commit not recorded in " + filepath.Join(dir, "README.md")
	}
	s := string(m[1][:12])
	if len(m[2]) > 0 {
		s += " " + string(m[2])
	}
	return s
}

// systemOpenSSL names the system's OpenSSL package ("Debian libssl3
// 3.0.19-1~deb12u2"), or "system library".
func systemOpenSSL(ctx context.Context) string {
	if _, err := exec.LookPath("dpkg-query"); err == nil {
		for _, pkg := range []string{"libssl3", "libssl3t64"} {
			out, err := exec.CommandContext(ctx, "dpkg-query", "-W", "-f", "${Version}", pkg).Output()
			if v := strings.TrimSpace(string(out)); err == nil && v != "" {
				return "Debian " + pkg + " " + v
			}
		}
	}
	return "system library"
}

// output runs the binary with args and stdin, and returns its standard
// output; a failure is an error with its standard error.
func (b *Binary) output(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, b.Path, append([]string{"-keys", b.keys}, args...)...)
	cmd.Env = b.env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("peers: %s %s: %v\n%s", b.Path, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// Benchmark is one benchmark of the harness: its package (the vg module
// whose benchmark it sits beside) and its full name, "Benchmark" prefix and
// peer element included, without a GOMAXPROCS suffix.
type Benchmark struct {
	// Pkg is the import path of the vg package ("github.com/vgcrypto/vg/aesgcm").
	Pkg string
	// Name is the full name ("BenchmarkSeal/AES-128/16/boringssl").
	Name string
}

// List returns every benchmark of the binary.
func (b *Binary) List(ctx context.Context) ([]Benchmark, error) {
	out, err := b.output(ctx, nil, "-list")
	if err != nil {
		return nil, err
	}
	var list []Benchmark
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		pkg, name, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			return nil, fmt.Errorf("peers: %s -list: unexpected line %q", b.Path, sc.Text())
		}
		list = append(list, Benchmark{Pkg: pkg, Name: name})
	}
	return list, nil
}

// Args returns the arguments of a run of the named benchmarks, each timed
// like a Go benchmark with -benchtime (a duration such as 1s or 0.02s, or a
// count such as 100x; "" for Go's default, 1s).
func (b *Binary) Args(benchtime string, names []string) []string {
	args := []string{"-keys", b.keys}
	if benchtime != "" {
		args = append(args, "-benchtime", benchtime)
	}
	return append(args, names...)
}

// Check sends the smoke-check requests to the binary (see check() in
// c/peerbench.c: "seal ALG KEY NONCE AAD PLAINTEXT", "sign-pkcs1 BITS
// DIGEST", ...) and returns its answers, one per request.
func (b *Binary) Check(ctx context.Context, requests []string) ([]string, error) {
	out, err := b.output(ctx, []byte(strings.Join(requests, "\n")+"\n"), "-check")
	if err != nil {
		return nil, err
	}
	answers := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(answers) != len(requests) {
		return nil, fmt.Errorf("peers: %s -check: %d answers to %d requests:\n%s", b.Name, len(answers), len(requests), out)
	}
	return answers, nil
}

// Matcher selects benchmarks by a -bench regular expression exactly as a Go
// test binary does: the expression is split at each slash that is outside
// brackets and parentheses into one expression per name element, each
// element of the name must match its expression (unanchored), and a name
// with fewer elements than the expression has matches nothing (Go runs it
// only to look for sub-benchmarks).
type Matcher struct {
	elems []*regexp.Regexp
}

// NewMatcher compiles a -bench expression.
func NewMatcher(pattern string) (*Matcher, error) {
	if pattern == "" {
		return nil, errors.New("empty -bench expression")
	}
	m := &Matcher{}
	for _, p := range splitPattern(pattern) {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("-bench %q: element %q: %v", pattern, p, err)
		}
		m.elems = append(m.elems, re)
	}
	return m, nil
}

// Match reports whether the benchmark name ("BenchmarkSeal/AES-128/16/x")
// is selected.
func (m *Matcher) Match(name string) bool {
	parts := strings.Split(name, "/")
	if len(parts) < len(m.elems) {
		return false
	}
	for i, re := range m.elems {
		if !re.MatchString(parts[i]) {
			return false
		}
	}
	return true
}

// splitPattern splits a -bench expression at the slashes that separate
// name elements: not those inside a bracketed class or parentheses, nor
// an escaped one.
func splitPattern(s string) []string {
	var elems []string
	var cur strings.Builder
	class, depth := false, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			cur.WriteByte(c)
			i++
			c = s[i]
		case class:
			if c == ']' {
				class = false
			}
		case c == '[':
			class = true
			// A ']' right after '[' or '[^' is a literal member.
			if i+1 < len(s) && s[i+1] == '^' {
				cur.WriteByte(c)
				i++
				c = s[i]
			}
			if i+1 < len(s) && s[i+1] == ']' {
				cur.WriteByte(c)
				i++
				c = s[i]
			}
		case c == '(':
			depth++
		case c == ')':
			if depth > 0 {
				depth--
			}
		case c == '/' && depth == 0:
			elems = append(elems, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	return append(elems, cur.String())
}
