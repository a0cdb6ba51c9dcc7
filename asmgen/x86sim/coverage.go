package x86sim

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vgcrypto/vg/internal/vgsim"
)

// computeBlocks finds the basic blocks of fn: an instruction starts one when
// it is the first, a branch target, or follows a branch or RET.
func (fn *Func) computeBlocks() {
	lead := map[int]string{0: "entry"}
	for name, at := range fn.labels {
		if at < len(fn.insts) {
			if prev, ok := lead[at]; !ok || prev == "entry" || prev > name && !strings.HasPrefix(prev, "after") {
				lead[at] = name
			}
		}
	}
	for i, in := range fn.insts {
		if (in.target >= 0 || in.op == "RET") && i+1 < len(fn.insts) {
			if _, ok := lead[i+1]; !ok {
				lead[i+1] = fmt.Sprintf("after line %d", in.line)
			}
		}
	}
	fn.leaders = fn.leaders[:0]
	for at := range lead {
		fn.leaders = append(fn.leaders, at)
	}
	sort.Ints(fn.leaders)
	fn.blockName = make([]string, len(fn.leaders))
	for i, at := range fn.leaders {
		fn.blockName[i] = lead[at]
	}
	fn.hit = make([]bool, len(fn.leaders))
}

var coverMu sync.Mutex

// mergeHits records which of fn's blocks the call ran.
func (m *Machine) mergeHits() {
	fn := m.fn
	coverMu.Lock()
	for i, at := range fn.leaders {
		if m.hit[at] {
			fn.hit[i] = true
		}
	}
	coverMu.Unlock()
}

// Stats counts the model's work over every call in this process.
var Stats stats

type stats struct {
	calls, insts, nanos atomic.Uint64
}

func (s *stats) add(m *Machine) {
	s.calls.Add(1)
	s.insts.Add(m.steps)
	s.nanos.Add(uint64(time.Since(m.start)))
	m.mergeHits()
}

// Time returns the time spent running calls so far (summed over goroutines).
func (s *stats) Time() time.Duration { return time.Duration(s.nanos.Load()) }

// String summarizes the counts: calls, instructions, time and rate.
func (s *stats) String() string {
	d := s.Time()
	rate := 0.0
	if d > 0 {
		rate = float64(s.Instructions()) / d.Seconds() / 1e6
	}
	return fmt.Sprintf("x86sim: %d calls, %d instructions in %v (%.1f M instructions/s)", s.Calls(), s.Instructions(), d.Round(time.Millisecond), rate)
}

// Calls returns the number of calls run so far.
func (s *stats) Calls() uint64 { return s.calls.Load() }

// Instructions returns the number of instructions run so far.
func (s *stats) Instructions() uint64 { return s.insts.Load() }

var (
	registryMu sync.Mutex
	registry   []*Program
)

// The model of the generated trampolines: vgsim.Load's programs are this
// package's, each registered for coverage.
func init() {
	vgsim.SetModel(func(file string, src []byte) (any, func(string, Frame, ...Region), error) {
		p, err := Load(file, src)
		if err != nil {
			return nil, nil, err
		}
		register(p)
		return p, p.Call, nil
	})
}

// register adds p to the programs whose coverage WriteCoverage reports.
func register(p *Program) {
	registryMu.Lock()
	registry = append(registry, p)
	registryMu.Unlock()
}

// A CoverageRecord is one basic block of one function and whether it ran; the
// lines of a coverage file.
type CoverageRecord struct {
	File  string `json:"file"`
	Func  string `json:"func"`
	Block int    `json:"block"`
	Name  string `json:"name"`
	Line  int    `json:"line"`
	Hit   bool   `json:"hit"`
}

// CoverageRecords returns the block coverage of every program of the
// generated trampolines (vgsim.Load) in this process, run or not.
func CoverageRecords() []CoverageRecord {
	for _, p := range vgsim.Programs() {
		p.Model()
	}
	registryMu.Lock()
	ps := append([]*Program(nil), registry...)
	registryMu.Unlock()
	coverMu.Lock()
	defer coverMu.Unlock()
	var out []CoverageRecord
	for _, p := range ps {
		for _, name := range p.funcNames() {
			fn := p.funcs[name]
			for i, at := range fn.leaders {
				out = append(out, CoverageRecord{File: fn.File, Func: fn.Name, Block: i, Name: fn.blockName[i], Line: fn.insts[at].line, Hit: fn.hit[i]})
			}
		}
	}
	return out
}

// WriteCoverage writes CoverageRecords to path as JSON lines, for tools that
// merge the coverage of several test processes (ci/cmd/simcover).
func WriteCoverage(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range CoverageRecords() {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// CoverageFromEnv writes the coverage to a new file in the directory named by
// the environment variable VG_SIM_COVERAGE, if it is set; test binaries call
// it from TestMain after m.Run. prefix names the file (a package path).
func CoverageFromEnv(prefix string) error {
	dir := os.Getenv("VG_SIM_COVERAGE")
	if dir == "" {
		return nil
	}
	f, err := os.CreateTemp(dir, strings.NewReplacer("/", "_", ".", "_").Replace(prefix)+"-*.jsonl")
	if err != nil {
		return err
	}
	f.Close()
	return WriteCoverage(f.Name())
}

func (p *Program) funcNames() []string {
	var out []string
	for n := range p.funcs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// RunTests is the body of a vgsim test binary's TestMain: it runs the tests
// (m is the *testing.M), prints the model's counts when VG_SIM_STATS is set,
// writes the coverage to VG_SIM_COVERAGE (see [CoverageFromEnv]) under the
// package name pkg, and returns the exit code for os.Exit.
func RunTests(m interface{ Run() int }, pkg string) int {
	code := m.Run()
	// Under valgrind's memcheck (build tag valgrind): which functions had
	// their arguments checked against their callers, for ci/cmd/ctgrind.
	fmt.Print(valgrindReport())
	if os.Getenv("VG_SIM_STATS") != "" {
		fmt.Fprintln(os.Stderr, Stats.String())
	}
	if err := CoverageFromEnv(pkg); err != nil {
		fmt.Fprintln(os.Stderr, "x86sim coverage:", err)
		code = 1
	}
	return code
}
