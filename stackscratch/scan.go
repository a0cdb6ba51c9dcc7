package stackscratch

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"
)

// Window is how many bytes of stack below the harness's frame [Scan]
// inspects. The function under test must use less stack than this (vg's
// assembly functions use a few hundred bytes; Go code holding a key schedule
// a few kilobytes).
const Window = 16 << 10

// padSize separates the frames of the function under test from the frames
// the harness itself uses after it returns.
const padSize = 512

// attempts is how many times Scan reruns a function whose observation was
// void because the stack moved.
const attempts = 4

// ErrStackMoved is returned by [Scan] when the goroutine stack moved during
// every attempt (the function needed more than [Window] bytes of stack, or
// the garbage collector shrank the stack each time), so the stack it used
// could not be observed.
var ErrStackMoved = errors.New("stackscratch: the goroutine stack moved during the call; the stack it used could not be observed")

// Finding is one occurrence of a secret pattern in the stack.
type Finding struct {
	// Pattern is the index of the pattern in the slice given to Scan.
	Pattern int
	// Depth is how many bytes below the harness's frame the occurrence
	// starts.
	Depth int
}

// Result is what [Scan] observed.
type Result struct {
	// Findings lists every occurrence of every pattern, deepest last.
	Findings []Finding
	// Used is how many bytes of the window, counted from its deep end, were
	// no longer zero after the call: roughly how much stack the function
	// used.
	Used int
}

// Clean reports whether no pattern was found.
func (r *Result) Clean() bool { return len(r.Findings) == 0 }

// String summarises the result.
func (r *Result) String() string {
	if r.Clean() {
		return fmt.Sprintf("no secret found in %d bytes of stack used", r.Used)
	}
	var parts []string
	for i, f := range r.Findings {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("... (%d more)", len(r.Findings)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("pattern %d at %d bytes below the caller", f.Pattern, f.Depth))
	}
	return fmt.Sprintf("%d secret occurrences in %d bytes of stack used: %s", len(r.Findings), r.Used, strings.Join(parts, "; "))
}

// Windows returns every size-byte window of each of the secrets, the usual
// patterns for [Scan]: a secret that was copied to the stack in pieces of
// size bytes or more is found. size is capped at each secret's length.
func Windows(size int, secrets ...[]byte) [][]byte {
	var ps [][]byte
	for _, s := range secrets {
		w := min(size, len(s))
		if w <= 0 {
			continue
		}
		for i := 0; i+w <= len(s); i++ {
			ps = append(ps, s[i:i+w])
		}
	}
	return ps
}

// Scan calls fn on a fresh goroutine and reports which of patterns remain in
// the stack memory fn used once it returned. Patterns must be at least 4 bytes
// long and not all zero (the harness zeroes the stack before the call). See
// the package documentation for how the stack is read and what Scan cannot
// see. fn must not start goroutines that outlive it.
func Scan(fn func(), patterns [][]byte) (*Result, error) {
	for i, p := range patterns {
		if len(p) < 4 {
			return nil, fmt.Errorf("stackscratch: pattern %d is %d bytes; at least 4 are needed", i, len(p))
		}
		if bytes.Count(p, []byte{0}) == len(p) {
			return nil, fmt.Errorf("stackscratch: pattern %d is all zero", i)
		}
	}
	// A function whose stack writes do not depend on its data leaves the
	// same bytes at the same depths every time; what an asynchronous
	// preemption signal spills depends on when it lands. So a result with
	// findings is observed again, and only the findings every observation
	// shares are reported.
	var r *Result
	for range confirmations {
		o, err := observeOnce(fn, patterns)
		if err != nil {
			return nil, err
		}
		if r == nil {
			r = o
		} else {
			r.Findings = common(r.Findings, o.Findings)
			r.Used = max(r.Used, o.Used)
		}
		if r.Clean() {
			break
		}
	}
	return r, nil
}

// confirmations is how many observations a finding must appear in.
const confirmations = 3

// common returns the findings of a that b has too.
func common(a, b []Finding) []Finding {
	var out []Finding
	for _, f := range a {
		if slices.Contains(b, f) {
			out = append(out, f)
		}
	}
	return out
}

// observeOnce runs fn once on a fresh goroutine (again, up to attempts
// times, while the stack moved) and matches patterns in what it left.
func observeOnce(fn func(), patterns [][]byte) (*Result, error) {
	var panicked any
	for range attempts {
		snap := make([]byte, Window)
		moved := true
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() { panicked = recover() }()
			moved = observe(fn, snap)
		}()
		<-done
		if panicked != nil {
			return nil, fmt.Errorf("stackscratch: function under test panicked: %v", panicked)
		}
		if !moved {
			return match(snap, patterns), nil
		}
	}
	return nil, ErrStackMoved
}

func match(snap []byte, patterns [][]byte) *Result {
	r := &Result{}
	for i := 0; i < len(snap); i++ {
		if snap[i] != 0 {
			r.Used = len(snap) - i
			break
		}
	}
	for pi, p := range patterns {
		for off := 0; ; {
			k := bytes.Index(snap[off:], p)
			if k < 0 {
				break
			}
			r.Findings = append(r.Findings, Finding{Pattern: pi, Depth: len(snap) - (off + k)})
			off += k + 1
		}
	}
	return r
}

// observe runs on its own goroutine. It prepares the stack, calls fn through
// a padding frame, and copies the Window bytes below its own frame into snap.
// It reports whether the stack moved during the call, which voids the copy.
//
//go:noinline
func observe(fn func(), snap []byte) (moved bool) {
	var anchor [8]byte
	prepare()
	before := addressOf(&anchor)
	padded(fn)
	after := addressOf(&anchor)
	// No call between here and the copy except memmove, whose frame (a
	// return address) lands in the padding frame.
	below := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(&anchor), -Window)), Window)
	copy(snap, below)
	return before != after
}

// addressOf returns p's address as an integer, which the runtime does not
// adjust when it moves the stack; comparing two of them detects a move.
//
//go:noinline
func addressOf(p *[8]byte) uintptr { return uintptr(unsafe.Pointer(p)) }

// prepare grows the goroutine stack to hold Window bytes below the caller and
// zeroes them: the compiler zero-initialises z before passing its address.
//
//go:noinline
func prepare() {
	var z [Window + padSize]byte
	keep(z[:])
}

// padded calls fn below a frame of padSize bytes.
//
//go:noinline
func padded(fn func()) {
	var pad [padSize]byte
	keep(pad[:])
	fn()
}

// keep makes its argument's contents observable so the compiler keeps them.
//
//go:noinline
func keep(b []byte) {
	if len(b) > 0 && b[0] != 0 {
		panic("stackscratch: stack not zeroed")
	}
}

// Instrumented reports whether this build instruments memory accesses, as the
// race detector does (-race). Instrumented Go code calls into the runtime
// around every load and store and spills its live values, secrets included,
// into its frames around those calls, so a Scan of any Go code that touches
// secrets finds them there. What Scan proves is about the build vg ships, so
// stack-proof tests skip themselves when Instrumented is true; they run in
// every other build.
const Instrumented = instrumented
