package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/conformance/prove"
)

// workers is how many proofs run at once (ci/test's machines have two
// cores).
const workers = 2

// runAll runs the proofs of rows that selected picks: first the check of
// each file's symbolic semantics, then the proofs, longest first (by the
// times rec has), two at a time. It prints a line per row in the rows'
// order, a proof it did not run as rec has it when its key (in ks) is the
// recorded one (rec and ks may be nil), and returns the proofs' results.
func runAll(w io.Writer, root string, rows []prove.Row, selected func(prove.Row) bool, rec record, ks map[string]string) (map[*prove.Proof]prove.Result, error) {
	var files []string
	byFile := map[string][]*prove.Proof{}
	for _, r := range rows {
		if r.Proof != nil && selected(r) {
			if byFile[r.File] == nil {
				files = append(files, r.File)
			}
			byFile[r.File] = append(byFile[r.File], r.Proof)
		}
	}
	type checkRun struct {
		p       *x86sim.Program
		checked int
		res     prove.Result
	}
	checks := make([]checkRun, len(files))
	parallel(len(files), func(i int) {
		p, err := prove.Load(root, files[i])
		if err != nil {
			checks[i] = checkRun{res: prove.Result{Err: err}}
			return
		}
		n, res := prove.Check(p, byFile[files[i]])
		checks[i] = checkRun{p, n, res}
	})
	type job struct {
		file int
		pr   *prove.Proof
	}
	var jobs []job
	for i, f := range files {
		if checks[i].res.Err == nil {
			for _, pr := range byFile[f] {
				jobs = append(jobs, job{i, pr})
			}
		}
	}
	// Longest first, by the times the record has (0 for a proof it lacks).
	slices.SortStableFunc(jobs, func(a, b job) int {
		return cmp.Compare(rec[proofName(b.pr)].seconds, rec[proofName(a.pr)].seconds)
	})
	results := map[*prove.Proof]prove.Result{}
	var mu sync.Mutex
	parallel(len(jobs), func(i int) {
		res := prove.Run(checks[jobs[i].file].p, jobs[i].pr)
		mu.Lock()
		results[jobs[i].pr] = res
		mu.Unlock()
	})

	failed := 0
	fmt.Fprintf(w, "%-18s %-12s %-24s %-10s %8s  %s\n", "module", "backend", "function", "status", "time", "covers")
	printed := map[string]bool{}
	for _, r := range rows {
		if i := slices.Index(files, r.File); i >= 0 && !printed[r.File] {
			printed[r.File] = true
			c := checks[i]
			status := "agree"
			if c.res.Err != nil {
				status = "FAILED"
				failed++
			}
			fmt.Fprintf(w, "%-18s %-12s %-24s %-10s %7.1fs  %d distinct instructions of the proven functions checked against the model\n",
				r.Module, r.Backend, "(semantics)", status, c.res.Time.Seconds(), c.checked)
			if c.res.Err != nil {
				fmt.Fprintf(w, "    %v\n", c.res.Err)
			}
		}
		status, t, covers := "not covered", "", ""
		if res, ok := results[r.Proof]; ok && r.Proof != nil {
			status, t, covers = "proven", fmt.Sprintf("%.1fs", res.Time.Seconds()), r.Proof.Covers
			if res.Err != nil {
				status, covers = "FAILED", res.Err.Error()
				failed++
			}
		} else if l, ok := rec[recordName(r)]; ok && r.Proof != nil && l.key == ks[recordName(r)] {
			status, t, covers = "recorded", fmt.Sprintf("%.1fs", l.seconds), r.Proof.Covers
		} else if r.Proof != nil {
			status = "skipped"
		}
		fmt.Fprintf(w, "%-18s %-12s %-24s %-10s %8s  %s\n", r.Module, r.Backend, r.Func, status, t, covers)
	}
	if failed > 0 {
		return results, fmt.Errorf("%d checks or proofs failed", failed)
	}
	return results, nil
}

// parallel calls f(0..n-1) on workers goroutines and waits for them.
func parallel(n int, f func(int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
