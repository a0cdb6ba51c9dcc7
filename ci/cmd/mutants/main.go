// Command mutants checks that vg's constant-time checks still catch what
// they claim to: it seeds a small fixed set of defects, one per kind of
// defect a check claims, into a scratch copy of the tree (never the real
// one), runs the layer that claims it, and fails unless that layer fails
// with the expected message.
//
//	go run ./ci/cmd/mutants [-only name,...] [-disable check] [-keep] [-list]
//
// The layers and the defects they must catch:
//
//   - generation, the arch gate (asmgen's isa.go): an AVX instruction in
//     rsa's adx backend (SSE2, BMI2, ADX);
//   - generation, the taint check (taint.go): a branch on the secret window
//     index of rsa's gather5ADX, a load at that index (a secret address),
//     SQRTPD on it (a variable-time instruction);
//   - generation, the wipe check (wipecheck.go): gather5ADX returning with a
//     plain RET, skipping the wipe;
//   - the model (-tags vgsim), the cross-check of pointer annotations
//     against the memory a test names secret (x86sim.NameSecret): montMul's
//     modulus declared Public, caught by rsa's
//     TestAnnotationsAgainstNamedSecrets;
//   - the model, its bounds check: aesgcm's opmask of a tail enabling one
//     byte more, caught by TestAsmEdges on vaes-avx512;
//   - the model under valgrind's memcheck (ci/cmd/ctgrind -model only), the
//     cross-check of scalar annotations against the caller: rsa's
//     gather5ADX with its window index k declared Public and read as a
//     direct index table[k] (a defect that once escaped every layer),
//     aesgcm's gcmSeal with a length its Go glue derives from the
//     key table, chacha20poly1305's sealShortAVX512 with an AD length
//     derived from the key. The model takes its secrets from memcheck and
//     fails the call naming the argument.
//
// A defect is a list of exact text replacements in the copy. One whose text
// is no longer found (the generator changed) is a failure too: update the
// defect, so that no check stops being tested silently. Each defect's
// files, and every file a layer regenerates, are restored before the next.
//
// -disable applies one more replacement to the copy that switches a check
// off (isa, taint, wipe: asmgen's generation checks; named, scalars: the
// model's cross-checks of pointer and scalar annotations), to show that the
// command then fails: TestDisabledCheckIsNoticed runs it. -only runs the
// named defects, -keep keeps the copy and prints its path, -list prints the
// defects. The exit status is 1 when a defect is not caught as claimed.
package main

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// An Edit replaces the text Old, which must occur exactly once, by New in
// File (relative to the tree's root).
type Edit struct {
	File, Old, New string
}

// A Layer is a check that claims some defects: Run runs it on the copy at
// dir and returns its output and whether it failed (found something).
type Layer struct {
	Name string
	Run  func(dir string) (out string, failed bool)
}

// A Mutant is one seeded defect.
type Mutant struct {
	// Name is the defect's stable name, for -only.
	Name string
	// Kind is the kind of defect the layer claims to catch.
	Kind string
	// What says what the defect is.
	What  string
	Edits []Edit
	Layer Layer
	// Want are substrings the layer's output must all contain: the message
	// of the check that claims the defect.
	Want []string
}

func main() {
	only := flag.String("only", "", "comma-separated names of the defects to run (default: all)")
	disable := flag.String("disable", "", "switch off one check in the copy ("+strings.Join(disableNames(), ", ")+"), to see the command fail")
	keep := flag.Bool("keep", false, "keep the scratch copy and print its path")
	list := flag.Bool("list", false, "list the defects and exit")
	flag.Parse()
	if *list {
		for _, m := range mutants {
			fmt.Printf("%-26s %-32s %s\n    %s\n", m.Name, m.Kind, m.Layer.Name, m.What)
		}
		return
	}
	var sel []Mutant
	for _, m := range mutants {
		if *only == "" || contains(strings.Split(*only, ","), m.Name) {
			sel = append(sel, m)
		}
	}
	if len(sel) == 0 {
		fmt.Fprintf(os.Stderr, "mutants: no defect named %q (-list lists them)\n", *only)
		os.Exit(2)
	}
	var sabotage []Edit
	if *disable != "" {
		var ok bool
		if sabotage, ok = disables[*disable]; !ok {
			fmt.Fprintf(os.Stderr, "mutants: -disable %q: not one of %s\n", *disable, strings.Join(disableNames(), ", "))
			os.Exit(2)
		}
	}
	ok, err := run(sel, sabotage, *keep, os.Stdout)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mutants: %v\n", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// run makes the scratch copy, applies sabotage, seeds each defect in turn
// and runs its layer. It reports whether every defect was caught as
// claimed.
func run(sel []Mutant, sabotage []Edit, keep bool, w io.Writer) (bool, error) {
	root, err := repoRoot()
	if err != nil {
		return false, err
	}
	// One scratch folder per checkout, at the same path every run, so that
	// the build cache serves the packages no defect touches (the cache
	// keys on their folders); a lock keeps two runs out of each other's.
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("vg-mutants-%x", sum[:6]))
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return false, err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return false, fmt.Errorf("locking %s.lock: %v", dir, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return false, err
	}
	if keep {
		fmt.Fprintf(w, "mutants: scratch copy in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	t0 := time.Now()
	files, err := copyTree(root, dir)
	if err != nil {
		return false, err
	}
	if err := apply(dir, sabotage); err != nil {
		return false, fmt.Errorf("-disable: %v", err)
	}
	if len(sabotage) > 0 {
		fmt.Fprintf(w, "mutants: a check is switched off in the copy (%s): defects it claims must now be missed\n", sabotage[0].File)
	}
	// The baseline of every file, restored after each defect (the layers
	// regenerate into the copy).
	base, err := snapshot(dir, files)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(w, "mutants: %d files copied from %s in %.1fs\n", len(files), root, time.Since(t0).Seconds())
	allOK := true
	for _, m := range sel {
		t := time.Now()
		caught, line, out, err := seed(dir, m)
		if rerr := restore(dir, base); rerr != nil {
			return false, rerr
		}
		d := time.Since(t).Seconds()
		switch {
		case err != nil:
			allOK = false
			fmt.Fprintf(w, "ERROR  %6.1fs  %s (%s): %v\n", d, m.Name, m.Kind, err)
		case caught:
			fmt.Fprintf(w, "caught %6.1fs  %s (%s) by %s:\n           %s\n", d, m.Name, m.Kind, m.Layer.Name, line)
		default:
			allOK = false
			fmt.Fprintf(w, "MISSED %6.1fs  %s (%s): %s did not fail with %q; its output ends:\n%s\n", d, m.Name, m.Kind, m.Layer.Name, m.Want, indent(tail(out, 40)))
		}
	}
	fmt.Fprintf(w, "mutants: %d defects in %.0fs: ", len(sel), time.Since(t0).Seconds())
	if allOK {
		fmt.Fprintln(w, "every one caught by the layer that claims it")
	} else {
		fmt.Fprintln(w, "FAIL")
	}
	return allOK, nil
}

// seed applies m's edits to the copy and runs its layer. It reports whether
// the layer failed with every wanted substring, the first output line with
// the first of them, and the layer's output.
func seed(dir string, m Mutant) (caught bool, line, out string, err error) {
	if err := apply(dir, m.Edits); err != nil {
		return false, "", "", err
	}
	out, failed := m.Layer.Run(dir)
	if !failed {
		return false, "", out, nil
	}
	for _, s := range m.Want {
		if !strings.Contains(out, s) {
			return false, "", out, nil
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, m.Want[0]) {
			line = strings.TrimSpace(l)
			if len(line) > 400 {
				line = line[:400] + "..."
			}
			break
		}
	}
	return true, line, out, nil
}

// apply makes each edit in the copy at dir.
func apply(dir string, edits []Edit) error {
	for _, e := range edits {
		p := filepath.Join(dir, e.File)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if n := bytes.Count(b, []byte(e.Old)); n != 1 {
			return fmt.Errorf("%s: the text to replace occurs %d times, not once (did the generator change? update the defect in ci/cmd/mutants):\n%s", e.File, n, e.Old)
		}
		if err := os.WriteFile(p, bytes.Replace(b, []byte(e.Old), []byte(e.New), 1), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// repoRoot returns the root of the checkout holding the working directory.
func repoRoot() (string, error) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("git rev-parse --show-toplevel: %v (run inside a vg checkout)", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// copyTree copies every tracked file of the checkout at root, as it is in
// the working tree, to dir, and returns their paths.
func copyTree(root, dir string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %v", err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, f)
		st, err := os.Lstat(src)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the working tree, or a link
		}
		b, err := os.ReadFile(src)
		if err != nil {
			return nil, err
		}
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, b, st.Mode().Perm()); err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// snapshot reads the files of the copy.
func snapshot(dir string, files []string) (map[string][]byte, error) {
	m := make(map[string][]byte, len(files))
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		m[f] = b
	}
	return m, nil
}

// restore rewrites every file of the copy that differs from base.
func restore(dir string, base map[string][]byte) error {
	for f, want := range base {
		p := filepath.Join(dir, f)
		if got, err := os.ReadFile(p); err == nil && bytes.Equal(got, want) {
			continue
		}
		if err := os.WriteFile(p, want, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// command runs name with args in dir (relative to the copy's root) with
// env added, and returns its combined output and whether it failed.
func command(root, dir string, env []string, name string, args ...string) (string, bool) {
	cmd := exec.Command(name, args...)
	cmd.Dir = filepath.Join(root, dir)
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false", "GOTOOLCHAIN=local")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	head := fmt.Sprintf("$ (cd %s && %s %s)\n", dir, name, strings.Join(args, " "))
	return head + string(out), err != nil
}

// generate runs the generator of alg (alg/_asm) in the copy.
func generate(root, alg string) (string, bool) {
	return command(root, alg+"/_asm", []string{"GOWORK=off"}, "go", "run", ".")
}

// generation is the layer of asmgen's generation-time checks: the
// generator of alg must fail.
func generation(alg, check string) Layer {
	return Layer{
		Name: fmt.Sprintf("generation (asmgen's %s, %s/_asm)", check, alg),
		Run:  func(root string) (string, bool) { return generate(root, alg) },
	}
}

// regenerated runs the generator of alg (none when alg is ""), which must
// succeed (the defect is one generation cannot see), then then.
func regenerated(root, alg string, then func() (string, bool)) (string, bool) {
	if alg == "" {
		return then()
	}
	out, failed := generate(root, alg)
	if failed {
		return out + "\nmutants: the generator failed, but this defect is claimed by a later layer", false
	}
	more, failed := then()
	return out + more, failed
}

// model is the layer of the model's checks: the vgsim tests run matching
// the package pkg of alg must fail.
func model(alg, check, pkg, run string) Layer {
	return Layer{
		Name: fmt.Sprintf("the model (%s; go test -tags vgsim -run '%s' ./%s)", check, run, pkg),
		Run: func(root string) (string, bool) {
			return regenerated(root, alg, func() (string, bool) {
				return command(root, ".", nil, "go", "test", "-count=1", "-tags", "vgsim", "-short", "-run", run, "./"+pkg)
			})
		},
	}
}

// proofOnly is the layer of the proofs (go run ./conformance/cmd/prove),
// for defects the tests are unlikely to find: after alg is regenerated, the
// module's tests (every backend this CPU runs, and with model every backend
// on the model too), the conformance tests of the module and its fuzzer
// (fuzz for fuzzTime) must all pass, and the proof of fn must fail. A test
// that catches the defect makes the layer report it as not a defect only a
// proof finds.
func proofOnly(alg, fuzz, conformanceRun, fn string, model bool) Layer {
	tests := [][]string{
		{"go", "test", "-count=1", "-short", "./" + alg},
		{"go", "test", "-count=1", "-short", "-run", conformanceRun, "./conformance"},
		{"go", "test", "-run", "^$", "-fuzz", "^" + fuzz + "$", "-fuzztime", fuzzTime, "./" + alg},
	}
	name := fmt.Sprintf("go test -short ./%s", alg)
	if model {
		tests = append(tests, []string{"env", "VG_CPU_FEATURES=all", "go", "test", "-count=1", "-short", "-tags", "vgsim", "./" + alg})
		name += " (natively and, every backend, on the model)"
	}
	return Layer{
		Name: fmt.Sprintf("the proofs (go run ./conformance/cmd/prove -run '%s'), with %s, its conformance tests and %s passing", fn, name, fuzz),
		Run: func(root string) (string, bool) {
			return regenerated(root, alg, func() (string, bool) {
				var all strings.Builder
				for _, c := range tests {
					out, failed := command(root, ".", nil, c[0], c[1:]...)
					all.WriteString(out)
					if failed {
						return all.String() + "\nmutants: the tests caught this defect: it is not one only a proof finds", false
					}
				}
				out, failed := command(root, ".", nil, "go", "run", "./conformance/cmd/prove", "-run", "^"+fn+"$")
				return all.String() + "mutants: every test passed\n" + out, failed
			})
		},
	}
}

// fuzzTime is how long proofOnly runs the module's fuzzer.
const fuzzTime = "20s"

// modelUnderMemcheck is the layer of the model under valgrind's memcheck,
// which checks scalar annotations against the callers: the CTGrind tests of
// pkg on backend, on the model, must fail.
func modelUnderMemcheck(alg, pkg, backend string) Layer {
	return Layer{
		Name: fmt.Sprintf("the model under memcheck (scalars checked against the caller; ci/cmd/ctgrind -model only -backends %s ./%s)", backend, pkg),
		Run: func(root string) (string, bool) {
			return regenerated(root, alg, func() (string, bool) {
				return command(root, ".", nil, "go", "run", "./ci/cmd/ctgrind", "-short", "-model", "only", "-backends", backend, "./"+pkg)
			})
		},
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
