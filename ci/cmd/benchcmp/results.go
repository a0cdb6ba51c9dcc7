package main

import (
	"fmt"
	"io"

	"golang.org/x/perf/benchfmt"
)

// benchID names one benchmark: the import path of its package and its full
// name without the "Benchmark" prefix, GOMAXPROCS suffix included (for example
// "Seal/aes128/1350/vg-generic" or "Seal/aes128/1350/stdlib-2").
type benchID struct {
	Pkg  string
	Name string
}

// measureKey names one metric of one benchmark, in tidied units ("sec/op",
// "B/s", "B/op", "allocs/op", or a custom unit).
type measureKey struct {
	benchID
	Unit string
}

// resultSet holds the measurements of one side of a comparison (the base
// build, or the head build), one value per run, with benchmarks and units in
// the order they were first seen.
type resultSet struct {
	benches  []benchID
	seen     map[benchID]bool
	units    []string
	unitSeen map[string]bool
	values   map[measureKey][]float64
	// config holds the first value seen of the goos, goarch and cpu lines.
	config map[string]string
}

func newResultSet() *resultSet {
	return &resultSet{
		seen:     make(map[benchID]bool),
		unitSeen: make(map[string]bool),
		values:   make(map[measureKey][]float64),
		config:   make(map[string]string),
	}
}

// add records the measurements of one benchmark result.
func (s *resultSet) add(res *benchfmt.Result) {
	id := benchID{Pkg: res.GetConfig("pkg"), Name: res.Name.String()}
	if !s.seen[id] {
		s.seen[id] = true
		s.benches = append(s.benches, id)
	}
	for _, v := range res.Values {
		if !s.unitSeen[v.Unit] {
			s.unitSeen[v.Unit] = true
			s.units = append(s.units, v.Unit)
		}
		k := measureKey{id, v.Unit}
		s.values[k] = append(s.values[k], v.Value)
	}
	for _, key := range []string{"goos", "goarch", "cpu"} {
		if _, ok := s.config[key]; !ok {
			if v := res.GetConfig(key); v != "" {
				s.config[key] = v
			}
		}
	}
}

// count returns the number of benchmark results recorded for pkg.
func (s *resultSet) count(pkg string) int {
	n := 0
	for _, id := range s.benches {
		if id.Pkg == pkg {
			n++
		}
	}
	return n
}

// sideConfigKey is the configuration key that the raw output file (-o) uses
// to say which build a block of results came from. benchstat understands it:
// "benchstat -col side FILE".
const sideConfigKey = "side"

// parseResults reads Go benchmark output (the format of "go test -bench",
// https://golang.org/design/14313-benchmark-format) from r and adds each
// result to the set that pick returns for it; pick may return nil to drop a
// result. Unit metadata lines ("Unit x better=higher") are merged into meta
// when it is not nil. Lines that look like results but do not parse are
// returned as warnings; I/O errors as the error.
func parseResults(r io.Reader, fileName string, meta benchfmt.UnitMetadataMap, pick func(*benchfmt.Result) *resultSet) (warnings []string, err error) {
	rd := benchfmt.NewReader(r, fileName)
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.Result:
			if s := pick(rec); s != nil {
				s.add(rec)
			}
		case *benchfmt.SyntaxError:
			warnings = append(warnings, rec.Error())
		}
	}
	if meta != nil {
		for k, v := range rd.Units() {
			meta[k] = v
		}
	}
	if err := rd.Err(); err != nil {
		return warnings, fmt.Errorf("reading %s: %w", fileName, err)
	}
	return warnings, nil
}

// loadFile splits a results file into base and head sets: blocks after a
// "side: base" line go to base, blocks after "side: head" (or with no side
// line at all, as in plain "go test -bench" output) go to head.
func loadFile(r io.Reader, fileName string, meta benchfmt.UnitMetadataMap) (base, head *resultSet, warnings []string, err error) {
	base, head = newResultSet(), newResultSet()
	var unknown []string
	seenUnknown := make(map[string]bool)
	warnings, err = parseResults(r, fileName, meta, func(res *benchfmt.Result) *resultSet {
		switch side := res.GetConfig(sideConfigKey); side {
		case "base":
			return base
		case "head", "":
			return head
		default:
			if !seenUnknown[side] {
				seenUnknown[side] = true
				unknown = append(unknown, side)
			}
			return nil
		}
	})
	for _, side := range unknown {
		warnings = append(warnings, fmt.Sprintf("%s: ignored results with %s: %q (want base or head)", fileName, sideConfigKey, side))
	}
	return base, head, warnings, err
}
