// Command simcover merges the basic-block coverage that test binaries built
// with -tags vgsim wrote (x86sim.CoverageFromEnv, one JSON-lines file per test
// process, in the directory named by VG_SIM_COVERAGE), prints covered/total per
// generated function, and exits with status 1 listing every block that no
// process executed.
//
//	simcover [-known file] dir
//
// A block counts as covered when any file records it as hit, so the union over
// every configuration of the test matrix is what must be complete. With
// -known, the blocks the file lists (lines "file func label", # comments) are
// known gaps: they are reported but do not fail the run, and a listed block
// that now runs fails it, so that the list only shrinks.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vgcrypto/vg/asmgen/x86sim"
)

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: simcover dir")
		flag.PrintDefaults()
	}
	known := flag.String("known", "", "`file` of known uncovered blocks (file func label per line)")
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	var gaps map[string]bool
	if *known != "" {
		var err error
		if gaps, err = readKnown(*known); err != nil {
			fmt.Fprintln(os.Stderr, "simcover:", err)
			os.Exit(2)
		}
	}
	ok, err := run(flag.Arg(0), gaps, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "simcover:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

type blockKey struct {
	file, fn string
	block    int
}

type funcKey struct{ file, fn string }

// readKnown reads a known-gaps file: "file func label" per line.
func readKnown(name string) (map[string]bool, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	gaps := map[string]bool{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("%s:%d: want \"file func label\"", name, i+1)
		}
		gaps[gapKey(f[0], f[1], strings.Join(f[2:], " "))] = true
	}
	return gaps, nil
}

func gapKey(file, fn, label string) string { return file + " " + fn + " " + label }

// run merges the files of dir and writes the report to w; it reports whether
// every block was covered, or missed only as gaps lists (which may be nil),
// with no listed gap covered.
func run(dir string, gaps map[string]bool, w io.Writer) (bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return false, err
	}
	if len(files) == 0 {
		return false, fmt.Errorf("no coverage files in %s", dir)
	}
	hit := map[blockKey]bool{}
	rec := map[blockKey]x86sim.CoverageRecord{}
	for _, name := range files {
		if err := readFile(name, hit, rec); err != nil {
			return false, err
		}
	}
	funcs := map[funcKey][]blockKey{}
	for k := range rec {
		fk := funcKey{k.file, k.fn}
		funcs[fk] = append(funcs[fk], k)
	}
	var fks []funcKey
	for fk := range funcs {
		fks = append(fks, fk)
	}
	sort.Slice(fks, func(i, j int) bool {
		if fks[i].file != fks[j].file {
			return fks[i].file < fks[j].file
		}
		return fks[i].fn < fks[j].fn
	})
	complete := true
	total, covered, knownMissed := 0, 0, 0
	for _, fk := range fks {
		bs := funcs[fk]
		sort.Slice(bs, func(i, j int) bool { return bs[i].block < bs[j].block })
		n := 0
		var missed []x86sim.CoverageRecord
		for _, b := range bs {
			if hit[b] {
				n++
			} else {
				missed = append(missed, rec[b])
			}
		}
		total += len(bs)
		covered += n
		fmt.Fprintf(w, "%-40s %-28s %4d/%-4d blocks\n", fk.file, fk.fn, n, len(bs))
		for _, m := range missed {
			k := gapKey(m.File, m.Func, m.Name)
			if gaps[k] {
				fmt.Fprintf(w, "    never run (known gap): %s (%s:%d)\n", m.Name, m.File, m.Line)
				delete(gaps, k)
				knownMissed++
				continue
			}
			complete = false
			fmt.Fprintf(w, "    never run: %s (%s:%d)\n", m.Name, m.File, m.Line)
		}
	}
	var stale []string
	for k := range gaps {
		stale = append(stale, k)
	}
	sort.Strings(stale)
	for _, k := range stale {
		complete = false
		fmt.Fprintf(w, "known gap now covered (or gone): %s: remove it from the list\n", k)
	}
	if knownMissed > 0 {
		fmt.Fprintf(w, "simcover: %d blocks never run are known gaps\n", knownMissed)
	}
	fmt.Fprintf(w, "simcover: %d/%d blocks of %d functions run, from %d test processes\n", covered, total, len(fks), len(files))
	return complete, nil
}

func readFile(name string, hit map[blockKey]bool, rec map[blockKey]x86sim.CoverageRecord) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for ln := 1; sc.Scan(); ln++ {
		var r x86sim.CoverageRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("%s:%d: %v", name, ln, err)
		}
		k := blockKey{r.File, r.Func, r.Block}
		if old, ok := rec[k]; ok && (old.Name != r.Name || old.Line != r.Line) {
			return fmt.Errorf("%s:%d: block %d of %s is %s at line %d here and %s at line %d elsewhere (files from different builds?)", name, ln, r.Block, r.Func, r.Name, r.Line, old.Name, old.Line)
		}
		rec[k] = r
		hit[k] = hit[k] || r.Hit
	}
	return sc.Err()
}
