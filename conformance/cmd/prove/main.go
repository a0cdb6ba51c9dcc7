// Command prove runs vg's proofs (package conformance/prove): each generated
// function a proof covers is run in x86sim's symbolic mode, after a check of
// the symbolic semantics of its instructions against the concrete model, and
// its outputs compared with the specification's for every value of its
// inputs. It prints one row per function of every generated .s file:
// proven (with what it covers), or not covered.
//
//	go run ./conformance/cmd/prove              # run every proof; exit 1 if one fails
//	go run ./conformance/cmd/prove -run REGEXP  # the proofs whose Func matches
//	go run ./conformance/cmd/prove -list -md MODULE  # the table without running, for the READMEs
//	go run ./conformance/cmd/prove -list -md all     # one row per backend
//
// Run it from the repository root (-C sets another).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/vgcrypto/vg/conformance/prove"
)

func main() {
	root := flag.String("C", ".", "the repository `root`")
	run := flag.String("run", "", "run only the proofs whose function matches `regexp`")
	list := flag.Bool("list", false, "print the table without running the proofs")
	md := flag.String("md", "", "with -list: the markdown table of `module`'s functions, or with \"all\" a summary per backend")
	flag.Parse()
	if err := main1(os.Stdout, *root, *run, *list, *md); err != nil {
		fmt.Fprintf(os.Stderr, "prove: %v\n", err)
		os.Exit(1)
	}
}

func main1(w io.Writer, root, run string, list bool, md string) error {
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
	// The proofs run two at a time (ci/test's machines have two cores).
	results := make([]chan prove.Result, len(rows))
	sem := make(chan struct{}, 2)
	for i, r := range rows {
		if r.Proof != nil && re.MatchString(r.Func) {
			results[i] = make(chan prove.Result, 1)
			go func() {
				sem <- struct{}{}
				results[i] <- prove.Run(root, r.Proof)
				<-sem
			}()
		}
	}
	failed := 0
	fmt.Fprintf(w, "%-18s %-12s %-22s %-10s %8s  %s\n", "module", "backend", "function", "status", "time", "covers")
	for i, r := range rows {
		status, t, covers := "not covered", "", ""
		if results[i] != nil {
			res := <-results[i]
			status, t, covers = "proven", fmt.Sprintf("%.1fs", res.Time.Seconds()), fmt.Sprintf("%s (%d instructions checked against the model)", r.Proof.Covers, res.Checked)
			if res.Err != nil {
				status, covers = "FAILED", res.Err.Error()
				failed++
			}
		} else if r.Proof != nil {
			status = "skipped"
		}
		fmt.Fprintf(w, "%-18s %-12s %-22s %-10s %8s  %s\n", r.Module, r.Backend, r.Func, status, t, covers)
	}
	if failed > 0 {
		return fmt.Errorf("%d proofs failed", failed)
	}
	return nil
}

// table prints the rows of module (all with -md "") as markdown: proven
// functions with what they cover, then the others in one line per backend.
func table(w io.Writer, rows []prove.Row, module string) error {
	fmt.Fprintln(w, "| backend | function | proven equal to the specification for |")
	fmt.Fprintln(w, "| --- | --- | --- |")
	var rest []string
	last := ""
	flush := func() {
		if len(rest) > 0 {
			fmt.Fprintf(w, "| %s | %s | not yet covered |\n", last, strings.Join(rest, ", "))
			rest = nil
		}
	}
	found := false
	for _, r := range rows {
		if module != "" && r.Module != module {
			continue
		}
		found = true
		if r.Backend != last {
			flush()
			last = r.Backend
		}
		if r.Proof == nil {
			rest = append(rest, "`"+r.Func+"`")
			continue
		}
		fmt.Fprintf(w, "| %s | `%s` | every state and text, %s |\n", r.Backend, r.Func, r.Proof.Covers)
	}
	flush()
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
			if rows[j].Proof != nil {
				proven = append(proven, "`"+rows[j].Func+"`")
			} else {
				rest++
			}
		}
		p := strings.Join(proven, ", ")
		if p == "" {
			p = "none yet"
		}
		fmt.Fprintf(w, "| %s | `%s` | %s | %d functions |\n", rows[i].Module, rows[i].Backend, p, rest)
		i = j
	}
	return nil
}
