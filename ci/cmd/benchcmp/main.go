// Command benchcmp measures whether a change made a benchmark faster or
// slower, or how vg compares with the standard library, with the statistics
// of benchstat and without the usual pitfalls of comparing two runs made at
// different times.
//
// # Base versus head
//
// By default benchcmp compares a base git revision with the working tree
// (uncommitted changes included):
//
//	go run ./ci/cmd/benchcmp -pkg ./aesgcm -bench 'Seal/aes128'
//	go run ./ci/cmd/benchcmp -base main~3 -count 10 -bench Open ./aesgcm ./chacha20poly1305
//
// It checks REV out into a temporary detached worktree (git worktree add
// --detach; removed afterwards, also on error or Ctrl-C), builds the test
// binary of every selected package on both sides with go test -c (the base
// from its worktree, so it uses the base's go.work and go.mod; the head from
// the working tree), then runs the binaries interleaved, base then head,
// -count rounds, each run being one "-test.run '^$' -test.bench REGEXP
// -test.count 1". Interleaving spreads slow drifts of the machine (frequency
// scaling, thermal state, other load) over both sides instead of biasing
// whichever side ran second. Runs are pinned to one CPU with taskset when the
// machine has several (-taskset).
//
// The report has, per package and per unit (sec/op, B/s, B/op, allocs/op,
// custom metrics), one row per benchmark: the base and head medians with
// their 95% confidence intervals, the change, and the Mann-Whitney U test's
// p-value, computed with golang.org/x/perf's benchmath exactly as benchstat
// computes them. A change is printed only when p <= 0.05; otherwise "~" means
// the difference is within noise. A geomean row closes each table. For
// example (numbers illustrative):
//
//	pkg: github.com/vgcrypto/vg/chacha20poly1305
//	sec/op                base          head       vs base
//	Seal/64/generic    408.6n ± 2%   318.3n ± 2%   -22.10% (p=0.002 n=6)
//	Seal/64/xcrypto    191.8n ± 2%   191.0n ± 2%         ~ (p=0.619 n=6)
//	Seal/1350/generic  3.641µ ± 1%   2.814µ ± 1%   -22.72% (p=0.002 n=6)
//	Seal/1350/xcrypto  902.4n ± 1%   906.9n ± 1%         ~ (p=0.180 n=6)
//	geomean            712.4n        627.6n        -11.90%
//
//	B/s                    base           head       vs base
//	Seal/64/generic    149.4Mi ± 2%   191.8Mi ± 2%   +28.36% (p=0.002 n=6)
//	...
//
// A unit whose every measurement is zero (B/op, allocs/op with -benchmem)
// is shortened to one line.
//
// Six rounds is the least that can show a difference at p <= 0.05 with a
// finite confidence interval; footnotes say so when there are fewer.
//
// # Pairs within one build
//
// vg's benchmarks put vg and the standard library side by side as sibling
// sub-benchmarks (BenchmarkSeal/aes128/1350/vg-generic and
// BenchmarkSeal/aes128/1350/stdlib). With -pair CAND=REF benchcmp builds only
// the working tree, runs it -count rounds, and compares every sub-benchmark
// whose last name element matches CAND with its sibling named REF (same
// parent, same GOMAXPROCS). CAND is a pattern (path.Match), so one run
// compares every backend with the standard library; a bare REF means *=REF.
// The table adds a speed-up column, REF/CAND for times and CAND/REF for
// throughputs, so 2.00x means twice as fast as REF, of the two medians; and
// a per-round column: in each round CAND and REF run in the same process
// moments apart, so the ratio of round i's two results cancels the slow
// drifts of a shared host that widen each side's own spread. It shows the
// median of those per-round speed-ups and their quartiles; on a noisy host
// it is the number to quote:
//
//	go run ./ci/cmd/benchcmp -pair stdlib -bench Seal ./aesgcm
//	go run ./ci/cmd/benchcmp -pair 'vg-*=stdlib' -bench 'Seal/(16|1350)/' ./aesgcm
//	go run ./ci/cmd/benchcmp -pair vg-generic=stdlib,vg-aesni=stdlib ./aesgcm
//	go run ./ci/cmd/benchcmp -pair xcrypto -bench '^BenchmarkSeal$' ./chacha20poly1305
//	go run ./ci/cmd/benchcmp -pair 'vg-*=vg-generic' -env VG_CPU_FEATURES=avx2 ./aesgcm
//
// prints, per package, unit and REF (the candidate column is named after
// the candidate when there is only one):
//
//	pkg: github.com/vgcrypto/vg/chacha20poly1305
//	sec/op               xcrypto       generic      vs xcrypto              speed-up          per round
//	Seal/64/generic    191.0n ± 2%    318.3n ± 2%    +66.61% (p=0.002 n=6)     0.60x  0.60x (0.59–0.61)
//	Seal/1350/generic  906.9n ± 1%   2813.6n ± 1%   +210.26% (p=0.002 n=6)     0.32x  0.32x (0.32–0.33)
//	geomean            416.2n         946.3n        +127.36%                   0.44x              0.44x
//
// # Peers: BoringSSL, AWS-LC and OpenSSL in the same rounds
//
// With -peers (pair mode only) benchcmp also builds the peer harness
// (ci/peers: one C program, built against BoringSSL and AWS-LC from
// ../shared/peers and against the system's OpenSSL 3; a peer that is absent
// is skipped with a note) and runs it in every round right after the test
// binary of each package, pinned the same way, for the peer benchmarks that
// -bench selects (go test's matching rules). The harness times each
// workload as vg's Go benchmarks time vg and names its results as vg's,
// with the peer as the last element (Seal/AES-128/1350/boringssl, awslc,
// openssl), so that each peer is a sibling of vg's backends for -pair.
// The -o file gets the peers' results in the same rounds and a provenance
// line per peer (its version or commit and the code path it dispatches to
// on this CPU).
//
// # Tiers: vg and the peers held to an older CPU's instruction set
//
// -tier NAME holds vg and every peer to the instruction set of a class of
// CPUs that has less than the machine at hand: vg through VG_CPU_FEATURES
// (so each module picks the backend it would pick on such a CPU), the peers
// through OPENSSL_ia32cap, which BoringSSL, AWS-LC and OpenSSL all read. The
// peers' provenance lines then name the code path each takes at that tier,
// and the -o file gets a "tier" line with vg's default backends there. It
// emulates the tier's instruction set, not its cores' timings. -tier list
// prints the tiers, the ones this machine can run and vg's choice at each:
//
//	go run ./ci/cmd/benchcmp -tier list
//	go run ./ci/cmd/benchcmp -tier zen3 -peers -pair 'vaes-avx2=best-peer' -bench '^BenchmarkSeal$/AES-128/' -o /tmp/zen3.txt ./aesgcm
//
// -tiers GLOB -md FILE writes one table of such runs, a file per tier (each
// made with -tier, "-tier native" for the machine as it is): a row per
// benchmark parent that -bench keeps, a column per tier, most capable first,
// each cell the median over the rounds of the speed-up of vg's default
// backend at that tier over the fastest other implementation of the round
// (the peers, crypto/cipher, crypto/rsa or x/crypto), with its quartiles
// and the implementation fastest in most rounds:
//
//	go run ./ci/cmd/benchcmp -tiers 'ci/results/2026-12-07-xeon167/aesgcm-*.txt' -bench '^Seal/' -md -
//
// A pair spec that names best-peer (as REF or as CAND) adds a synthetic
// sibling "best-peer" wherever peers were measured: in each round, the best
// of the peers' values in that round, so that its per-round ratio compares
// vg with whichever peer was fastest at that moment. Patterns never select
// the peers as candidates ('*=stdlib' compares vg's backends); name them:
//
//	go run ./ci/cmd/benchcmp -peers -pair 'vaes-avx512=best-peer,vaes-avx512=boringssl' -bench '^Benchmark(Seal|Open)$/AES-128/' ./aesgcm
//	go run ./ci/cmd/benchcmp -peers -pair '*=best-peer' -count 10 -bench Sign -o /tmp/rsa.txt ./rsa
//	go run ./ci/cmd/benchcmp -load /tmp/rsa.txt -pair 'ifma=best-peer,ifma=awslc'
//
// # Saved results
//
// -o FILE also writes every run's raw output, each block after a "side: base"
// or "side: head" line, so that it can be analyzed again with -load FILE
// (with or without -pair) or with benchstat itself: benchstat -col side FILE.
// -load also reads plain "go test -bench" output (treated as head), e.g. for
// -pair on results measured elsewhere:
//
//	go run ./ci/cmd/benchcmp -o /tmp/seal.txt -bench Seal ./aesgcm
//	go run ./ci/cmd/benchcmp -load /tmp/seal.txt
//	go test -run '^$' -bench Seal -count 6 ./aesgcm > /tmp/s.txt
//	go run ./ci/cmd/benchcmp -load /tmp/s.txt -pair stdlib
//
// A file written by -o starts with provenance lines (# benchcmp date, cpu
// with its family and model numbers, go, runs), so that a committed results
// file (ci/results/) says when, where and how it was measured.
//
// # Tables and charts for a README
//
// With -load, -bench REGEXP keeps only the results whose names match, and
// two outputs replace the report. -md FILE (- for standard output) writes,
// for -pair's pairs, one markdown table per reference: a row per benchmark
// parent (its next-to-last name element under the -md-row header, "bytes" by
// default; the elements before it label the row), the reference's median
// time, and per candidate its median per-round speed-up with the quartiles,
// after a caption line with the provenance. -svg FILE draws the throughput
// (B/s, from b.SetBytes) of one benchmark group against the message size,
// both axes logarithmic, one line per last name element, the -pair
// references dashed, the peers dotted. When every pair has the same
// candidate, named literally, and several references (-pair
// 'vaes-avx512=stdlib,vaes-avx512=best-peer'), -md writes one table turned
// around: the candidate's median time, then its per-round speed-up over each
// reference ("vs stdlib", "vs best-peer"). Tables with peers name each peer's
// version and code path. The README's speed tables and charts are these
// outputs, regenerated and checked by ci/cmd/readme:
//
//	go run ./ci/cmd/benchcmp -load ci/results/2026-12-02-zen4/aesgcm.txt -pair '*=stdlib' -bench '^Seal/AES-128/' -md -
//	go run ./ci/cmd/benchcmp -load ci/results/2026-12-02-zen4/aesgcm.txt -pair '*=stdlib' -bench '^Seal/AES-128/' -svg /tmp/seal.svg
//
// # Flags
//
//	-base REV       revision to compare the working tree against (default HEAD)
//	-pkg PATTERN    package pattern, repeatable or comma-separated; arguments
//	                after the flags are patterns too. Resolved from the current
//	                directory (the repository root for ./aesgcm), and from the
//	                same directory inside the base worktree.
//	-bench REGEXP   benchmarks to run, as go test -bench (default "."); with
//	                -load, the results to keep (names without "Benchmark")
//	-count N        rounds (default 6)
//	-benchtime T    per-run -test.benchtime, e.g. 2s or 10000x
//	-benchmem       report B/op and allocs/op
//	-timeout D      per-run -test.timeout (default: the test binary's 10m)
//	-taskset CPUS   pin the runs with taskset -c CPUS (default 1 when the
//	                machine has more than one CPU and taskset exists; "none"
//	                to not pin). GOMAXPROCS follows the pinning. (Not named
//	                -cpu: go test's -cpu sets GOMAXPROCS, which is different.)
//	-tags TAGS      build tags for both sides, e.g. purego
//	-env KEY=VAL    environment for the builds and runs of both sides,
//	                repeatable, e.g. -env VG_CPU_FEATURES=avx2,aes -env GOAMD64=v3
//	-tier NAME      hold vg and the peers to a tier's instruction set (see
//	                above); -tier list prints the tiers
//	-o FILE         also write the raw outputs to FILE
//	-pair CAND=REF  pair mode (see above), repeatable or comma-separated
//	-load FILE      analyze FILE instead of building and running
//	-md FILE        with -load and -pair: markdown speed tables (- for stdout)
//	-svg FILE       with -load: SVG chart of throughput by message size
//	-md-row NAME    header of the -md tables' row column (default "bytes")
//	-tiers GLOB     with -md: the table of the tier runs in the files GLOB
//	                matches (see Tiers above)
//	-peers          with -pair: run the peer harness too (see above)
//	-peers-dir DIR  the prebuilt BoringSSL and AWS-LC (default $VG_PEERS_DIR,
//	                else ../shared/peers from the repository root)
//
// GOWORK is removed from the environment of the builds and runs, so each
// side uses the go.work of its own tree. Progress goes to standard error,
// the report to standard output.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/vgcrypto/vg/ci/peers"
	"github.com/vgcrypto/vg/cpufeat"
	"golang.org/x/perf/benchfmt"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	wd, err := os.Getwd()
	if err == nil {
		err = run(ctx, os.Args[1:], wd, os.Stdout, os.Stderr)
	}
	stop()
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		os.Exit(2)
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		fmt.Fprintln(os.Stderr, "benchcmp: interrupted (temporary worktree and binaries removed)")
		os.Exit(130)
	default:
		fmt.Fprintf(os.Stderr, "benchcmp: %v\n", err)
		os.Exit(1)
	}
}

// listFlag is a repeatable flag whose values may also be comma-separated.
type listFlag struct {
	values []string
	split  bool // split values on commas
}

func (f *listFlag) String() string { return strings.Join(f.values, ",") }

func (f *listFlag) Set(v string) error {
	if !f.split {
		f.values = append(f.values, v)
		return nil
	}
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			f.values = append(f.values, s)
		}
	}
	return nil
}

// config is the parsed command line.
type config struct {
	base     string
	baseSet  bool // -base was given explicitly
	patterns []string
	pairs    []pairSpec
	load     string
	out      string
	tags     string
	env      []string // KEY=VAL from -env
	tier     *tier    // -tier: the instruction set vg and the peers are held to
	run      runOptions
	benchSet bool   // -bench was given explicitly (-load filters by it)
	md       string // -md: markdown speed tables of -load's pairs
	svg      string // -svg: throughput chart of -load's results
	mdRow    string // -md-row: header of the tables' row column
	peers    bool   // -peers: run the peer harness too
	peersDir string // -peers-dir: the prebuilt peers ("" for the default)
	// listTiers is -tier list: print the tiers and do nothing else.
	listTiers bool
	tiers     string // -tiers: a glob of results files, one per tier
}

// defaultTaskset returns the CPU to pin runs to by default: "1" when the
// machine has more than one CPU and taskset is installed, else "" (no
// pinning).
func defaultTaskset() string {
	if runtime.NumCPU() < 2 {
		return ""
	}
	if _, err := exec.LookPath("taskset"); err != nil {
		return ""
	}
	return "1"
}

// parseFlags parses the command line. Usage and flag errors go to stderr.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("benchcmp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./ci/cmd/benchcmp [flags] [-pkg] PATTERN...\n"+
			"Compares benchmarks of -base REV with the working tree, interleaved, or\n"+
			"sibling sub-benchmarks of one build with -pair CAND=REF.\n"+
			"See go doc ./ci/cmd/benchcmp. Flags:\n")
		fs.PrintDefaults()
	}
	cfg := &config{}
	pkgs := &listFlag{split: true}
	pairs := &listFlag{}
	env := &listFlag{}
	fs.StringVar(&cfg.base, "base", "HEAD", "git revision to compare the working tree against")
	fs.Var(pkgs, "pkg", "package `pattern`s (repeatable, comma-separated), e.g. ./aesgcm")
	fs.StringVar(&cfg.run.bench, "bench", ".", "run only benchmarks matching `regexp` (with -load: keep only the results whose names match)")
	fs.IntVar(&cfg.run.count, "count", 6, "number of interleaved `rounds`")
	fs.StringVar(&cfg.run.benchtime, "benchtime", "", "-test.benchtime of each run (e.g. 1s, 10000x)")
	fs.BoolVar(&cfg.run.benchmem, "benchmem", false, "report allocations (-test.benchmem)")
	fs.StringVar(&cfg.run.timeout, "timeout", "", "-test.timeout of each run")
	fs.StringVar(&cfg.run.taskset, "taskset", defaultTaskset(), "pin runs with taskset -c `cpus` (\"none\" to not pin)")
	fs.StringVar(&cfg.tags, "tags", "", "build `tags` for both sides")
	fs.Var(env, "env", "`KEY=VAL` environment for builds and runs (repeatable)")
	tierName := fs.String("tier", "", "hold vg and the peers to the instruction set of a `tier` of CPUs (list: print the tiers)")
	fs.StringVar(&cfg.out, "o", "", "also write the raw outputs to `file`")
	fs.Var(pairs, "pair", "compare sibling sub-benchmarks `CAND=REF` within one build (repeatable)")
	fs.StringVar(&cfg.tiers, "tiers", "", "with -md: one table of the results files matching `glob`, each made with -tier (vg against the fastest other implementation at each tier)")
	fs.StringVar(&cfg.load, "load", "", "analyze results `file` (from -o, or go test -bench output) instead of running")
	fs.StringVar(&cfg.md, "md", "", "with -load and -pair: write markdown speed tables to `file` (- for stdout) instead of the report")
	fs.StringVar(&cfg.svg, "svg", "", "with -load: write an SVG chart of throughput by message size to `file` instead of the report")
	fs.StringVar(&cfg.mdRow, "md-row", "bytes", "header of the row column of -md tables (the next-to-last name element)")
	fs.BoolVar(&cfg.peers, "peers", false, "with -pair: also run the peer harness (BoringSSL, AWS-LC, OpenSSL 3; ci/peers) in each round")
	fs.StringVar(&cfg.peersDir, "peers-dir", "", "with -peers: the prebuilt BoringSSL and AWS-LC (default $"+peers.DirEnv+", else ../shared/peers from the repository root)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "base":
			cfg.baseSet = true
		case "bench":
			cfg.benchSet = true
		}
	})
	cfg.patterns = append(pkgs.values, fs.Args()...)
	for _, p := range cfg.patterns {
		if strings.HasPrefix(p, "-") {
			return nil, fmt.Errorf("package pattern %q looks like a flag: flags go before the patterns", p)
		}
	}
	for _, kv := range env.values {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, fmt.Errorf("-env %q: want KEY=VAL", kv)
		}
	}
	cfg.env = env.values
	if *tierName != "" && *tierName != "list" {
		t, err := lookupTier(*tierName)
		if err != nil {
			return nil, err
		}
		for _, kv := range cfg.env {
			if k, _, _ := strings.Cut(kv, "="); t.VG != "" && (k == cpufeat.EnvVar || k == "OPENSSL_ia32cap") {
				return nil, fmt.Errorf("-tier %s sets %s itself: drop -env %s", t.Name, k, kv)
			}
		}
		if m := t.missing(cpufeat.Detected()); m != 0 {
			return nil, fmt.Errorf("-tier %s: this machine lacks %s (-tier list says which tiers it can run)", t.Name, m)
		}
		cfg.tier = &t
	}
	if cfg.listTiers = *tierName == "list"; cfg.listTiers {
		return cfg, nil
	}
	if cfg.tier != nil && cfg.load != "" {
		return nil, errors.New("-tier holds the runs to a tier: -load reads runs already made (their file names their tier)")
	}
	var err error
	if cfg.pairs, err = parsePairs(pairs.values); err != nil {
		return nil, err
	}
	if cfg.run.count < 1 {
		return nil, fmt.Errorf("-count %d: want at least 1", cfg.run.count)
	}
	if cfg.run.bench == "" {
		return nil, errors.New("-bench is empty: give a regexp, e.g. -bench . for all benchmarks")
	}
	switch cfg.run.taskset {
	case "none", "off":
		cfg.run.taskset = ""
	}
	switch {
	case cfg.tiers != "":
		if cfg.md == "" || cfg.load != "" || len(cfg.patterns) > 0 || cfg.svg != "" || len(cfg.pairs) > 0 || cfg.peers || cfg.tier != nil {
			return nil, errors.New("-tiers writes the table of tier runs already made: use it with -md FILE (and -bench, -md-row), without -load, -pair, -svg, -peers, -tier or packages")
		}
		return cfg, nil
	case cfg.load != "":
		if len(cfg.patterns) > 0 || cfg.baseSet || cfg.out != "" {
			return nil, errors.New("-load analyzes a results file: it takes no packages, -base or -o")
		}
	case len(cfg.patterns) == 0:
		return nil, errors.New("no packages: give package patterns, e.g. -pkg ./aesgcm or ./aesgcm ./rsa")
	}
	if (cfg.md != "" || cfg.svg != "") && cfg.load == "" {
		return nil, errors.New("-md and -svg write the tables and chart of a results file: use them with -load FILE (written by -o)")
	}
	if cfg.md != "" && len(cfg.pairs) == 0 {
		return nil, errors.New("-md writes speed-up tables: give -pair CAND=REF")
	}
	if cfg.md == "-" && cfg.svg == "-" {
		return nil, errors.New("-md and -svg cannot both write to standard output")
	}
	if len(cfg.pairs) > 0 && cfg.baseSet {
		return nil, errors.New("-pair compares sub-benchmarks within one build of the working tree; it cannot be combined with -base")
	}
	if cfg.peers && (len(cfg.pairs) == 0 || cfg.load != "") {
		return nil, errors.New("-peers runs the peer harness beside the working tree's benchmarks: use it with -pair (e.g. -pair 'vaes-avx512=best-peer') and without -load")
	}
	if cfg.peersDir != "" && !cfg.peers {
		return nil, errors.New("-peers-dir needs -peers")
	}
	if cfg.run.taskset != "" && cfg.load == "" {
		if _, err := exec.LookPath("taskset"); err != nil {
			return nil, fmt.Errorf("-taskset %s: taskset not found in PATH (use -taskset none)", cfg.run.taskset)
		}
	}
	return cfg, nil
}

// run is benchcmp with its command line, working directory and outputs as
// arguments: the report goes to stdout, progress and warnings to stderr.
func run(ctx context.Context, args []string, dir string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if cfg.listTiers {
		return writeTiers(stdout, cpufeat.Detected())
	}
	if cfg.tiers != "" {
		if cfg.md == "-" {
			return writeTierTable(cfg, stdout)
		}
		var b strings.Builder
		if err := writeTierTable(cfg, &b); err != nil {
			return err
		}
		return os.WriteFile(cfg.md, []byte(b.String()), 0o644)
	}
	if cfg.load != "" {
		return runLoad(cfg, stdout, stderr)
	}
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	cfg.run.env = goEnv(cfg.env)
	if cfg.tier != nil {
		cfg.run.env = append(cfg.run.env, cfg.tier.env()...)
	}
	if len(cfg.pairs) > 0 {
		return runPair(ctx, cfg, dir, stdout, stderr)
	}
	return runCompare(ctx, cfg, dir, stdout, stderr)
}

// runLoad analyzes a results file.
func runLoad(cfg *config, stdout, stderr io.Writer) error {
	f, err := os.Open(cfg.load)
	if err != nil {
		return err
	}
	defer f.Close()
	meta := make(benchfmt.UnitMetadataMap)
	base, head, warnings, err := loadFile(f, cfg.load, meta)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "benchcmp: warning: %s\n", w)
	}
	if wantsBestPeer(cfg.pairs) {
		addBestPeer(head, meta)
		addBestPeer(base, meta)
	}
	if cfg.benchSet {
		re, err := regexp.Compile(cfg.run.bench)
		if err != nil {
			return fmt.Errorf("-bench: %v", err)
		}
		base, head = filterSet(base, re), filterSet(head, re)
	}
	if cfg.md != "" || cfg.svg != "" {
		set := head
		if len(set.benches) == 0 {
			set = base
		}
		if len(set.benches) == 0 {
			return fmt.Errorf("%s: no benchmark results (after -bench %q)", cfg.load, cfg.run.bench)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		return writeFigures(cfg, set, readProvenance(f), stdout)
	}
	header := []string{"results: " + cfg.load}
	if len(cfg.pairs) > 0 {
		set := head
		if len(set.benches) == 0 {
			set = base
		}
		if len(set.benches) == 0 {
			return fmt.Errorf("%s: no benchmark results", cfg.load)
		}
		groups, err := pairReport(set, cfg.pairs, meta)
		if err != nil {
			return err
		}
		return writeReport(stdout, append(header, envHeader(set)...), groups)
	}
	if len(base.benches) == 0 || len(head.benches) == 0 {
		return fmt.Errorf("%s: needs results of both sides (side: base and side: head lines, as -o writes them); has %d base and %d head benchmarks (use -pair to compare within one side)",
			cfg.load, len(base.benches), len(head.benches))
	}
	return writeReport(stdout, append(header, envHeader(base, head)...), compareReport(base, head, meta))
}

// runHeader describes how the runs were made.
func runHeader(cfg *config) string {
	s := fmt.Sprintf("runs: %d interleaved rounds, -bench %q", cfg.run.count, cfg.run.bench)
	if len(cfg.pairs) > 0 {
		s = fmt.Sprintf("runs: %d rounds, -bench %q", cfg.run.count, cfg.run.bench)
	}
	if cfg.run.benchtime != "" {
		s += " -benchtime " + cfg.run.benchtime
	}
	if cfg.tags != "" {
		s += " -tags " + cfg.tags
	}
	for _, kv := range cfg.env {
		s += " " + kv
	}
	if cfg.tier != nil {
		s += " -tier " + cfg.tier.Name
	}
	if cfg.peers {
		s += ", peers (ci/peers) after vg in each round"
	}
	if cfg.run.taskset != "" {
		s += ", pinned with taskset -c " + cfg.run.taskset
	}
	return s
}

// openRaw creates the -o file, or returns nil if there is none.
func openRaw(cfg *config) (*os.File, error) {
	if cfg.out == "" {
		return nil, nil
	}
	return os.Create(cfg.out)
}

// runCompare is base-versus-head mode.
func runCompare(ctx context.Context, cfg *config, dir string, stdout, stderr io.Writer) (err error) {
	root, err := repoRoot(ctx, dir)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("%s is not inside the repository at %s", dir, root)
	}
	sha, err := resolveRev(ctx, root, cfg.base)
	if err != nil {
		return err
	}
	head := tree{side: "head", desc: describeWorkingTree(ctx, root), root: root, dir: dir}
	base := tree{side: "base", desc: describeCommit(ctx, root, sha)} // root and dir once checked out
	if cfg.base != sha && !strings.HasPrefix(sha, cfg.base) {
		base.desc += " [" + cfg.base + "]"
	}

	// List the head packages first: a bad pattern fails before checkout.
	patterns := normalizePatterns(dir, cfg.patterns)
	headPkgs, skipped, err := listPackages(ctx, head, patterns, cfg.tags, cfg.run.env, false)
	if err != nil {
		return err
	}
	for _, p := range skipped {
		fmt.Fprintf(stderr, "benchcmp: %s has no test files; skipping it\n", p)
	}

	tmp, err := os.MkdirTemp("", "benchcmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintf(stderr, "benchcmp: checking out %s into a temporary worktree\n", base.desc)
	wt, err := addWorktree(ctx, root, filepath.Join(tmp, "base"), sha)
	if err != nil {
		return err
	}
	defer func() {
		if rmErr := wt.remove(); rmErr != nil {
			fmt.Fprintf(stderr, "benchcmp: %v\n", rmErr)
			if err == nil {
				err = rmErr
			}
		}
	}()
	base.root = wt.dir
	base.dir = filepath.Join(wt.dir, rel)
	if _, statErr := os.Stat(base.dir); statErr != nil {
		return fmt.Errorf("%s: directory %s does not exist at the base revision", base.name(), filepath.ToSlash(rel))
	}
	basePkgs, _, err := listPackages(ctx, base, patterns, cfg.tags, cfg.run.env, true)
	if err != nil {
		return err
	}
	if len(headPkgs) == 0 && len(basePkgs) == 0 {
		return fmt.Errorf("no packages with test files match %s", strings.Join(cfg.patterns, " "))
	}

	// Build, base first: it is the side most likely to fail.
	baseSet, headSet := newResultSet(), newResultSet()
	baseByRel := make(map[string]*target)
	for i, p := range basePkgs {
		fmt.Fprintf(stderr, "benchcmp: building %s %s\n", base.side, p.ImportPath)
		bin := filepath.Join(tmp, fmt.Sprintf("base-%d.test", i))
		if err := buildTest(ctx, base, p, bin, cfg.tags, cfg.run.env); err != nil {
			return err
		}
		baseByRel[p.Rel] = &target{tree: base, pkg: p, bin: bin, set: baseSet}
	}
	var targets []*target
	for i, p := range headPkgs {
		fmt.Fprintf(stderr, "benchcmp: building %s %s\n", head.side, p.ImportPath)
		bin := filepath.Join(tmp, fmt.Sprintf("head-%d.test", i))
		if err := buildTest(ctx, head, p, bin, cfg.tags, cfg.run.env); err != nil {
			return err
		}
		if b, ok := baseByRel[p.Rel]; ok {
			targets = append(targets, b)
			delete(baseByRel, p.Rel)
		} else {
			fmt.Fprintf(stderr, "benchcmp: %s does not exist at base; measuring head only\n", p.ImportPath)
		}
		targets = append(targets, &target{tree: head, pkg: p, bin: bin, set: headSet})
	}
	for _, p := range basePkgs {
		if b, ok := baseByRel[p.Rel]; ok {
			fmt.Fprintf(stderr, "benchcmp: %s exists only at base; measuring base only\n", p.ImportPath)
			targets = append(targets, b)
		}
	}

	raw, err := openRaw(cfg)
	if err != nil {
		return err
	}
	var rawW io.Writer
	if raw != nil {
		defer raw.Close()
		rawW = raw
		fmt.Fprintf(raw, "# benchcmp base: %s\n# benchcmp head: %s\n", base.desc, head.desc)
		writeProvenance(raw, cfg, time.Now())
	}
	meta := make(benchfmt.UnitMetadataMap)
	if err := runRounds(ctx, cfg.run, targets, rawW, stderr, meta); err != nil {
		return err
	}
	if raw != nil {
		if err := raw.Close(); err != nil {
			return err
		}
	}
	header := []string{"base: " + base.desc, "head: " + head.desc}
	header = append(header, envHeader(baseSet, headSet)...)
	header = append(header, runHeader(cfg))
	return writeReport(stdout, header, compareReport(baseSet, headSet, meta))
}

// runPair is pair mode: one build of the working tree, sibling
// sub-benchmarks compared with each other.
func runPair(ctx context.Context, cfg *config, dir string, stdout, stderr io.Writer) error {
	head := tree{side: "head", root: dir, dir: dir}
	if root, err := repoRoot(ctx, dir); err == nil {
		head.root = root
		head.desc = describeWorkingTree(ctx, root)
	}
	patterns := normalizePatterns(dir, cfg.patterns)
	pkgs, skipped, err := listPackages(ctx, head, patterns, cfg.tags, cfg.run.env, false)
	if err != nil {
		return err
	}
	for _, p := range skipped {
		fmt.Fprintf(stderr, "benchcmp: %s has no test files; skipping it\n", p)
	}
	if len(pkgs) == 0 {
		return fmt.Errorf("no packages with test files match %s", strings.Join(cfg.patterns, " "))
	}
	tmp, err := os.MkdirTemp("", "benchcmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	set := newResultSet()
	var targets []*target
	for i, p := range pkgs {
		fmt.Fprintf(stderr, "benchcmp: building %s\n", p.ImportPath)
		bin := filepath.Join(tmp, fmt.Sprintf("head-%d.test", i))
		if err := buildTest(ctx, head, p, bin, cfg.tags, cfg.run.env); err != nil {
			return err
		}
		targets = append(targets, &target{tree: head, pkg: p, bin: bin, set: set})
	}
	var peerBins []*peers.Binary
	if cfg.peers {
		if targets, peerBins, err = peerTargets(ctx, cfg, head.root, tmp, targets, stderr); err != nil {
			return err
		}
	}
	raw, err := openRaw(cfg)
	if err != nil {
		return err
	}
	var rawW io.Writer
	if raw != nil {
		defer raw.Close()
		rawW = raw
		fmt.Fprintf(raw, "# benchcmp head: %s\n", head.desc)
		writeProvenance(raw, cfg, time.Now())
		writePeerProvenance(raw, peerBins)
	}
	meta := make(benchfmt.UnitMetadataMap)
	if err := runRounds(ctx, cfg.run, targets, rawW, stderr, meta); err != nil {
		return err
	}
	if raw != nil {
		if err := raw.Close(); err != nil {
			return err
		}
	}
	if wantsBestPeer(cfg.pairs) {
		addBestPeer(set, meta)
	}
	groups, err := pairReport(set, cfg.pairs, meta)
	if err != nil {
		return err
	}
	header := []string{"build: " + head.name()}
	header = append(header, envHeader(set)...)
	header = append(header, runHeader(cfg))
	return writeReport(stdout, header, groups)
}
