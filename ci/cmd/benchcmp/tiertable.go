package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/vgcrypto/vg/ci/peers"
	"golang.org/x/perf/benchfmt"
)

// goReferences are the last name elements of Go's own implementations in
// vg's benchmarks: crypto/cipher and crypto/rsa ("stdlib"), x/crypto's
// ChaCha20-Poly1305 ("xcrypto").
var goReferences = []string{"stdlib", "xcrypto"}

// isOther reports whether elem, a last name element, is an implementation
// other than vg's that a tier table holds vg against: a peer or Go's own.
func isOther(elem string) bool {
	return (peers.IsPeer(elem) && elem != peers.BestPeer) || slices.Contains(goReferences, elem)
}

// tierRun is one results file of a tier table: a run held to one tier.
type tierRun struct {
	file string
	tier tier
	prov provenance
	cand string // vg's default backend at the tier for the file's algorithm
	set  *resultSet
}

// tierCell is one cell of a tier table: the per-round speed-ups of vg's
// default backend over the fastest other implementation of that round.
type tierCell struct {
	q1, med, q3 float64
	best        string // the other implementation fastest in most rounds
}

// writeTierTable writes -tiers' table: for the results files matching the
// glob, one per tier (each made with -tier), a row per benchmark parent that
// -bench keeps and a column per tier, most capable first; each cell is the
// median over the rounds of the speed-up of vg's default backend at that
// tier over the fastest other implementation of the round (the peers and
// Go's own), with the quartiles and the one fastest in most rounds.
func writeTierTable(cfg *config, w io.Writer) error {
	files, err := filepath.Glob(cfg.tiers)
	if err != nil {
		return fmt.Errorf("-tiers %q: %v", cfg.tiers, err)
	}
	if len(files) == 0 {
		return fmt.Errorf("-tiers %q: no results files match", cfg.tiers)
	}
	re, err := regexp.Compile(cfg.run.bench)
	if err != nil {
		return fmt.Errorf("-bench: %v", err)
	}
	var runs []*tierRun
	for _, f := range files {
		r, err := loadTierRun(f, re)
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	slices.SortStableFunc(runs, func(a, b *tierRun) int { return tierIndex(a.tier.Name) - tierIndex(b.tier.Name) })
	for i := 1; i < len(runs); i++ {
		if runs[i].tier.Name == runs[i-1].tier.Name {
			return fmt.Errorf("-tiers: %s and %s are both of tier %s", runs[i-1].file, runs[i].file, runs[i].tier.Name)
		}
	}
	var parents []string
	cells := make(map[[2]string]tierCell) // parent, tier
	for _, r := range runs {
		ps, cs, err := tierCells(r)
		if err != nil {
			return err
		}
		parents = orderedUnion(parents, ps)
		for p, c := range cs {
			cells[[2]string{p, r.tier.Name}] = c
		}
	}
	return writeTierMarkdown(w, runs, parents, cells, cfg.mdRow)
}

// tierIndex returns the position of the tier named name in tiers.
func tierIndex(name string) int {
	return slices.IndexFunc(tiers, func(t tier) bool { return t.Name == name })
}

// loadTierRun reads one results file of a tier table and its tier line.
func loadTierRun(file string, re *regexp.Regexp) (*tierRun, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	prov := readProvenance(f)
	if prov.Tier == "" {
		return nil, fmt.Errorf("%s: no tier line: make each file of a tier table with benchcmp -tier", file)
	}
	name, _, _ := strings.Cut(prov.Tier, ",")
	t, err := lookupTier(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	_, head, _, err := loadFile(f, file, make(benchfmt.UnitMetadataMap))
	if err != nil {
		return nil, err
	}
	set := filterSet(head, re)
	if len(set.benches) == 0 {
		return nil, fmt.Errorf("%s: no benchmark results (after -bench %q)", file, re)
	}
	cand, err := tierCandidate(prov.Tier, set.benches[0].Pkg)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return &tierRun{file: filepath.ToSlash(file), tier: t, prov: prov, cand: cand, set: set}, nil
}

// tierCandidate returns, from a tier line ("...; vg: aesgcm=aesni-avx
// chacha20poly1305=avx512 rsa=adx; ..."), vg's default backend for the
// module whose import path is pkg.
func tierCandidate(line, pkg string) (string, error) {
	alg := filepath.Base(pkg)
	for _, part := range strings.Split(line, "; ") {
		picks, ok := strings.CutPrefix(part, "vg: ")
		if !ok {
			continue
		}
		for _, p := range strings.Fields(picks) {
			if a, b, _ := strings.Cut(p, "="); a == alg {
				return b, nil
			}
		}
	}
	return "", fmt.Errorf("the tier line names no backend of %s", alg)
}

// tierCells returns the benchmark parents of r in order and, for each, the
// per-round speed-ups of r's candidate over the fastest other
// implementation of the round.
func tierCells(r *tierRun) ([]string, map[string]tierCell, error) {
	const unit = "sec/op"
	type group struct {
		cand   []float64
		others map[string][]float64
	}
	var parents []string
	groups := make(map[string]*group)
	for _, id := range r.set.benches {
		p := splitName(id.Name)
		if p.Parent == "" || (p.Elem != r.cand && !isOther(p.Elem)) {
			continue
		}
		g := groups[p.Parent]
		if g == nil {
			g = &group{others: map[string][]float64{}}
			groups[p.Parent] = g
			parents = append(parents, p.Parent)
		}
		if v := r.set.values[measureKey{id, unit}]; p.Elem == r.cand {
			g.cand = v
		} else {
			g.others[p.Elem] = v
		}
	}
	cells := make(map[string]tierCell)
	var kept []string
	for _, parent := range parents {
		g := groups[parent]
		if len(g.cand) == 0 || len(g.others) == 0 {
			continue
		}
		names := make([]string, 0, len(g.others))
		for n := range g.others {
			names = append(names, n)
		}
		slices.Sort(names)
		best := make([]float64, len(g.cand))
		wins := make(map[string]int)
		for i := range best {
			who := ""
			for _, n := range names {
				v := g.others[n]
				if len(v) != len(g.cand) {
					return nil, nil, fmt.Errorf("%s: %s/%s has %d rounds, %s %d", r.file, parent, n, len(v), r.cand, len(g.cand))
				}
				if who == "" || v[i] < best[i] {
					best[i], who = v[i], n
				}
			}
			wins[who]++
		}
		xs := pairedSpeedups(best, g.cand, -1)
		if xs == nil {
			return nil, nil, fmt.Errorf("%s: %s: no per-round speed-ups", r.file, parent)
		}
		c := tierCell{}
		c.q1, c.med, c.q3 = quartiles(xs)
		for _, n := range names {
			if c.best == "" || wins[n] > wins[c.best] {
				c.best = n
			}
		}
		cells[parent] = c
		kept = append(kept, parent)
	}
	return kept, cells, nil
}

// writeTierMarkdown writes the tier table after its caption.
func writeTierMarkdown(w io.Writer, runs []*tierRun, parents []string, cells map[[2]string]tierCell, rowHeader string) error {
	var b strings.Builder
	var files, cpus, dates []string
	for _, r := range runs {
		files = append(files, "`"+r.file+"`")
		cpus = orderedUnion(cpus, []string{r.prov.CPU})
		dates = orderedUnion(dates, []string{r.prov.Date})
	}
	fmt.Fprintf(&b, "vg's default backend at each tier against the fastest other implementation (BoringSSL, AWS-LC, OpenSSL or Go's own, whichever was fastest in that round): the median over the rounds of the speed-up (its time / vg's: above 1, vg is faster), quartiles in brackets, and the implementation fastest in most rounds. ")
	fmt.Fprintf(&b, "Each tier holds vg (VG_CPU_FEATURES) and the peers (OPENSSL_ia32cap) to the instruction set of a class of CPUs on this one machine: the instruction set, not those CPUs' timings (`benchcmp -tier list`). ")
	fmt.Fprintf(&b, "Measured %s on %s; raw results: %s.", strings.Join(dates, ", "), strings.Join(cpus, "; "), strings.Join(files, ", "))
	if s := tierPeerPaths(runs); s != "" {
		b.WriteString(" " + s)
	}
	b.WriteString("\n\n")
	b.WriteString("| | " + rowHeader)
	for _, r := range runs {
		fmt.Fprintf(&b, " | %s: `%s`", r.tier.Name, r.cand)
	}
	b.WriteString(" |\n|" + strings.Repeat(" --- |", 2+len(runs)) + "\n")
	prev := ""
	for _, p := range parents {
		label, row := rowOf(p)
		if label == prev {
			label = ""
		} else {
			prev = label
		}
		row1 := []string{label, row}
		for _, r := range runs {
			c, ok := cells[[2]string{p, r.tier.Name}]
			cell := ""
			if ok {
				cell = fmt.Sprintf("%.2fx (%.2f–%.2f) %s", c.med, c.q1, c.q3, c.best)
			}
			row1 = append(row1, cell)
		}
		b.WriteString(markdownRow(row1))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// tierPeerPaths says which code path each peer took at each tier, from the
// peers' provenance lines of each run.
func tierPeerPaths(runs []*tierRun) string {
	var tiersSaid []string
	for _, r := range runs {
		alg := algorithmName(r.set.benches[0].Pkg)
		var parts []string
		for _, name := range peers.Names {
			if line, ok := r.prov.Peers[name]; ok {
				if _, path := peerPath(line, alg); path != "" {
					parts = append(parts, "`"+name+"` "+path)
				}
			}
		}
		if len(parts) > 0 {
			tiersSaid = append(tiersSaid, r.tier.Name+": "+strings.Join(parts, ", "))
		}
	}
	if len(tiersSaid) == 0 {
		return ""
	}
	return "The peers' code paths (ci/peers): " + strings.Join(tiersSaid, "; ") + "."
}
