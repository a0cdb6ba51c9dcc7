package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/ci/peers"
	"golang.org/x/perf/benchfmt"
)

// peerResults is a results file of three rounds of Seal/AES-128/16 and of
// RSA-like Sign/2048: vg's "fast" backend, "stdlib", and the three peers
// (openssl faster than boringssl in round 2 only), with peer provenance.
func peerResults() string {
	var b strings.Builder
	b.WriteString("# benchcmp date: 2026-12-02\n# benchcmp cpu: Test CPU (family 6, model 207), 2 CPUs\n")
	b.WriteString("# benchcmp peer boringssl: BoringSSL abc (2026-08-21); on this CPU (its vector): AES-GCM VAES-AVX512 (x); ChaCha20-Poly1305 AVX2; RSA MULX\n")
	b.WriteString("# benchcmp peer awslc: AWS-LC 5.5.0 def; on this CPU (its vector): AES-GCM AVX-512; ChaCha20-Poly1305 AVX2; RSA IFMA\n")
	b.WriteString("# benchcmp peer openssl: OpenSSL 3.0.19; on this CPU (CPUID): AES-GCM AES-NI+AVX (a, b); ChaCha20-Poly1305 AVX-512F; RSA IFMA\n")
	for round := 1; round <= 3; round++ {
		b.WriteString("side: head\npkg: example.com/m/aead\n")
		fmt.Fprintf(&b, "BenchmarkSeal/AES-128/16/fast 100 10 ns/op %.2f MB/s\n", 16/10.0*1e3)
		fmt.Fprintf(&b, "BenchmarkSeal/AES-128/16/stdlib 100 40 ns/op %.2f MB/s\n", 16/40.0*1e3)
		b.WriteString("# peer boringssl: ...\npkg: example.com/m/aead\n")
		fmt.Fprintf(&b, "BenchmarkSeal/AES-128/16/boringssl 100 20 ns/op %.2f MB/s\n", 16/20.0*1e3)
		fmt.Fprintf(&b, "BenchmarkSeal/AES-128/16/awslc 100 30 ns/op %.2f MB/s\n", 16/30.0*1e3)
		o := 25.0
		if round == 2 {
			o = 16
		}
		fmt.Fprintf(&b, "BenchmarkSeal/AES-128/16/openssl 100 %.0f ns/op %.2f MB/s\n", o, 16/o*1e3)
	}
	return b.String()
}

func TestAddBestPeer(t *testing.T) {
	set := newResultSet()
	meta := make(benchfmt.UnitMetadataMap)
	_, err := parseResults(strings.NewReader(peerResults()), "r", meta, func(*benchfmt.Result) *resultSet { return set })
	require.NoError(t, err)
	addBestPeer(set, meta)
	var names []string
	for _, id := range set.benches {
		names = append(names, id.Name)
	}
	assert.Equal(t, []string{"Seal/AES-128/16/fast", "Seal/AES-128/16/stdlib", "Seal/AES-128/16/boringssl", "Seal/AES-128/16/awslc",
		"Seal/AES-128/16/openssl", "Seal/AES-128/16/best-peer"}, names)
	best := benchID{Pkg: "example.com/m/aead", Name: "Seal/AES-128/16/best-peer"}
	assert.Equal(t, []float64{20e-9, 16e-9, 20e-9}, set.values[measureKey{best, "sec/op"}], "the least time of each round")
	bps := set.values[measureKey{best, "B/s"}]
	require.Len(t, bps, 3)
	assert.InDelta(t, 16/16e-9, bps[1], 1e6, "the most bytes per second of each round")

	// Twice is once.
	addBestPeer(set, meta)
	assert.Len(t, set.benches, 6)
}

func TestPairsWithPeers(t *testing.T) {
	ids := []benchID{}
	for _, e := range []string{"fast", "stdlib", "boringssl", "openssl", "best-peer"} {
		ids = append(ids, benchID{Pkg: "p", Name: "Seal/16/" + e})
	}
	names := func(pairs []pair) []string {
		var s []string
		for _, p := range pairs {
			s = append(s, splitName(p.Cand.Name).Elem+"="+p.RefName)
		}
		return s
	}
	// Patterns select vg's backends (and the reference implementations),
	// never the peers.
	assert.Equal(t, []string{"fast=stdlib"}, names(pairBenchmarks(ids, []pairSpec{{"*", "stdlib"}})))
	assert.Equal(t, []string{"fast=best-peer", "stdlib=best-peer"}, names(pairBenchmarks(ids, []pairSpec{{"*", "best-peer"}})))
	// A peer named as the candidate is one.
	assert.Equal(t, []string{"openssl=stdlib"}, names(pairBenchmarks(ids, []pairSpec{{"openssl", "stdlib"}})))
	assert.True(t, wantsBestPeer([]pairSpec{{"fast", "stdlib"}, {"fast", "best-peer"}}))
	assert.False(t, wantsBestPeer([]pairSpec{{"*", "boringssl"}}))
}

func TestMarkdownPeers(t *testing.T) {
	file := writeTemp(t, "r.txt", peerResults())
	var out, errOut strings.Builder
	err := run(t.Context(), []string{"-load", file, "-pair", "fast=stdlib,fast=best-peer,fast=openssl", "-md", "-"}, ".", &out, &errOut)
	require.NoError(t, err, errOut.String())
	want := "Seal AES-128: median time of `fast`; against each reference the median over the rounds of its speed-up over the reference in that round (reference time / fast time: above 1, fast is faster), quartiles in brackets. " +
		"Measured 2026-12-02 on Test CPU (family 6, model 207), 2 CPUs (3 rounds); raw results: `" + filepath.ToSlash(file) + "`. " +
		"Peers (ci/peers, C, timed as vg's benchmarks are): `boringssl` BoringSSL abc (2026-08-21); `awslc` AWS-LC 5.5.0 def; `openssl` OpenSSL 3.0.19. `best-peer` is the fastest of them in each round.\n\n" +
		"| | bytes | fast | vs stdlib | vs best-peer | vs openssl |\n| --- | --- | --- | --- | --- | --- |\n" +
		"| Seal AES-128 | 16 | 10.0 ns | 4.00x (4.00–4.00) | 2.00x (1.80–2.00) | 2.50x (2.05–2.50) |\n"
	assert.Equal(t, want, out.String())

	// With the package known, each peer's line names its code path for that
	// algorithm.
	prov := readProvenance(strings.NewReader(peerResults()))
	assert.Equal(t, "Peers (ci/peers, C, timed as vg's benchmarks are): `boringssl` BoringSSL abc (2026-08-21), AES-GCM VAES-AVX512 (x); "+
		"`openssl` OpenSSL 3.0.19, AES-GCM AES-NI+AVX (a, b).",
		peerCaption(prov, []string{"github.com/vgcrypto/vg/aesgcm"}, []string{"fast", "boringssl", "openssl"}))
	assert.Contains(t, peerCaption(prov, []string{"github.com/vgcrypto/vg/rsa"}, []string{"best-peer"}), "`awslc` AWS-LC 5.5.0 def, RSA IFMA;")
	assert.Empty(t, peerCaption(prov, nil, []string{"stdlib"}))

	// The chart draws the peers dotted, each in its colour.
	svg := filepath.Join(t.TempDir(), "c.svg")
	require.NoError(t, run(t.Context(), []string{"-load", file, "-pair", "*=stdlib", "-svg", svg}, ".", io.Discard, io.Discard))
	data, err := os.ReadFile(svg)
	require.NoError(t, err)
	for _, p := range peers.Names {
		assert.Contains(t, string(data), fmt.Sprintf(`data-name="%s" stroke="%s"`, p, peerColors[p]))
	}
	assert.Equal(t, 3*2, strings.Count(string(data), `stroke-dasharray="2 3"`), "line and legend of each peer")
}

func TestPeersFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-peers", "./x"}, "use it with -pair"},
		{[]string{"-peers", "-pair", "x=y", "-load", "f"}, "without -load"},
		{[]string{"-peers-dir", "/d", "-pair", "x=y", "./x"}, "-peers-dir needs -peers"},
	} {
		_, err := parseFlags(tc.args, io.Discard)
		if assert.Error(t, err, "%q", tc.args) {
			assert.Contains(t, err.Error(), tc.want, "%q", tc.args)
		}
	}
	cfg, err := parseFlags([]string{"-peers", "-peers-dir", "/d", "-pair", "x=best-peer", "./x"}, io.Discard)
	require.NoError(t, err)
	assert.True(t, cfg.peers)
	assert.Equal(t, "/d", cfg.peersDir)
}

// TestEndToEndPeers runs pair mode with -peers on the tiny module, the
// peer harness replaced by two scripts that print Go benchmark output.
func TestEndToEndPeers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a temporary module's benchmarks")
	}
	root := newTinyRepo(t, tinyCode)
	scripts := t.TempDir()
	var fakes []*peers.Binary
	for _, p := range []struct {
		name string
		ns   int
	}{{peers.BoringSSL, 900}, {peers.OpenSSL, 700}} {
		path := filepath.Join(scripts, p.name)
		script := fmt.Sprintf("#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = -list ] && { printf 'example.com/tiny\\tBenchmarkPair/%[1]s\\nother.com/x\\tBenchmarkX/%[1]s\\n'; exit 0; }; done\n"+
			"echo '# peer %[1]s: fake'\necho 'pkg: example.com/tiny'\nprintf 'BenchmarkPair/%[1]s\\t100\\t%[2]d ns/op\\n'\n", p.name, p.ns)
		require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
		fakes = append(fakes, &peers.Binary{Name: p.name, Path: path, Provenance: "fake " + p.name})
	}
	var gotOpts peers.Options
	old := buildPeers
	buildPeers = func(_ context.Context, o peers.Options) ([]*peers.Binary, []string, error) {
		gotOpts = o
		return fakes, []string{"peers: awslc skipped: test"}, nil
	}
	t.Cleanup(func() { buildPeers = old })

	raw := filepath.Join(t.TempDir(), "raw.txt")
	report, progress, err := runCmd(t.Context(), root, "-peers", "-peers-dir", "/nowhere", "-count", "2", "-benchtime", "100x", "-bench", "Pair",
		"-pair", "slow=best-peer,slow=boringssl", "-env", "GOMAXPROCS=1", "-o", raw, "./tiny")
	require.NoError(t, err, progress)
	t.Logf("report:\n%s", report)
	assert.Equal(t, "/nowhere", gotOpts.Dir)
	assert.Contains(t, progress, "benchcmp: peers: awslc skipped: test")
	assert.Contains(t, progress, "round 2/2 openssl example.com/tiny: 1 results")
	f := row(t, report, "sec/op", "Pair/slow")
	require.NotEmpty(t, f)
	data, err := os.ReadFile(raw)
	require.NoError(t, err)
	assert.Contains(t, string(data), "# benchcmp peer boringssl: fake boringssl\n")
	assert.Contains(t, string(data), "peers (ci/peers) after vg in each round")
	assert.Equal(t, 2, strings.Count(string(data), "./tiny peer openssl\n"))
	// best-peer is openssl's 700 ns in both rounds.
	md, _, err := runCmd(t.Context(), root, "-load", raw, "-pair", "slow=best-peer,slow=boringssl", "-md", "-")
	require.NoError(t, err)
	assert.Contains(t, md, "| vs best-peer | vs boringssl |")
	assert.Contains(t, md, "`best-peer` is the fastest of them in each round.")
}
