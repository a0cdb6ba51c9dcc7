//go:build amd64 && !purego

package probes

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/asmgen/internal/probes/forms"
	"github.com/vgcrypto/vg/asmgen/x86sim"
	"github.com/vgcrypto/vg/cpufeat"
)

//go:embed probes_amd64.s
var probesAsm []byte

// randomInputs is the number of random inputs per probe, besides the
// len(edges)² edge inputs.
func randomInputs() int {
	if testing.Short() {
		return 100
	}
	return 1000
}

// chunk is one probe function's text; line is the line of probes_amd64.s
// it starts at.
type chunk struct {
	name string
	line int
	src  []byte
}

func splitProbes(src []byte) map[string]chunk {
	lines := strings.Split(string(src), "\n")
	out := map[string]chunk{}
	start, name := -1, ""
	flush := func(end int) {
		if start >= 0 {
			text := strings.Join(lines[start:end], "\n") + "\n"
			out[name] = chunk{name: name, line: start + 1, src: []byte(text)}
		}
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "TEXT ·") {
			flush(i)
			start = i
			name = strings.TrimPrefix(l, "TEXT ·")
			name = name[:strings.Index(name, "(SB)")]
		}
	}
	flush(len(lines))
	return out
}

// models loads each probe function on its own, so that a form the model
// does not know fails its probe alone.
var models = sync.OnceValues(func() (map[string]*x86sim.Program, map[string]error) {
	progs, errs := map[string]*x86sim.Program{}, map[string]error{}
	for name, c := range splitProbes(probesAsm) {
		// The model's line numbers count from the function's TEXT line:
		// "probes_amd64.s[2414+]:23" is line 2437 of the file.
		p, err := x86sim.Load(fmt.Sprintf("probes_amd64.s[%d+]", c.line-1), c.src)
		if err != nil {
			errs[name] = err
			continue
		}
		progs[name] = p
	}
	return progs, errs
})

type result struct {
	native   bool
	inputs   int
	loadErr  error
	fault    string
	mismatch string
}

type buffers struct {
	in, outN, outM []byte
	out0           []byte
}

// tail returns the last n bytes of the page b: the buffer ends where the
// unmapped page begins.
func tail(b []byte, n int) []byte { return b[len(b)-n:] }

// run runs probe p on every input, natively when the CPU can, and on the
// model.
func run(p *probe, prog *x86sim.Program, bufs *buffers, nRandom int, native bool) result {
	r := result{native: native}
	in := tail(bufs.in, p.inLen)
	outN, outM := tail(bufs.outN, p.outLen), tail(bufs.outM, p.outLen)
	out0 := bufs.out0[:p.outLen]
	rng := rand.New(rand.NewPCG(0x70726f6265, uint64(len(p.name))<<32|uint64(p.inLen)))
	nEdge := len(edges) * len(edges)
	if p.harness == 32 && primaryNative(p) {
		// A ymm-harness twin, for CPUs without AVX-512, of a probe this
		// one runs: the edge inputs suffice.
		nRandom = 0
	}
	for i := 0; i < nEdge+nRandom; i++ {
		if i < nEdge {
			p.edgeInput(in, i)
		} else {
			p.randomInput(in, rng)
		}
		randomBytes(out0, rng)
		copy(outN, out0)
		copy(outM, out0)
		if native {
			p.fn(&in[0], &outN[0])
		}
		args := struct{ in, out unsafe.Pointer }{unsafe.Pointer(&in[0]), unsafe.Pointer(&outM[0])}
		err := prog.Run(p.name, x86sim.Frame{Ptr: unsafe.Pointer(&args), Size: unsafe.Sizeof(args), Results: unsafe.Sizeof(args)},
			x86sim.Region{Name: "in", Ptr: unsafe.Pointer(&in[0]), Len: uintptr(p.inLen), Kind: x86sim.Public, ReadOnly: true},
			x86sim.Region{Name: "out", Ptr: unsafe.Pointer(&outM[0]), Len: uintptr(p.outLen), Kind: x86sim.Output})
		r.inputs++
		if err != nil {
			r.fault = fmt.Sprintf("model fault on %s: %v\n%s", inputName(i, nEdge), err, p.describe("input", in, p.in))
			return r
		}
		if native {
			if d := p.diff(in, out0, outN, outM); d != "" {
				r.mismatch = fmt.Sprintf("%s (%s form %s): %s: native and model differ:\n%s%s",
					p.inst, p.origin, p.form, inputName(i, nEdge), p.describe("input", in, p.in), d)
				return r
			}
		}
	}
	return r
}

func randomBytes(b []byte, rng *rand.Rand) {
	for j := 0; j < len(b); j += 8 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], rng.Uint64())
		copy(b[j:], w[:])
	}
}

func inputName(i, nEdge int) string {
	if i < nEdge {
		return fmt.Sprintf("edge input %d", i)
	}
	return fmt.Sprintf("random input %d", i-nEdge)
}

// hexLE formats little-endian bytes as 64-bit words, the highest first.
func hexLE(b []byte) string {
	if len(b) < 8 {
		var s []string
		for i := len(b) - 1; i >= 0; i-- {
			s = append(s, fmt.Sprintf("%02x", b[i]))
		}
		return "0x" + strings.Join(s, "")
	}
	var words []string
	for i := len(b) - 8; i >= 0; i -= 8 {
		words = append(words, fmt.Sprintf("%016x", binary.LittleEndian.Uint64(b[i:])))
	}
	if r := len(b) % 8; r != 0 {
		words = append([]string{hexLE(b[len(b)-r:])}, words...)
	}
	return strings.Join(words, "_")
}

func (p *probe) describe(what string, buf []byte, slots []slot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s:\n", what)
	for _, s := range slots {
		fmt.Fprintf(&b, "    %-6s %s\n", s.name, hexLE(buf[s.off:s.off+s.size]))
	}
	return b.String()
}

// diff compares the native and model outputs, flags the SDM leaves
// undefined excepted.
func (p *probe) diff(in, out0, outN, outM []byte) string {
	defined := p.definedFlags(in)
	var b strings.Builder
	for i, s := range p.out {
		if i < 5 && defined>>i&1 == 0 {
			continue // an undefined flag: out bytes 0-4 are CF PF ZF SF OF
		}
		n, m := outN[s.off:s.off+s.size], outM[s.off:s.off+s.size]
		if !bytes.Equal(n, m) {
			fmt.Fprintf(&b, "    %-6s native %s\n    %-6s model  %s\n", s.name, hexLE(n), "", hexLE(m))
			if s.name == "mem" {
				fmt.Fprintf(&b, "    %-6s before %s\n", "", hexLE(out0[s.off:s.off+s.size]))
			}
		}
	}
	return b.String()
}

// primaryNative reports whether the zmm-harness probe of twin's instruction
// runs natively here.
func primaryNative(twin *probe) bool {
	for i := range table {
		p := &table[i]
		if p.harness == 64 && p.inst == twin.inst && p.form == twin.form {
			return canRun(p)
		}
	}
	return false
}

// canRun reports whether the probe can run natively: the CPU has its
// features, and VG_CPU_FEATURES does not withhold them. Under the build tag
// vgsim cpufeat reports the model's features, not the CPU's: nothing runs
// natively then.
func canRun(p *probe) bool {
	return !cpufeat.Simulated() && cpufeat.Enabled().HasAll(p.feats)
}

var results = sync.OnceValue(func() map[string]result {
	// The model allocates its regions' shadow state on every call: collect
	// less often.
	defer debug.SetGCPercent(debug.SetGCPercent(800))
	progs, loadErrs := models()
	out := make(map[string]result, len(table))
	var mu sync.Mutex
	work := make(chan *probe)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The goroutine owns its buffers; they live as long as the
			// test binary.
			bufs := &buffers{in: pageFor(), outN: pageFor(), outM: pageFor(), out0: make([]byte, 4096)}
			for p := range work {
				var r result
				if err := loadErrs[p.name]; err != nil {
					r.loadErr = err
				} else {
					r = run(p, progs[p.name], bufs, randomInputs(), canRun(p))
				}
				mu.Lock()
				out[p.name] = r
				mu.Unlock()
			}
		}()
	}
	for i := range table {
		work <- &table[i]
	}
	close(work)
	wg.Wait()
	return out
})

// pageFor is guardedPage for the test's lifetime.
func pageFor() []byte { return guardedPage(keepTB{}) }

// keepTB is a testing.TB whose cleanups never run (the pages live until the
// process exits) and whose failures panic.
type keepTB struct{ testing.TB }

func (keepTB) Cleanup(func())            {}
func (keepTB) Fatal(args ...any)         { panic(fmt.Sprint(args...)) }
func (keepTB) Helper()                   {}
func (keepTB) Fatalf(f string, a ...any) { panic(fmt.Sprintf(f, a...)) }

// TestProbesMatchHardware runs every probe natively (where the CPU has its
// features) and on the model, over the edge and random inputs, and requires
// identical outputs.
func TestProbesMatchHardware(t *testing.T) {
	start := time.Now()
	res := results()
	native, inputs := 0, 0
	for i := range table {
		p := &table[i]
		r := res[p.name]
		if r.native {
			native++
			inputs += r.inputs
		}
		t.Run(p.name, func(t *testing.T) {
			switch {
			case r.loadErr != nil:
				t.Errorf("%s (%s form %s) is not modeled: %v", p.inst, p.origin, p.form, r.loadErr)
			case r.fault != "":
				t.Errorf("%s (%s form %s): %s", p.inst, p.origin, p.form, r.fault)
			case r.mismatch != "":
				t.Error(r.mismatch)
			}
		})
	}
	// A form is validated here when each of its probes ran natively, or
	// its ymm-harness twin did.
	var missing []string
	seen := map[string]bool{}
	for i := range table {
		p := &table[i]
		if p.harness == 32 || res[p.name].native || seen[p.form] {
			continue
		}
		twin := false
		for j := range table {
			q := &table[j]
			if q.harness == 32 && q.inst == p.inst && q.form == p.form && res[q.name].native {
				twin = true
			}
		}
		if !twin {
			seen[p.form] = true
			missing = append(missing, p.form+" ("+p.feats.Without(cpufeat.Enabled()).String()+")")
		}
	}
	if len(missing) > 0 {
		why := ""
		if cpufeat.Simulated() {
			why = " (built with -tags vgsim: cpufeat reports the model's features)"
		}
		t.Logf("not validated on this CPU%s: %s", why, strings.Join(missing, "; "))
	}
	t.Logf("%d probes, %d ran natively over %d inputs in all (%d edge + %d random each), in %v",
		len(table), native, inputs, len(edges)*len(edges), randomInputs(), time.Since(start).Round(time.Millisecond))
}

// TestModelRunsEveryProbe requires every probe to load and run on the model
// without a fault, natively runnable or not.
func TestModelRunsEveryProbe(t *testing.T) {
	res := results()
	var bad []string
	byForm := map[string]bool{}
	for i := range table {
		p := &table[i]
		r := res[p.name]
		msg := ""
		switch {
		case r.loadErr != nil:
			msg = "not modeled: " + r.loadErr.Error()
		case r.fault != "":
			msg = strings.SplitN(r.fault, "\n", 2)[0]
		default:
			continue
		}
		if !byForm[p.form] {
			byForm[p.form] = true
			bad = append(bad, fmt.Sprintf("%s (%s): %s", p.form, p.inst, msg))
		}
	}
	sort.Strings(bad)
	assert.Empty(t, bad, "%d forms do not run on the model", len(bad))
}

// TestEveryCommittedFormHasAProbe requires a probe for every form the
// committed assembly uses, so that a new backend cannot add one unprobed.
func TestEveryCommittedFormHasAProbe(t *testing.T) {
	insts, err := forms.Committed(filepath.Join("..", "..", ".."))
	require.NoError(t, err)
	have := map[string]bool{}
	for i := range table {
		have[table[i].form] = true
	}
	var missing []string
	seen := map[string]bool{}
	for _, in := range insts {
		if f := in.Form(); !have[f] && !seen[f] {
			seen[f] = true
			missing = append(missing, fmt.Sprintf("%s (%s:%d)", f, in.File, in.Line))
		}
	}
	sort.Strings(missing)
	assert.Empty(t, missing, "forms of the committed assembly without a probe: regenerate with cd asmgen/internal/probes/_asm && GOWORK=off go run .")
}

// TestTableMatchesAssembly checks the generated table against the assembly:
// every probe function exists and contains its instruction.
func TestTableMatchesAssembly(t *testing.T) {
	chunks := splitProbes(probesAsm)
	require.Len(t, chunks, len(table))
	for i := range table {
		p := &table[i]
		c, ok := chunks[p.name]
		if !assert.True(t, ok, "no function %s", p.name) {
			continue
		}
		insts, err := forms.Parse("probes_amd64.s", c.src)
		require.NoError(t, err)
		found := false
		for _, in := range insts {
			var args []string
			for _, a := range in.Args {
				args = append(args, a.Text)
			}
			text := in.Op
			if len(args) > 0 {
				text += " " + strings.Join(args, ", ")
			}
			if text == p.inst && in.Form() == p.form {
				found = true
			}
		}
		assert.True(t, found, "%s does not contain %s (form %s)", p.name, p.inst, p.form)
	}
}

// TestModelFormsCovered checks, with the model's own notion of a form, that
// the forms of every committed file the model loads are among those of the
// probes it loads.
func TestModelFormsCovered(t *testing.T) {
	files, err := forms.CommittedFiles(filepath.Join("..", "..", ".."))
	require.NoError(t, err)
	progs, _ := models()
	probed := map[string]bool{}
	for _, p := range progs {
		for _, f := range p.Forms() {
			probed[f] = true
		}
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		prog, err := x86sim.Load(file, src)
		if err != nil {
			t.Logf("%s: the model does not load it yet: %v", file, err)
			continue
		}
		for _, f := range prog.Forms() {
			assert.True(t, probed[f], "%s: model form %s has no probe the model loads", file, f)
		}
	}
}
