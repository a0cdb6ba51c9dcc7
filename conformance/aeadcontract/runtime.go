package aeadcontract

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// AllocLengths are the plaintext lengths [TestAllocs] measures.
var AllocLengths = []int{0, 16, 1350, 8193}

// Allocs returns the average number of heap allocations of one Seal and of one
// Open of a ptLen-byte plaintext with adLen bytes of additional data, when
// dst has the capacity for the result.
func Allocs(a cipher.AEAD, ptLen, adLen int) (seal, open float64) {
	nonce := make([]byte, a.NonceSize())
	pt := make([]byte, ptLen)
	data := make([]byte, adLen)
	ct := a.Seal(nil, nonce, pt, data)
	dst := make([]byte, 0, ptLen+a.Overhead())
	seal = testing.AllocsPerRun(20, func() {
		a.Seal(dst, nonce, pt, data)
	})
	open = testing.AllocsPerRun(20, func() {
		if _, err := a.Open(dst, nonce, ct, data); err != nil {
			panic(err)
		}
	})
	return seal, open
}

// TestAllocs fails tb unless Seal and Open allocate nothing when dst has
// capacity, at every length of [AllocLengths] with 13 bytes of additional
// data (the TLS record shape).
func TestAllocs(tb testing.TB, a cipher.AEAD) {
	tb.Helper()
	for _, n := range AllocLengths {
		seal, open := Allocs(a, n, 13)
		if seal != 0 || open != 0 {
			tb.Errorf("plaintext length %d: %v allocations per Seal, %v per Open, want 0", n, seal, open)
		}
	}
}

// Concurrent seals and opens with a from goroutines goroutines at once,
// iterations times each, on inputs of varied lengths, and checks every result
// against the one computed before, alone. A data race on shared state shows
// as a wrong result or, under -race, as a race report.
func Concurrent(a cipher.AEAD, goroutines, iterations int) error {
	type input struct{ nonce, pt, data, ct []byte }
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	inputs := make([]input, 16)
	for i := range inputs {
		in := input{random(a.NonceSize()), random(rng.IntN(2000)), random(rng.IntN(40)), nil}
		in.ct = a.Seal(nil, in.nonce, in.pt, in.data)
		inputs[i] = in
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
	}
	for g := range goroutines {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					fail(fmt.Errorf("goroutine %d: panic: %v", g, r))
				}
			}()
			var buf []byte
			for it := range iterations {
				i := (g*7 + it*3) % len(inputs)
				in := inputs[i]
				buf = a.Seal(buf[:0], in.nonce, in.pt, in.data)
				if !bytes.Equal(buf, in.ct) {
					fail(fmt.Errorf("goroutine %d, iteration %d: concurrent Seal of input %d (%d bytes) differs from the sequential one", g, it, i, len(in.pt)))
					return
				}
				var err error
				buf, err = a.Open(buf[:0], in.nonce, in.ct, in.data)
				if err == nil && !bytes.Equal(buf, in.pt) {
					err = errors.New("wrong plaintext")
				}
				if err != nil {
					fail(fmt.Errorf("goroutine %d, iteration %d: concurrent Open of input %d (%d bytes): %w", g, it, i, len(in.pt), err))
					return
				}
			}
		})
	}
	wg.Wait()
	return first
}

// TestConcurrent runs [Concurrent] with 8 goroutines (fewer iterations under
// -short) and fails tb on its error. Run it under -race.
func TestConcurrent(tb testing.TB, a cipher.AEAD) {
	tb.Helper()
	iterations := 200
	if testing.Short() {
		iterations = 40
	}
	if err := Concurrent(a, 8, iterations); err != nil {
		tb.Error(err)
	}
}
