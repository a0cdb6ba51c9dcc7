// Command simcover merges the basic-block coverage that test binaries built
// with -tags vgsim wrote (x86sim.CoverageFromEnv, one JSON-lines file per test
// process, in the directory named by VG_SIM_COVERAGE), prints covered/total per
// generated function, and exits with status 1 listing every block that no
// process executed.
//
//	simcover [-allow file] dir
//
// A block counts as covered when any file records it as hit, so the union over
// every configuration of the test matrix is what must be complete.
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

	"github.com/vgcrypto/vg/asmgen/x86sim"
)

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: simcover dir")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	ok, err := run(flag.Arg(0), os.Stdout)
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

// run merges the files of dir and writes the report to w; it reports whether
// every block was covered.
func run(dir string, w io.Writer) (bool, error) {
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
	total, covered := 0, 0
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
			complete = false
			fmt.Fprintf(w, "    never run: %s (%s:%d)\n", m.Name, m.File, m.Line)
		}
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
