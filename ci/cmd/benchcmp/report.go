package main

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// pkgTables is the part of a report about one package.
type pkgTables struct {
	pkg    string
	tables []*table
}

// orderedUnion returns the elements of the lists without repeats, in order of
// first appearance.
func orderedUnion[T comparable](lists ...[]T) []T {
	var out []T
	seen := make(map[T]bool)
	for _, l := range lists {
		for _, x := range l {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	return out
}

// compareReport builds the tables of base-versus-head mode: per package, one
// table per unit, one row per benchmark measured on either side.
func compareReport(base, head *resultSet, meta benchfmt.UnitMetadataMap) []pkgTables {
	benches := orderedUnion(head.benches, base.benches)
	units := orderedUnion(head.units, base.units)
	var pkgs []string
	for _, id := range benches {
		pkgs = orderedUnion(pkgs, []string{id.Pkg})
	}
	var out []pkgTables
	for _, pkg := range pkgs {
		pt := pkgTables{pkg: pkg}
		for _, unit := range units {
			t := &table{unit: unit, refName: "base", candName: "head", deltaName: "vs base", dir: meta.GetBetter(unit)}
			for _, id := range benches {
				if id.Pkg != pkg {
					continue
				}
				b, h := base.values[measureKey{id, unit}], head.values[measureKey{id, unit}]
				if len(b) == 0 && len(h) == 0 {
					continue
				}
				t.rows = append(t.rows, compare(id.Name, b, h))
			}
			if len(t.rows) > 0 {
				pt.tables = append(pt.tables, t)
			}
		}
		out = append(out, pt)
	}
	return out
}

// pairReport builds the tables of pair mode from the results of one build:
// per package, per unit and per reference name, one row per candidate
// sub-benchmark compared with its reference sibling.
func pairReport(set *resultSet, specs []pairSpec, meta benchfmt.UnitMetadataMap) ([]pkgTables, error) {
	pairs := pairBenchmarks(set.benches, specs)
	if len(pairs) == 0 {
		var s []string
		for _, p := range specs {
			s = append(s, p.String())
		}
		return nil, fmt.Errorf("no benchmark pairs match -pair %s: want sibling sub-benchmarks that differ only in the last name element; last elements seen: %s",
			strings.Join(s, ","), strings.Join(lastElems(set.benches), ", "))
	}
	var pkgs, refs []string
	for _, p := range pairs {
		pkgs = orderedUnion(pkgs, []string{p.Cand.Pkg})
		refs = orderedUnion(refs, []string{p.RefName})
	}
	var out []pkgTables
	for _, pkg := range pkgs {
		pt := pkgTables{pkg: pkg}
		for _, unit := range set.units {
			for _, ref := range refs {
				var rows []comparison
				var cands []string
				for _, p := range pairs {
					if p.Cand.Pkg != pkg || p.RefName != ref {
						continue
					}
					r, c := set.values[measureKey{p.Ref, unit}], set.values[measureKey{p.Cand, unit}]
					if len(r) == 0 && len(c) == 0 {
						continue
					}
					row := compare(p.Cand.Name, r, c)
					row.paired = pairedSpeedups(r, c, meta.GetBetter(unit))
					rows = append(rows, row)
					cands = orderedUnion(cands, []string{splitName(p.Cand.Name).Elem})
				}
				if len(rows) == 0 {
					continue
				}
				candName := "candidate"
				if len(cands) == 1 {
					candName = cands[0]
				}
				pt.tables = append(pt.tables, &table{
					unit: unit, refName: ref, candName: candName, deltaName: "vs " + ref,
					dir: meta.GetBetter(unit), speedup: true, rows: rows,
				})
			}
		}
		out = append(out, pt)
	}
	return out, nil
}

// writeReport prints the header lines, then each package's tables.
func writeReport(w io.Writer, header []string, groups []pkgTables) error {
	for _, h := range header {
		if _, err := fmt.Fprintln(w, h); err != nil {
			return err
		}
	}
	for _, g := range groups {
		if _, err := fmt.Fprintf(w, "\npkg: %s\n", g.pkg); err != nil {
			return err
		}
		for i, t := range g.tables {
			if i > 0 {
				if _, err := fmt.Fprintln(w); err != nil {
					return err
				}
			}
			if err := t.write(w); err != nil {
				return err
			}
		}
	}
	return nil
}

// envHeader returns the goos/goarch/cpu lines of the results, as benchstat
// prints them.
func envHeader(sets ...*resultSet) []string {
	var lines []string
	for _, key := range []string{"goos", "goarch", "cpu"} {
		for _, s := range sets {
			if v, ok := s.config[key]; ok {
				lines = append(lines, key+": "+v)
				break
			}
		}
	}
	return lines
}
