// Package stackscratch is the run-time side of vg's secret hygiene: wiping Go
// buffers in a way the compiler keeps, and a test harness that proves a
// function left no secret on the stack it used. Its subpackage ctgrind is
// the other run-time harness: constant-time tests under valgrind's memcheck
// (secrets marked undefined, every branch or address on them reported).
//
// # Wiping
//
// [Wipe] and [WipeWords] zero a buffer that held secrets (a key schedule, a
// bignum temporary) before it goes out of use. They are not inlined, so the
// compiler cannot prove the zeroing dead and drop it, as it may for a plain
// loop over a buffer nobody reads afterwards.
//
// # The proof harness
//
// [Scan] runs a function and then reports whether any of a set of secret
// byte patterns (see [Windows]: for example every 8-byte window of a key, of
// its round keys, of a plaintext) is left in the stack memory that function
// used. vg's tests run it on every generated assembly function and on the Go
// code that holds secrets; asmgen's tests prove it by a generated function
// whose wipe is disabled (it is caught) and the same function wiped (it is
// not).
//
// How it reads the stack: Scan starts a fresh goroutine. There, a first
// call with a [Window]-byte local array grows the goroutine stack and fills
// that much of it with zeros; then the function under test runs, called
// through a padding frame so that no later call of the harness lands on the
// frames it used; then, with no call in between, the harness copies the
// Window bytes below its own frame (where the callee frames were: stacks grow
// down on every Go architecture) into a heap buffer and searches it. The
// address of a local is compared before and after the call; if the stack
// moved (it grew because the function needed more than the window, or the
// garbage collector shrank it) the observation is void and Scan retries, then
// fails with [ErrStackMoved] rather than report a clean result it did not see.
//
// What it can see: every byte the function and its callees (Go or assembly,
// including the ABI wrappers between them) left in the Window bytes below the
// caller's frame, on the goroutine that ran it.
//
// What it cannot see: registers (asmgen zeroes the vector registers of
// generated functions, and its generation-time wipe check, not this harness,
// proves that); copies the runtime made elsewhere (an old stack left behind
// by a stack move, which Scan detects and refuses; registers spilled by an
// asynchronous preemption signal into a frame the harness then reads, which
// could only add findings, and which depend on when the signal lands, so
// Scan observes a call with findings twice more and reports only the
// findings all three observations share); memory deeper than Window; the
// heap, globals, other
// goroutines and the signal stack. It only observes the paths the given call
// took: inputs that skip a branch skip its stack writes.
//
// # runtime/secret
//
// Go 1.26 has an experimental package runtime/secret (built with
// GOEXPERIMENT=runtimesecret, linux/amd64 and linux/arm64): secret.Do(f)
// erases, when f returns, the registers and the stack f used, and later the
// heap objects f allocated once they are unreachable. For Go-level code that
// holds secrets it is the general tool and it helps wherever it is available:
// it covers what stackscratch cannot, such as spilled temporaries the compiler
// placed anywhere in f's frames. vg does not depend on it (it is an experiment,
// not built by default, and absent on other platforms), so vg's own code wipes
// its secret buffers with [Wipe] and its generated assembly wipes its stack
// scratch and vector registers itself; a program built with the experiment may
// still wrap its calls into vg in secret.Do. Scan works with both, and a test
// of this package shows that secret.Do removes what a leaky Go function leaves
// (run it with GOEXPERIMENT=runtimesecret).
package stackscratch
