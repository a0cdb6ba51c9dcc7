package x86sim

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A named secret is memory a test declared secret by name with
// [NameSecret]: the key schedule, a plaintext, a private exponent.
type namedSecret struct {
	id     uint64
	name   string
	lo, hi uint64
	// keep holds the memory's address as a pointer, so that it stays
	// allocated while the model compares addresses with it.
	keep unsafe.Pointer
}

var (
	namedMu   sync.Mutex
	namedNext uint64
	// named is the current list, replaced (never modified) under namedMu so
	// that every call reads it without a lock.
	named atomic.Pointer[[]namedSecret]
)

// NameSecret declares that the n bytes at p hold a secret the caller knows
// by name (the key schedule, the plaintext, the private exponent and primes):
// until forget is called, every call on the model checks the annotations
// of its arguments against it, and faults when memory the function receives
// through an argument declared Public (a [Region] of kind [Public]) overlaps
// it. The function's generator declared the argument Public, so the
// generation-time taint check and the model both trusted it to hold no
// secret; a test that names its secrets finds an annotation that is wrong.
// Output and Secret regions may overlap named secrets (in-place calls, the
// plaintext an Open writes). Tests that run in parallel may name secrets
// concurrently; p must stay allocated until forget (NameSecret keeps it
// reachable).
func NameSecret(name string, p unsafe.Pointer, n uintptr) (forget func()) {
	if n == 0 || p == nil {
		return func() {}
	}
	namedMu.Lock()
	defer namedMu.Unlock()
	namedNext++
	id := namedNext
	lo := uint64(uintptr(p))
	var list []namedSecret
	if cur := named.Load(); cur != nil {
		list = append(list, *cur...)
	}
	list = append(list, namedSecret{id: id, name: name, lo: lo, hi: lo + uint64(n), keep: p})
	named.Store(&list)
	var once sync.Once
	return func() {
		once.Do(func() {
			namedMu.Lock()
			defer namedMu.Unlock()
			var rest []namedSecret
			for _, s := range *named.Load() {
				if s.id != id {
					rest = append(rest, s)
				}
			}
			named.Store(&rest)
		})
	}
}

// NameSecretBytes is [NameSecret] of the bytes of b.
func NameSecretBytes(name string, b []byte) (forget func()) {
	return NameSecret(name, unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b)))
}

// NameSecretWords is [NameSecret] of the words of w (limbs of a big number).
func NameSecretWords(name string, w []uint64) (forget func()) {
	return NameSecret(name, unsafe.Pointer(unsafe.SliceData(w)), uintptr(len(w))*8)
}

// checkAnnotations returns the fault of a Public region that overlaps a
// named secret, or nil.
func checkAnnotations(fn string, regions []Region) *Fault {
	list := named.Load()
	if list == nil || len(*list) == 0 {
		return nil
	}
	for _, r := range regions {
		if r.Kind != Public || r.Len == 0 || r.Ptr == nil {
			continue
		}
		lo := uint64(uintptr(r.Ptr))
		hi := lo + uint64(r.Len)
		for _, s := range *list {
			a, b := max(lo, s.lo), min(hi, s.hi)
			if a >= b {
				continue
			}
			return &Fault{Func: fn, Msg: fmt.Sprintf("argument %s is declared Public, but bytes %d..%d of its %d hold bytes %d..%d of %s, which the test named secret (declare it Secret, or Output if it only receives results)",
				r.Name, a-lo, b-lo-1, r.Len, a-s.lo, b-s.lo-1, s.name)}
		}
	}
	return nil
}
