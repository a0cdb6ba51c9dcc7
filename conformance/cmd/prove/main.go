// Command prove runs vg's proofs (package conformance/prove): each generated
// function a proof covers is run in x86sim's symbolic mode, after a check of
// the symbolic semantics of its instructions against the concrete model, and
// its outputs compared with the specification's for every value of its
// inputs. It prints one row per function of every generated .s file:
// proven (with what it covers), or not covered.
//
//	go run ./conformance/cmd/prove              # run every proof; exit 1 if one fails
//	go run ./conformance/cmd/prove -w           # the same, then write record.txt
//	go run ./conformance/cmd/prove -changed     # the proofs whose key record.txt lacks
//	go run ./conformance/cmd/prove -run REGEXP  # the proofs whose Func matches
//	go run ./conformance/cmd/prove -list -md MODULE  # the table without running, for the READMEs
//	go run ./conformance/cmd/prove -list -md all     # one row per backend
//
// A proof's key hashes what decides its outcome: the prover's Go sources
// (this command and the packages it imports from the repository), the Go
// version, the generated file and the proof's statement. record.txt holds
// the keys of the last full run (-w); -changed, which ci/test runs, proves
// every function whose key is not the recorded one (a generated file or the
// prover changed since), prints the others as recorded with their recorded
// time, and fails on a record line no proof has.
//
// Run it from the repository root (-C sets another).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/vgcrypto/vg/conformance/prove"
)

func main() {
	root := flag.String("C", ".", "the repository `root`")
	run := flag.String("run", "", "run only the proofs whose function matches `regexp`")
	list := flag.Bool("list", false, "print the table without running the proofs")
	md := flag.String("md", "", "with -list: the markdown table of `module`'s functions, or with \"all\" a summary per backend")
	write := flag.Bool("w", false, "run every proof and, when all pass, write "+recordFile)
	changed := flag.Bool("changed", false, "run only the proofs whose key differs from "+recordFile+"'s")
	flag.Parse()
	if *write && (*changed || *run != "") {
		fmt.Fprintln(os.Stderr, "prove: -w runs every proof: it takes neither -changed nor -run")
		os.Exit(2)
	}
	// The symbolic runs allocate many small, long-lived words: collect
	// less often (the machines have memory to spare), but keep the heap
	// within three quarters of the machine's memory: two long proofs at
	// once grew it past 24 GB otherwise, and the kernel killed the run.
	debug.SetGCPercent(400)
	if total := memTotal(); total > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(total / 4 * 3)
	}
	if err := main1(os.Stdout, *root, *run, *list, *md, *write, *changed); err != nil {
		fmt.Fprintf(os.Stderr, "prove: %v\n", err)
		os.Exit(1)
	}
}

func main1(w io.Writer, root, run string, list bool, md string, write, changed bool) error {
	rows, err := prove.Rows(root)
	if err != nil {
		return err
	}
	if list {
		if md == "all" {
			return summary(w, rows)
		}
		return table(w, rows, md)
	}
	re, err := regexp.Compile(run)
	if err != nil {
		return err
	}
	selected := func(r prove.Row) bool { return re.MatchString(r.Func) }
	var ks map[string]string
	if write || changed {
		if ks, err = keys(root, rows); err != nil {
			return err
		}
	}
	rec, err := readRecord(root)
	if err != nil {
		if changed {
			return err
		}
		rec = nil // without -changed, only the proofs' order depends on it
	}
	if changed {
		for name := range rec {
			if _, ok := ks[name]; !ok {
				return fmt.Errorf("%s names %s, which no proof covers: run go run ./conformance/cmd/prove -w", recordFile, name)
			}
		}
		selected = func(r prove.Row) bool {
			l, ok := rec[recordName(r)]
			return re.MatchString(r.Func) && (!ok || l.key != ks[recordName(r)])
		}
	}
	results, err := runAll(w, root, rows, selected, rec, ks)
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(w, "%d proofs run (their generated file or the prover changed since %s was written), the others as recorded\n", len(results), recordFile)
	}
	if write {
		if err := writeRecord(root, rows, ks, results); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", recordFile)
	}
	return nil
}

// table prints the rows of module as markdown: per backend, the proven
// functions grouped by what their proofs cover, then the others.
func table(w io.Writer, rows []prove.Row, module string) error {
	fmt.Fprintln(w, "| backend | functions | proven equal to the specification for |")
	fmt.Fprintln(w, "| --- | --- | --- |")
	found := false
	for i := 0; i < len(rows); {
		j := i
		for j < len(rows) && rows[j].File == rows[i].File {
			j++
		}
		if rows[i].Module == module {
			found = true
			var covers []string
			funcs := map[string][]string{}
			var rest []string
			for _, r := range rows[i:j] {
				if r.Proof == nil {
					rest = append(rest, "`"+r.Func+"`")
					continue
				}
				if funcs[r.Proof.Covers] == nil {
					covers = append(covers, r.Proof.Covers)
				}
				funcs[r.Proof.Covers] = append(funcs[r.Proof.Covers], "`"+r.Func+"`")
			}
			for _, c := range covers {
				fmt.Fprintf(w, "| %s | %s | %s |\n", rows[i].Backend, strings.Join(funcs[c], ", "), c)
			}
			if len(rest) > 0 {
				fmt.Fprintf(w, "| %s | %s | not yet covered |\n", rows[i].Backend, strings.Join(rest, ", "))
			}
		}
		i = j
	}
	if !found {
		return fmt.Errorf("no generated functions of module %q", module)
	}
	return nil
}

// summary prints one markdown row per backend: the functions proven, and
// how many of its generated functions are not yet.
func summary(w io.Writer, rows []prove.Row) error {
	fmt.Fprintln(w, "| algorithm | backend | proven equal to the specification | not yet covered |")
	fmt.Fprintln(w, "| --- | --- | --- | --- |")
	for i := 0; i < len(rows); {
		j := i
		var proven []string
		rest := 0
		for ; j < len(rows) && rows[j].File == rows[i].File; j++ {
			if pr := rows[j].Proof; pr != nil {
				f := "`" + rows[j].Func + "`"
				if pr.Part != "" {
					f += " (" + pr.Part + ")"
				}
				proven = append(proven, f)
			} else {
				rest++
			}
		}
		p := strings.Join(proven, ", ")
		if p == "" {
			p = "none yet"
		}
		left := "none"
		switch {
		case rest == 1:
			left = "1 function"
		case rest > 1:
			left = fmt.Sprintf("%d functions", rest)
		}
		fmt.Fprintf(w, "| %s | `%s` | %s | %s |\n", rows[i].Module, rows[i].Backend, p, left)
		i = j
	}
	return nil
}

// memTotal is the machine's memory in bytes from /proc/meminfo, 0 where
// that cannot be read.
func memTotal() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		var kb int64
		if n, _ := fmt.Sscanf(line, "MemTotal: %d kB", &kb); n == 1 {
			return kb << 10
		}
	}
	return 0
}
