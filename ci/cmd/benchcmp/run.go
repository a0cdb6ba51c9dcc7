package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
)

// runOptions says how to run the test binaries.
type runOptions struct {
	bench     string   // -test.bench
	benchtime string   // -test.benchtime, "" for the default
	benchmem  bool     // -test.benchmem
	timeout   string   // -test.timeout, "" for the default
	count     int      // rounds
	taskset   string   // CPU list for taskset -c, "" to not pin
	env       []string // full environment of the runs
}

// testArgs returns the test binary's arguments for one run.
func (o runOptions) testArgs() []string {
	args := []string{"-test.run", "^$", "-test.bench", o.bench, "-test.count", "1"}
	if o.benchtime != "" {
		args = append(args, "-test.benchtime", o.benchtime)
	}
	if o.benchmem {
		args = append(args, "-test.benchmem")
	}
	if o.timeout != "" {
		args = append(args, "-test.timeout", o.timeout)
	}
	return args
}

// command returns the command line of one run of bin, pinned with taskset
// when o.taskset is set.
func (o runOptions) command(bin string) []string {
	cmd := append([]string{bin}, o.testArgs()...)
	if o.taskset != "" {
		cmd = append([]string{"taskset", "-c", o.taskset}, cmd...)
	}
	return cmd
}

// target is one test binary of one side, or the peer harness built against
// one peer (peer and args set), run beside the test binary of pkg.
type target struct {
	tree tree
	pkg  testPkg
	bin  string
	set  *resultSet // where its results go
	peer string     // the peer's name, for the peer harness
	args []string   // the peer harness's arguments
}

// label names the target in progress lines: its side, or its peer.
func (t *target) label() string {
	if t.peer != "" {
		return t.peer
	}
	return t.tree.side
}

// argv returns the command line of one run of t, pinned with taskset when
// o.taskset is set.
func (t *target) argv(o runOptions) []string {
	if t.peer == "" {
		return o.command(t.bin)
	}
	cmd := append([]string{t.bin}, t.args...)
	if o.taskset != "" {
		cmd = append([]string{"taskset", "-c", o.taskset}, cmd...)
	}
	return cmd
}

// errNoMatch reports that -bench matched no benchmark at all.
var errNoMatch = errors.New("no benchmarks matched")

// runTarget runs t once and adds its results to t.set, appending the raw
// output to raw (if not nil) after a "side:" line. It returns the number of
// results and the lines of the output that did not parse.
func runTarget(ctx context.Context, o runOptions, t *target, round int, raw io.Writer, meta benchfmt.UnitMetadataMap) (int, []string, error) {
	argv := t.argv(o)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = t.pkg.Dir // tests find their testdata
	cmd.Env = o.env
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return 0, nil, ctx.Err()
	}
	if err != nil {
		what := t.tree.name()
		if t.peer != "" {
			what = "peer " + t.peer
		}
		return 0, nil, fmt.Errorf("%s: benchmarks of %s failed in round %d: %v\ncommand: %s\n%s", what, t.pkg.ImportPath, round, err, strings.Join(argv, " "), tail(stdout.String()+stderr.String(), 60))
	}
	if raw != nil {
		peer := ""
		if t.peer != "" {
			peer = " peer " + t.peer
		}
		if _, err := fmt.Fprintf(raw, "%s: %s\n# round %d/%d ./%s%s\n%s", sideConfigKey, t.tree.side, round, o.count, t.pkg.Rel, peer, stdout.Bytes()); err != nil {
			return 0, nil, fmt.Errorf("writing raw output: %w", err)
		}
	}
	n := 0
	name := fmt.Sprintf("%s round %d %s", t.label(), round, t.pkg.ImportPath)
	warnings, err := parseResults(&stdout, name, meta, func(*benchfmt.Result) *resultSet {
		n++
		return t.set
	})
	return n, warnings, err
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	return fmt.Sprintf("[... %d lines omitted]\n%s", len(lines)-n, strings.Join(lines[len(lines)-n:], "\n"))
}

// runRounds runs the targets o.count times, interleaved: in each round every
// target runs once, in order (base then head for each package), so slow
// drifts of the machine hit both sides alike. After the first round,
// packages in which -bench matched nothing on any side are dropped, and if
// nothing matched anywhere it returns an error wrapping errNoMatch.
func runRounds(ctx context.Context, o runOptions, targets []*target, raw io.Writer, progress io.Writer, meta benchfmt.UnitMetadataMap) error {
	active := targets
	for round := 1; round <= o.count; round++ {
		perPkg := make(map[string]int)
		for _, t := range active {
			start := time.Now()
			n, warnings, err := runTarget(ctx, o, t, round, raw, meta)
			if err != nil {
				return err
			}
			for _, w := range warnings {
				fmt.Fprintf(progress, "benchcmp: warning: %s\n", w)
			}
			perPkg[t.pkg.ImportPath] += n
			fmt.Fprintf(progress, "benchcmp: round %d/%d %-4s %s: %d results, %.1fs\n", round, o.count, t.label(), t.pkg.ImportPath, n, time.Since(start).Seconds())
		}
		if round > 1 {
			continue
		}
		var kept []*target
		var dropped []string
		for _, t := range active {
			if perPkg[t.pkg.ImportPath] > 0 {
				kept = append(kept, t)
			} else if len(dropped) == 0 || dropped[len(dropped)-1] != t.pkg.ImportPath {
				dropped = append(dropped, t.pkg.ImportPath)
			}
		}
		if len(kept) == 0 {
			var pkgs []string
			for _, t := range active {
				if len(pkgs) == 0 || pkgs[len(pkgs)-1] != t.pkg.ImportPath {
					pkgs = append(pkgs, t.pkg.ImportPath)
				}
			}
			return fmt.Errorf("%w -bench %q in %s", errNoMatch, o.bench, strings.Join(pkgs, ", "))
		}
		for _, p := range dropped {
			fmt.Fprintf(progress, "benchcmp: no benchmark of %s matches -bench %q; skipping it\n", p, o.bench)
		}
		active = kept
	}
	return nil
}
