package main

import (
	"fmt"
	"path"
	"strings"

	"github.com/vgcrypto/vg/ci/peers"
	"golang.org/x/perf/benchfmt"
)

// pairSpec pairs candidate sub-benchmarks with a reference sub-benchmark of
// the same parent: Cand is a path.Match pattern for the candidate's last name
// element ("vg-generic", "vg-*", "*"), Ref the reference's last element
// ("stdlib").
type pairSpec struct {
	Cand string
	Ref  string
}

// String returns the spec in the syntax parsePairs reads.
func (p pairSpec) String() string { return p.Cand + "=" + p.Ref }

// parsePairs parses -pair values. Each value is a comma-separated list of
// CAND=REF items; a bare REF means "*=REF" (every sibling against REF).
func parsePairs(values []string) ([]pairSpec, error) {
	var specs []pairSpec
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			cand, ref, ok := strings.Cut(item, "=")
			if !ok {
				cand, ref = "*", item
			}
			cand, ref = strings.TrimSpace(cand), strings.TrimSpace(ref)
			if cand == "" || ref == "" {
				return nil, fmt.Errorf("-pair %q: want CAND=REF (e.g. vg-generic=stdlib), or REF alone for *=REF", item)
			}
			if strings.Contains(ref, "/") || strings.Contains(cand, "/") {
				return nil, fmt.Errorf("-pair %q: CAND and REF are last elements of a benchmark name and cannot contain '/'", item)
			}
			if strings.ContainsAny(ref, "*?[\\") {
				return nil, fmt.Errorf("-pair %q: REF must be a literal name, not a pattern", item)
			}
			if _, err := path.Match(cand, ""); err != nil {
				return nil, fmt.Errorf("-pair %q: bad pattern %q: %v", item, cand, err)
			}
			if cand == ref {
				return nil, fmt.Errorf("-pair %q: CAND and REF are the same", item)
			}
			specs = append(specs, pairSpec{Cand: cand, Ref: ref})
		}
	}
	if len(specs) == 0 && len(values) > 0 {
		return nil, fmt.Errorf("-pair: empty")
	}
	return specs, nil
}

// nameParts is a benchmark name split for pairing: Parent is everything
// before the last element, Elem the last element, Procs the GOMAXPROCS
// suffix ("-2") if any. "Seal/aes128/16/stdlib-2" is {"Seal/aes128/16",
// "stdlib", "-2"}.
type nameParts struct {
	Parent string
	Elem   string
	Procs  string
}

// splitName splits a benchmark name (without the "Benchmark" prefix) into its
// parent, last element and GOMAXPROCS suffix. A name without sub-benchmarks
// has an empty parent and its base name as the element.
func splitName(name string) nameParts {
	base, parts := benchfmt.Name(name).Parts()
	var p nameParts
	if n := len(parts); n > 0 && strings.HasPrefix(string(parts[n-1]), "-") {
		p.Procs = string(parts[n-1])
		parts = parts[:n-1]
	}
	if len(parts) == 0 {
		p.Elem = string(base)
		return p
	}
	var parent strings.Builder
	parent.Write(base)
	for _, part := range parts[:len(parts)-1] {
		parent.Write(part)
	}
	p.Parent = parent.String()
	p.Elem = strings.TrimPrefix(string(parts[len(parts)-1]), "/")
	return p
}

// pair is one candidate benchmark paired with its reference.
type pair struct {
	Ref, Cand benchID
	RefName   string // the spec's Ref, for the table header
}

// pairBenchmarks returns the pairs that specs select among benches, in the
// order the candidates appear in benches (and, for one candidate matched by
// several specs, in spec order). A pair needs both names in the same package
// with the same parent and GOMAXPROCS suffix. A pattern matches a peer of
// the peer harness (boringssl, awslc, openssl, best-peer) only when it is
// the peer's name itself.
func pairBenchmarks(benches []benchID, specs []pairSpec) []pair {
	type sibling struct {
		pkg, parent, procs, elem string
	}
	index := make(map[sibling]benchID)
	for _, id := range benches {
		p := splitName(id.Name)
		index[sibling{id.Pkg, p.Parent, p.Procs, p.Elem}] = id
	}
	var pairs []pair
	seen := make(map[[2]benchID]bool)
	for _, id := range benches {
		p := splitName(id.Name)
		if p.Parent == "" {
			continue
		}
		for _, s := range specs {
			if p.Elem == s.Ref {
				continue
			}
			if ok, _ := path.Match(s.Cand, p.Elem); !ok {
				continue
			}
			if peers.IsPeer(p.Elem) && s.Cand != p.Elem {
				// A peer (or best-peer) is a candidate only by its
				// name: '*=stdlib' means vg's backends.
				continue
			}
			ref, ok := index[sibling{id.Pkg, p.Parent, p.Procs, s.Ref}]
			if !ok || seen[[2]benchID{ref, id}] {
				continue
			}
			seen[[2]benchID{ref, id}] = true
			pairs = append(pairs, pair{Ref: ref, Cand: id, RefName: s.Ref})
		}
	}
	return pairs
}

// lastElems returns the distinct last name elements of benches, in order, for
// error messages that help the user write a -pair spec.
func lastElems(benches []benchID) []string {
	var elems []string
	seen := make(map[string]bool)
	for _, id := range benches {
		e := splitName(id.Name).Elem
		if !seen[e] {
			seen[e] = true
			elems = append(elems, e)
		}
	}
	return elems
}
