package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/vgcrypto/vg/ci/peers"
	"golang.org/x/perf/benchfmt"
)

// buildPeers builds the peer harness; tests replace it.
var buildPeers = peers.Build

// peerTargets builds the peer harness against every peer present (a peer
// that is absent is skipped with a note on stderr) and returns targets with,
// after each test binary's target, one target per peer that has benchmarks
// of that package matching -bench, so that each round runs vg's benchmarks
// of a package and then the peers' of the same package. It also returns the
// peers built, for the provenance lines.
func peerTargets(ctx context.Context, cfg *config, root, tmp string, targets []*target, stderr io.Writer) ([]*target, []*peers.Binary, error) {
	match, err := peers.NewMatcher(cfg.run.bench)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(stderr, "benchcmp: building the peer harness (ci/peers)\n")
	bins, notes, err := buildPeers(ctx, peers.Options{Root: root, Dir: cfg.peersDir, Out: filepath.Join(tmp, "peers"), Env: cfg.run.env})
	if err != nil {
		return nil, nil, err
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "benchcmp: %s\n", n)
	}
	byPkg := make(map[[2]string][]string) // peer, package -> names
	for _, b := range bins {
		fmt.Fprintf(stderr, "benchcmp: peer %s: %s\n", b.Name, b.Provenance)
		list, err := b.List(ctx)
		if err != nil {
			return nil, nil, err
		}
		for _, bm := range list {
			if match.Match(bm.Name) {
				k := [2]string{b.Name, bm.Pkg}
				byPkg[k] = append(byPkg[k], bm.Name)
			}
		}
	}
	var out []*target
	n := 0
	for _, t := range targets {
		out = append(out, t)
		for _, b := range bins {
			names := byPkg[[2]string{b.Name, t.pkg.ImportPath}]
			if len(names) == 0 {
				continue
			}
			n++
			out = append(out, &target{tree: t.tree, pkg: t.pkg, bin: b.Path, set: t.set, peer: b.Name, args: b.Args(cfg.run.benchtime, names)})
		}
	}
	if len(bins) > 0 && n == 0 {
		fmt.Fprintf(stderr, "benchcmp: no peer benchmark of these packages matches -bench %q\n", cfg.run.bench)
	}
	return out, bins, nil
}

// writePeerProvenance adds a provenance line per peer to a raw results file.
func writePeerProvenance(w io.Writer, bins []*peers.Binary) {
	for _, b := range bins {
		fmt.Fprintf(w, "# benchcmp %s %s: %s\n", provPeer, b.Name, b.Provenance)
	}
}

// wantsBestPeer reports whether a spec names the best-peer sibling.
func wantsBestPeer(specs []pairSpec) bool {
	for _, s := range specs {
		if s.Ref == peers.BestPeer || s.Cand == peers.BestPeer {
			return true
		}
	}
	return false
}

// addBestPeer adds to set, for every benchmark parent with peer siblings,
// the synthetic sibling "best-peer": its value in round i is the best of the
// peers' values in round i (the least time, the most bytes per second),
// over the rounds every peer of that parent has. It is added after the last
// peer of its parent.
func addBestPeer(set *resultSet, meta benchfmt.UnitMetadataMap) {
	type group struct {
		pkg, parent, procs string
		peers              []benchID
	}
	var groups []*group
	byKey := make(map[[3]string]*group)
	for _, id := range set.benches {
		p := splitName(id.Name)
		if p.Parent == "" || !peers.IsPeer(p.Elem) || p.Elem == peers.BestPeer {
			continue
		}
		k := [3]string{id.Pkg, p.Parent, p.Procs}
		g := byKey[k]
		if g == nil {
			g = &group{pkg: id.Pkg, parent: p.Parent, procs: p.Procs}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.peers = append(g.peers, id)
	}
	if len(groups) == 0 {
		return
	}
	added := make(map[benchID]benchID) // last peer -> its best-peer
	for _, g := range groups {
		best := benchID{Pkg: g.pkg, Name: g.parent + "/" + peers.BestPeer + g.procs}
		if set.seen[best] {
			continue
		}
		for _, unit := range set.units {
			dir := meta.GetBetter(unit)
			if dir == 0 {
				continue
			}
			rounds := -1
			for _, id := range g.peers {
				n := len(set.values[measureKey{id, unit}])
				if rounds < 0 || n < rounds {
					rounds = n
				}
			}
			if rounds <= 0 {
				continue
			}
			vals := make([]float64, rounds)
			for i := range vals {
				for j, id := range g.peers {
					v := set.values[measureKey{id, unit}][i]
					if j == 0 || (dir < 0 && v < vals[i]) || (dir > 0 && v > vals[i]) {
						vals[i] = v
					}
				}
			}
			set.values[measureKey{best, unit}] = vals
		}
		set.seen[best] = true
		added[g.peers[len(g.peers)-1]] = best
	}
	benches := make([]benchID, 0, len(set.benches)+len(added))
	for _, id := range set.benches {
		benches = append(benches, id)
		if b, ok := added[id]; ok {
			benches = append(benches, b)
		}
	}
	set.benches = benches
}

// peerCaption says, for a markdown table with peers, which build of each
// peer was measured and the code path it took for the algorithm of pkg.
func peerCaption(prov provenance, pkgs []string, shown []string) string {
	alg := ""
	for _, pkg := range pkgs {
		if a := algorithmName(pkg); a != "" {
			alg = a
		}
	}
	var parts []string
	best := false
	for _, name := range peers.Names {
		line, ok := prov.Peers[name]
		if !ok {
			continue
		}
		show := false
		for _, s := range shown {
			if s == name || s == peers.BestPeer {
				show = true
				best = best || s == peers.BestPeer
			}
		}
		if !show {
			continue
		}
		version, path := peerPath(line, alg)
		s := "`" + name + "` " + version
		if path != "" {
			s += ", " + alg + " " + path
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	s := "Peers (ci/peers, C, timed as vg's benchmarks are): " + strings.Join(parts, "; ") + "."
	if best {
		s += " `best-peer` is the fastest of them in each round."
	}
	return s
}

// algorithmName returns the name the peer harness gives the algorithm of a
// vg package ("AES-GCM" for .../aesgcm), or "".
func algorithmName(pkg string) string {
	switch filepath.Base(pkg) {
	case "aesgcm":
		return "AES-GCM"
	case "chacha20poly1305":
		return "ChaCha20-Poly1305"
	case "rsa":
		return "RSA"
	}
	return ""
}

// peerPath splits a peer's provenance line into its version and the code
// path it took for alg ("" when the line names none).
func peerPath(line, alg string) (version, path string) {
	version, paths, _ := strings.Cut(line, "; on this CPU ")
	if _, list, ok := strings.Cut(paths, "): "); ok && alg != "" {
		for _, p := range strings.Split(list, "; ") {
			if rest, ok := strings.CutPrefix(p, alg+" "); ok {
				path = rest
			}
		}
	}
	return version, path
}
