//go:build valgrind && amd64

package x86sim

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// Under the build tag valgrind (the build ci/cmd/ctgrind makes) and running
// under valgrind's memcheck, every call on the model takes the taint of its
// inputs from the caller's side: memcheck has tracked, through the Go code,
// which bytes derive from the secrets the test marked undefined
// (stackscratch/ctgrind.Undefined), and the call reads those definedness bits
// (VALGRIND_GET_VBITS) for every argument word and every byte of every region
// before it runs. Then:
//
//   - an argument word that is not declared Secret (a Public scalar, a length,
//     a pointer) with an undefined bit faults: the value the caller passes
//     depends on a secret, whatever the annotation says;
//   - the model's secret bits start from memcheck's, not from the
//     annotations (which the vgsim suites check): a Secret region the test
//     did not mark (a public modulus through a kernel that also serves the
//     private key) starts public, and a Public region's bytes that memcheck
//     holds undefined start secret, so that the model faults if the
//     function branches on them, addresses with them or stores them into
//     public memory. Those are results the algorithm makes public but the
//     Go code has not declassified (a ciphertext hashed by Poly1305 or
//     GHASH as it is written); natively memcheck treats them the same way.
//     A region that overlaps memory the test named secret is refused
//     beforehand ([NameSecret]);
//   - the memory is made defined while the model runs (its own Go code
//     computes on the values, and its branches on them are not the
//     assembly's), and afterwards every byte of the caller's memory and of
//     the results is marked undefined exactly where the model's secret bit is
//     set (remarkSecret), so memcheck goes on tracking the Go code after the
//     call as it would after the real assembly.
//
// So the backends valgrind cannot decode (AVX-512, VAES) run under memcheck
// too, their Go callers checked, and a scalar declared Public that a caller
// derives from a secret is caught on every backend.

// Client request codes of valgrind.h and memcheck.h.
const (
	vgReqRunningOnValgrind = 0x1001
	vgReqMakeMemUndefined  = 'M'<<24 | 'C'<<16 + 1
	vgReqMakeMemDefined    = 'M'<<24 | 'C'<<16 + 2
	vgReqGetVbits          = 'M'<<24 | 'C'<<16 + 8
)

//go:noescape
func valgrindRequest(req *[6]uintptr) uintptr

func vgRequest(code uintptr, a, b, c uintptr) uintptr {
	req := [6]uintptr{code, a, b, c}
	return valgrindRequest(&req)
}

var (
	vgOnce    sync.Once
	vgRunning bool
	// vgMu serializes the calls: reading, clearing and setting the
	// definedness of memory two calls may share (a key table) must not
	// interleave.
	vgMu sync.Mutex
	// vgChecked counts, per function, the calls whose arguments were
	// checked against their callers (under vgMu).
	vgChecked = map[*Func]int{}
)

// valgrindReport says, per program with a checked call, how many calls of
// which of its functions had their arguments checked against the caller,
// and which functions no call reached; "" when not under valgrind.
func valgrindReport() string {
	if !UnderValgrind() {
		return ""
	}
	vgMu.Lock()
	defer vgMu.Unlock()
	registryMu.Lock()
	ps := append([]*Program(nil), registry...)
	registryMu.Unlock()
	var b strings.Builder
	for _, p := range ps {
		var called, missed []string
		calls, file := 0, ""
		for _, name := range p.funcNames() {
			file = p.funcs[name].File
			if n := vgChecked[p.funcs[name]]; n > 0 {
				called = append(called, name)
				calls += n
			} else {
				missed = append(missed, name)
			}
		}
		if len(called) == 0 {
			continue
		}
		fmt.Fprintf(&b, "x86sim: under memcheck, %s: %d of %d functions had their arguments checked against their callers (%d calls)", file, len(called), len(called)+len(missed), calls)
		if len(missed) > 0 {
			fmt.Fprintf(&b, "; not called: %s", strings.Join(missed, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// UnderValgrind reports whether the model takes its taint from valgrind's
// memcheck: built with the tag valgrind and running under valgrind's
// memcheck (another tool answers no VALGRIND_GET_VBITS).
func UnderValgrind() bool {
	vgOnce.Do(func() {
		probe := new([16]byte) // on the heap: the request holds its address as an integer
		vgRunning = vgRequest(vgReqRunningOnValgrind, 0, 0, 0) != 0 &&
			vgRequest(vgReqGetVbits, uintptr(unsafe.Pointer(&probe[0])), uintptr(unsafe.Pointer(&probe[8])), 8) == 1
		runtime.KeepAlive(probe)
	})
	return vgRunning
}

// vbitsCall is the memcheck side of one call.
type vbitsCall struct {
	// n is the number of the call's own regions at the start of
	// m.regions (the DATA tables follow).
	n int
	// undef has, per region, 1 where memcheck held a byte (partly)
	// undefined when the call started.
	undef [][]byte
	// stackLo, stackHi bound the model's own stack (its frame, the argument
	// and the result slots).
	stackLo, stackHi uint64
}

// getUndefined returns, for the n bytes at p, 1 where memcheck holds a byte
// (partly) undefined.
func getUndefined(p unsafe.Pointer, n uint64) ([]byte, error) {
	vb := make([]byte, n)
	if n == 0 {
		return vb, nil
	}
	if rc := vgRequest(vgReqGetVbits, uintptr(p), uintptr(unsafe.Pointer(&vb[0])), uintptr(n)); rc != 1 {
		return nil, fmt.Errorf("VALGRIND_GET_VBITS of %d bytes at %#x failed (%d)", n, uintptr(p), rc)
	}
	for i, v := range vb {
		if v != 0 {
			vb[i] = 1
		}
	}
	return vb, nil
}

// remarkSecret marks the n bytes at p undefined: the model computed them from
// bytes memcheck held undefined. ci/cmd/ctgrind counts a report whose value
// was created here as it counts one created by ctgrind.Undefined: keep it
// out of line.
//
//go:noinline
func remarkSecret(p unsafe.Pointer, n uintptr) {
	vgRequest(vgReqMakeMemUndefined, uintptr(p), n, 0)
}

func makeDefined(p unsafe.Pointer, n uintptr) {
	if n > 0 {
		vgRequest(vgReqMakeMemDefined, uintptr(p), n, 0)
	}
}

// valgrindEnter runs before the model, once the n regions of the call are the
// first of m.regions (the model's stack [stackLo, stackHi) among them, its
// argument slots holding the caller's words as copied, with their
// definedness): it reads the definedness of every byte of them,
// cross-checks the argument words not declared Secret against it, replaces the secret bits the annotations gave with
// memcheck's and makes the memory defined. It returns nil when not under
// valgrind.
func (m *Machine) valgrindEnter(name string, f Frame, n int, stackLo, stackHi uint64) (*vbitsCall, error) {
	if !UnderValgrind() {
		return nil, nil
	}
	vgMu.Lock()
	c := &vbitsCall{n: n, undef: make([][]byte, n), stackLo: stackLo, stackHi: stackHi}
	fail := func(msg string) (*vbitsCall, error) {
		vgMu.Unlock()
		return nil, &Fault{Func: name, Msg: msg}
	}
	for i, r := range m.regions[:n] {
		u, err := getUndefined(r.ptr, r.end-r.base)
		if err != nil {
			return fail(err.Error())
		}
		c.undef[i] = u
	}
	vgChecked[m.fn]++
	// The argument words: each not declared Secret must be defined.
	args, err := getUndefined(unsafe.Add(unsafe.Pointer(&m.stackBuf[0]), m.fp-stackLo), uint64(f.Results))
	if err != nil {
		return fail(err.Error())
	}
	for w := 0; w < int(f.Results+7)/8 && w < 64; w++ {
		if f.SecretWords>>w&1 != 0 {
			continue
		}
		if b := firstSet(args[8*w : min(8*w+8, len(args))]); b >= 0 {
			return fail(fmt.Sprintf("argument %s is not declared Secret, but the value its caller passes depends on a secret: memcheck holds its byte %d undefined, derived from memory the test marked secret (declare it Secret, or keep the secret out of it)",
				m.fn.argName(8*w), b))
		}
	}
	for i, r := range m.regions[:n] {
		u := c.undef[i]
		for j := range r.taint {
			r.taint[j] = r.taint[j]&^shSecret | u[j]
		}
		makeDefined(r.ptr, uintptr(r.end-r.base))
	}
	return c, nil
}

// valgrindLeave runs after the model, once the results went back to the
// frame (nres bytes at results): it marks undefined every byte of the
// caller's memory and of the results the model holds secret, and releases
// the lock.
func (m *Machine) valgrindLeave(c *vbitsCall, results unsafe.Pointer, nres uintptr) {
	defer vgMu.Unlock()
	for _, r := range m.regions[:c.n] {
		if r.base >= c.stackLo && r.end <= c.stackHi {
			continue
		}
		markRuns(r.ptr, r.taint)
	}
	if nres > 0 {
		at := m.fp + uint64(m.fn.Args) - uint64(nres)
		for _, r := range m.regions[:c.n] {
			if at >= r.base && at+uint64(nres) <= r.end {
				markRuns(results, r.taint[at-r.base:at-r.base+uint64(nres)])
			}
		}
	}
}

// valgrindAbort releases the lock after a fault, marking undefined again
// what memcheck held undefined before the call and what the model made
// secret since.
func (m *Machine) valgrindAbort(c *vbitsCall) {
	defer vgMu.Unlock()
	for i, r := range m.regions[:c.n] {
		if r.base >= c.stackLo && r.end <= c.stackHi {
			continue
		}
		t := make([]byte, len(r.taint))
		for j := range t {
			t[j] = c.undef[i][j] | r.taint[j]&shSecret
		}
		markRuns(r.ptr, t)
	}
}

// markRuns marks undefined each run of bytes at p whose taint has the
// secret bit.
func markRuns(p unsafe.Pointer, taint []byte) {
	for i := 0; i < len(taint); {
		if taint[i]&shSecret == 0 {
			i++
			continue
		}
		j := i + 1
		for j < len(taint) && taint[j]&shSecret != 0 {
			j++
		}
		remarkSecret(unsafe.Add(p, i), uintptr(j-i))
		i = j
	}
}

func firstSet(b []byte) int {
	for i, v := range b {
		if v != 0 {
			return i
		}
	}
	return -1
}

// argName names the argument word at offset off of fn's frame from the
// function's own name+off(FP) references ("k", "pieces_base"), or says
// "word at off(FP)".
func (fn *Func) argName(off int) string {
	names := map[string]bool{}
	for i := range fn.insts {
		for _, a := range fn.insts[i].args {
			if a.kind == kMem && a.fp && a.disp >= int64(off) && a.disp < int64(off+8) {
				names[a.fpName] = true
			}
		}
	}
	if len(names) == 0 {
		return fmt.Sprintf("at %d(FP)", off)
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	return fmt.Sprintf("%s (%d(FP))", strings.Join(list, "/"), off)
}
