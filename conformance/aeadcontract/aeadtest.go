// Package aeadcontract checks that an implementation of crypto/cipher.AEAD keeps
// the interface's contract as crypto/cipher's own AES-GCM does: round trips,
// append semantics, in-place operation, panics on inexact overlap and on a
// wrong nonce length, rejection of every modified input without releasing
// plaintext, zero allocations, and safe concurrent use of one key.
//
// Use [TestAEAD] from a test; [Check] runs the same checks and returns the
// failures as an error (for tools such as the conformance runner, and to test
// this package against deliberately broken AEADs).
package aeadcontract

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

// MakeAEAD returns a cipher.AEAD. Every call must return an equivalent
// instance: same algorithm, key, nonce and tag sizes.
type MakeAEAD func() (cipher.AEAD, error)

// Lengths are the plaintext lengths the checks use: empty, around one block,
// and around 8 KiB (a full bulk loop, plus one byte, plus one block).
var Lengths = []int{0, 1, 15, 16, 17, 156, 8192, 8193, 8208}

// adLengths are the additional-data lengths the checks combine with Lengths.
var adLengths = []int{0, 1, 13, 16, 17, 156, 8193}

// CheckError is the failure of one named check.
type CheckError struct {
	// Check is the check's name.
	Check string
	// Err says what went wrong, with the input that showed it.
	Err error
}

// Error returns the check's name followed by what went wrong.
func (e *CheckError) Error() string { return e.Check + ": " + e.Err.Error() }

// Unwrap returns Err, for errors.Is and errors.As.
func (e *CheckError) Unwrap() error { return e.Err }

// env is what a check works with: a fresh AEAD and a deterministic RNG.
type env struct {
	mk  MakeAEAD
	a   cipher.AEAD
	rng *rand.Rand
}

func (e *env) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(e.rng.Uint32())
	}
	return b
}

func (e *env) nonce() []byte { return e.bytes(e.a.NonceSize()) }

type check struct {
	name string
	run  func(*env) error
}

var checks = []check{
	{"Sizes", checkSizes},
	{"RoundTrip", checkRoundTrip},
	{"InputNotModified", checkInputNotModified},
	{"InPlace", checkInPlace},
	{"AppendDst", checkAppendDst},
	{"NoWriteBeyondOutput", checkNoWriteBeyond},
	{"InexactOverlap", checkInexactOverlap},
	{"OverlapAdditionalData", checkOverlapAD},
	{"WrongNonceLength", checkWrongNonceLength},
	{"Tamper", checkTamper},
	{"ShortCiphertext", checkShortCiphertext},
}

// TestAEAD runs every check as a sub-test of t.
func TestAEAD(t *testing.T, mk MakeAEAD) {
	t.Helper()
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if err := runCheck(c, mk); err != nil {
				t.Error(err)
			}
		})
	}
}

// Check runs every check and returns nil, or the failures joined (each a
// [*CheckError]; see [errors.Join]).
func Check(mk MakeAEAD) error {
	var errs []error
	for _, c := range checks {
		if err := runCheck(c, mk); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// FailedChecks returns the names of the checks that failed in err, an error
// returned by [Check].
func FailedChecks(err error) []string {
	var names []string
	var multi interface{ Unwrap() []error }
	if errors.As(err, &multi) {
		for _, e := range multi.Unwrap() {
			names = append(names, FailedChecks(e)...)
		}
		return names
	}
	var ce *CheckError
	if errors.As(err, &ce) {
		names = append(names, ce.Check)
	}
	return names
}

// runCheck runs one check on a fresh AEAD; an unexpected panic is a failure.
func runCheck(c check, mk MakeAEAD) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &CheckError{c.name, fmt.Errorf("unexpected panic: %v", r)}
		}
	}()
	a, err := mk()
	if err != nil {
		return &CheckError{c.name, fmt.Errorf("making the AEAD: %w", err)}
	}
	h := fnv.New64a()
	h.Write([]byte(c.name))
	e := &env{mk: mk, a: a, rng: rand.New(rand.NewPCG(h.Sum64(), 1))}
	if err := c.run(e); err != nil {
		return &CheckError{c.name, err}
	}
	return nil
}

// forEachLength calls f for every plaintext and additional-data length pair,
// stopping at the first error.
func forEachLength(f func(ptLen, adLen int) error) error {
	for _, p := range Lengths {
		for _, a := range adLengths {
			if err := f(p, a); err != nil {
				return fmt.Errorf("plaintext length %d, additional data length %d: %w", p, a, err)
			}
		}
	}
	return nil
}

func checkSizes(e *env) error {
	a := e.a
	if a.NonceSize() < 0 || a.Overhead() < 0 {
		return fmt.Errorf("NonceSize %d, Overhead %d: negative", a.NonceSize(), a.Overhead())
	}
	b, err := e.mk()
	if err != nil {
		return fmt.Errorf("making a second AEAD: %w", err)
	}
	if a.NonceSize() != b.NonceSize() || a.Overhead() != b.Overhead() {
		return fmt.Errorf("two instances disagree: NonceSize %d and %d, Overhead %d and %d", a.NonceSize(), b.NonceSize(), a.Overhead(), b.Overhead())
	}
	return forEachLength(func(p, ad int) error {
		nonce, pt, data := e.nonce(), e.bytes(p), e.bytes(ad)
		ct := a.Seal(nil, nonce, pt, data)
		if len(ct) != p+a.Overhead() {
			return fmt.Errorf("Seal returned %d bytes, want plaintext + Overhead = %d", len(ct), p+a.Overhead())
		}
		if ct2 := b.Seal(nil, nonce, pt, data); !bytes.Equal(ct, ct2) {
			return errors.New("two instances from MakeAEAD seal differently")
		}
		if ct2 := a.Seal(nil, nonce, pt, data); !bytes.Equal(ct, ct2) {
			return errors.New("sealing twice gives two ciphertexts")
		}
		return nil
	})
}

func checkRoundTrip(e *env) error {
	return forEachLength(func(p, ad int) error {
		nonce, pt, data := e.nonce(), e.bytes(p), e.bytes(ad)
		ct := e.a.Seal(nil, nonce, pt, data)
		got, err := e.a.Open(nil, nonce, ct, data)
		if err != nil {
			return fmt.Errorf("Open of Seal's output: %w", err)
		}
		if !bytes.Equal(got, pt) {
			return fmt.Errorf("Open(Seal(pt)) = %s, want %s", short(got), short(pt))
		}
		if p > 0 && bytes.Equal(ct[:p], pt) {
			return errors.New("the ciphertext equals the plaintext")
		}
		return nil
	})
}

func checkInputNotModified(e *env) error {
	return forEachLength(func(p, ad int) error {
		nonce, pt, data := e.nonce(), e.bytes(p), e.bytes(ad)
		nonce0, pt0, data0 := bytes.Clone(nonce), bytes.Clone(pt), bytes.Clone(data)
		ct := e.a.Seal(nil, nonce, pt, data)
		if err := unchanged("Seal", nonce, nonce0, pt, pt0, data, data0); err != nil {
			return err
		}
		ct0 := bytes.Clone(ct)
		if _, err := e.a.Open(nil, nonce, ct, data); err != nil {
			return fmt.Errorf("Open: %w", err)
		}
		if err := unchanged("Open", nonce, nonce0, ct, ct0, data, data0); err != nil {
			return err
		}
		// A failed Open must not modify its input either.
		bad := bytes.Clone(ct)
		bad[len(bad)-1] ^= 0x80
		bad0 := bytes.Clone(bad)
		if _, err := e.a.Open(nil, nonce, bad, data); err == nil {
			return errors.New("Open accepted a modified tag")
		}
		return unchanged("failed Open", nonce, nonce0, bad, bad0, data, data0)
	})
}

func unchanged(op string, nonce, nonce0, in, in0, data, data0 []byte) error {
	switch {
	case !bytes.Equal(nonce, nonce0):
		return fmt.Errorf("%s modified the nonce", op)
	case !bytes.Equal(in, in0):
		return fmt.Errorf("%s modified its input: %s, was %s", op, short(in), short(in0))
	case !bytes.Equal(data, data0):
		return fmt.Errorf("%s modified the additional data", op)
	}
	return nil
}

func checkInPlace(e *env) error {
	o := e.a.Overhead()
	return forEachLength(func(p, ad int) error {
		nonce, pt, data := e.nonce(), e.bytes(p), e.bytes(ad)
		want := e.a.Seal(nil, nonce, pt, data)

		buf := make([]byte, p, p+o)
		copy(buf, pt)
		got := e.a.Seal(buf[:0], nonce, buf, data)
		if !bytes.Equal(got, want) {
			return fmt.Errorf("in-place Seal = %s, out-of-place %s", short(got), short(want))
		}
		if len(got) > 0 && &got[0] != &buf[:1][0] {
			return errors.New("in-place Seal with enough capacity did not write into dst")
		}
		back, err := e.a.Open(got[:0], nonce, got, data)
		if err != nil {
			return fmt.Errorf("in-place Open: %w", err)
		}
		if !bytes.Equal(back, pt) {
			return fmt.Errorf("in-place Open = %s, want %s", short(back), short(pt))
		}
		return nil
	})
}

func checkAppendDst(e *env) error {
	prefixes := [][]byte{[]byte("a"), e.bytes(512)}
	return forEachLength(func(p, ad int) error {
		nonce, pt, data := e.nonce(), e.bytes(p), e.bytes(ad)
		want := e.a.Seal(nil, nonce, pt, data)
		for _, prefix := range prefixes {
			// Without spare capacity (Seal must allocate) and with it.
			for _, spare := range []int{0, p + e.a.Overhead() + 7} {
				dst := make([]byte, len(prefix), len(prefix)+spare)
				copy(dst, prefix)
				out := e.a.Seal(dst, nonce, pt, data)
				if !bytes.Equal(out[:len(prefix)], prefix) {
					return fmt.Errorf("Seal changed dst's prefix (%d bytes, capacity %d)", len(prefix), cap(dst))
				}
				if !bytes.Equal(out[len(prefix):], want) {
					return fmt.Errorf("Seal after a %d-byte prefix = %s, want %s", len(prefix), short(out[len(prefix):]), short(want))
				}
				dst = make([]byte, len(prefix), len(prefix)+spare)
				copy(dst, prefix)
				back, err := e.a.Open(dst, nonce, want, data)
				if err != nil {
					return fmt.Errorf("Open after a %d-byte prefix: %w", len(prefix), err)
				}
				if !bytes.Equal(back[:len(prefix)], prefix) {
					return fmt.Errorf("Open changed dst's prefix (%d bytes, capacity %d)", len(prefix), cap(dst))
				}
				if !bytes.Equal(back[len(prefix):], pt) {
					return fmt.Errorf("Open after a %d-byte prefix = %s, want %s", len(prefix), short(back[len(prefix):]), short(pt))
				}
			}
		}
		return nil
	})
}

// checkNoWriteBeyond checks that Seal and Open write nothing into dst's
// capacity beyond the slice they return (an implementation that stores a whole
// block for a partial one corrupts whatever the caller keeps there).
func checkNoWriteBeyond(e *env) error {
	return forEachLength(func(p, ad int) error {
		nonce, pt, data := e.nonce(), e.bytes(p), e.bytes(ad)
		ct := e.a.Seal(nil, nonce, pt, data)
		for _, prefix := range []int{0, 1, 3} {
			buf := e.bytes(prefix + len(ct) + 48)
			before := bytes.Clone(buf)
			out := e.a.Seal(buf[:prefix], nonce, pt, data)
			if !bytes.Equal(buf[len(out):], before[len(out):]) {
				return fmt.Errorf("Seal after a %d-byte prefix wrote past its %d-byte result: %s, was %s", prefix, len(out), short(buf[len(out):]), short(before[len(out):]))
			}
			copy(buf, before)
			out, err := e.a.Open(buf[:prefix], nonce, ct, data)
			if err != nil {
				return fmt.Errorf("Open: %w", err)
			}
			if !bytes.Equal(buf[len(out):], before[len(out):]) {
				return fmt.Errorf("Open after a %d-byte prefix wrote past its %d-byte result: %s, was %s", prefix, len(out), short(buf[len(out):]), short(before[len(out):]))
			}
		}
		return nil
	})
}

// mustPanic returns an error unless f panics.
func mustPanic(what string, f func()) (err error) {
	defer func() {
		if recover() == nil {
			err = fmt.Errorf("%s did not panic", what)
		}
	}()
	f()
	return nil
}

func checkInexactOverlap(e *env) error {
	o := e.a.Overhead()
	return forEachLength(func(p, ad int) error {
		if p < 2 {
			return nil // no room for an inexact overlap
		}
		nonce, pt, data := e.nonce(), e.bytes(p), e.bytes(ad)
		ct := e.a.Seal(nil, nonce, pt, data)
		for _, shift := range []int{1, p - 1} {
			buf := make([]byte, p+o+shift)
			copy(buf, pt)
			if err := mustPanic(fmt.Sprintf("Seal with dst %d bytes after the plaintext's start", shift), func() {
				e.a.Seal(buf[shift:shift], nonce, buf[:p], data)
			}); err != nil {
				return err
			}
			buf = make([]byte, p+o+shift)
			copy(buf, ct)
			if err := mustPanic(fmt.Sprintf("Open with dst %d bytes after the ciphertext's start", shift), func() {
				e.a.Open(buf[shift:shift], nonce, buf[:p+o], data) //nolint:errcheck
			}); err != nil {
				return err
			}
		}
		return nil
	})
}

func checkOverlapAD(e *env) error {
	o := e.a.Overhead()
	return forEachLength(func(p, ad int) error {
		if ad == 0 {
			return nil
		}
		nonce, pt, data := e.nonce(), e.bytes(p), e.bytes(ad)
		ct := e.a.Seal(nil, nonce, pt, data)
		// The output is written over the additional data.
		buf := make([]byte, ad+p+o)
		copy(buf, data)
		if err := mustPanic("Seal writing over its additional data", func() {
			e.a.Seal(buf[:0], nonce, pt, buf[:ad])
		}); err != nil {
			return err
		}
		if p == 0 {
			return nil // Open writes nothing
		}
		copy(buf, data)
		if err := mustPanic("Open writing over its additional data", func() {
			e.a.Open(buf[:0], nonce, ct, buf[:ad]) //nolint:errcheck
		}); err != nil {
			return err
		}
		return nil
	})
}

func checkWrongNonceLength(e *env) error {
	n := e.a.NonceSize()
	pt, data := e.bytes(17), e.bytes(13)
	ct := e.a.Seal(nil, e.nonce(), pt, data)
	for _, l := range []int{0, n - 1, n + 1, 2 * n} {
		if l < 0 || l == n {
			continue
		}
		nonce := e.bytes(l)
		if err := mustPanic(fmt.Sprintf("Seal with a %d-byte nonce (NonceSize %d)", l, n), func() {
			e.a.Seal(nil, nonce, pt, data)
		}); err != nil {
			return err
		}
		if err := mustPanic(fmt.Sprintf("Open with a %d-byte nonce (NonceSize %d)", l, n), func() {
			e.a.Open(nil, nonce, ct, data) //nolint:errcheck
		}); err != nil {
			return err
		}
	}
	return nil
}

// tamper is one modification of an Open's inputs.
type tamper struct {
	name string
	// apply returns the modified nonce, ciphertext and additional data, or
	// ok false when the modification does not apply to these lengths.
	apply func(e *env, nonce, ct, data []byte) (n, c, d []byte, ok bool)
}

func flip(b []byte, i int, bit uint) []byte {
	b = bytes.Clone(b)
	b[i] ^= 1 << bit
	return b
}

var tampers = []tamper{
	{"nonce bit", func(e *env, n, c, d []byte) ([]byte, []byte, []byte, bool) {
		if len(n) == 0 {
			return nil, nil, nil, false
		}
		return flip(n, e.rng.IntN(len(n)), uint(e.rng.IntN(8))), c, d, true
	}},
	{"additional data bit", func(e *env, n, c, d []byte) ([]byte, []byte, []byte, bool) {
		if len(d) == 0 {
			return nil, nil, nil, false
		}
		return n, c, flip(d, e.rng.IntN(len(d)), uint(e.rng.IntN(8))), true
	}},
	{"additional data one byte longer", func(e *env, n, c, d []byte) ([]byte, []byte, []byte, bool) {
		return n, c, append(bytes.Clone(d), 0), true
	}},
	{"additional data one byte shorter", func(e *env, n, c, d []byte) ([]byte, []byte, []byte, bool) {
		if len(d) == 0 {
			return nil, nil, nil, false
		}
		return n, c, d[:len(d)-1], true
	}},
	{"ciphertext bit", func(e *env, n, c, d []byte) ([]byte, []byte, []byte, bool) {
		body := len(c) - e.a.Overhead()
		if body == 0 {
			return nil, nil, nil, false
		}
		return n, flip(c, e.rng.IntN(body), uint(e.rng.IntN(8))), d, true
	}},
	{"first tag byte", func(e *env, n, c, d []byte) ([]byte, []byte, []byte, bool) {
		return n, flip(c, len(c)-e.a.Overhead(), 0), d, true
	}},
	{"last tag byte", func(e *env, n, c, d []byte) ([]byte, []byte, []byte, bool) {
		return n, flip(c, len(c)-1, 7), d, true
	}},
	{"ciphertext one byte shorter", func(e *env, n, c, d []byte) ([]byte, []byte, []byte, bool) {
		return n, c[:len(c)-1], d, true
	}},
	{"ciphertext one byte longer", func(e *env, n, c, d []byte) ([]byte, []byte, []byte, bool) {
		return n, append(bytes.Clone(c), byte(e.rng.Uint32())), d, true
	}},
}

// checkTamper checks that Open rejects every modified input, returns nil,
// keeps dst's prefix, and releases no plaintext: the bytes after the prefix
// (as far as the plaintext would reach) are zero or what they were before.
func checkTamper(e *env) error {
	return forEachLength(func(p, ad int) error {
		nonce, pt, data := e.nonce(), e.bytes(p), e.bytes(ad)
		ct := e.a.Seal(nil, nonce, pt, data)
		for _, tm := range tampers {
			n, c, d, ok := tm.apply(e, nonce, ct, data)
			if !ok {
				continue
			}
			prefix := e.bytes(1 + e.rng.IntN(32))
			// Out of place, into dst's spare capacity.
			dst := make([]byte, len(prefix)+len(c)+16)
			copy(dst, prefix)
			tail := e.bytes(len(dst) - len(prefix))
			copy(dst[len(prefix):], tail)
			if err := failedOpen(e.a, dst[:len(prefix)], n, c, d, prefix, tail); err != nil {
				return fmt.Errorf("%s: %w", tm.name, err)
			}
			// In place: the region was the ciphertext.
			buf := make([]byte, len(c))
			copy(buf, c)
			if err := failedOpen(e.a, buf[:0], n, buf, d, nil, c); err != nil {
				return fmt.Errorf("%s, in place: %w", tm.name, err)
			}
		}
		return nil
	})
}

// failedOpen opens a modified ciphertext into dst (len(dst) == len(prefix))
// and checks the failure: an error, a nil result, the prefix intact, the
// plaintext's place in the spare capacity either untouched or zeroed, and the
// rest untouched. before is the spare capacity as it was
// (len(before) == cap(dst)-len(dst)).
func failedOpen(a cipher.AEAD, dst, nonce, ct, data, prefix, before []byte) error {
	out, err := a.Open(dst, nonce, ct, data)
	if err == nil {
		return errors.New("Open accepted it")
	}
	if out != nil {
		return fmt.Errorf("failed Open returned %d bytes with its error, want nil", len(out))
	}
	if !bytes.Equal(dst, prefix) {
		return errors.New("failed Open changed dst's prefix")
	}
	spare := dst[len(dst):cap(dst)]
	n := min(len(spare), max(len(ct)-a.Overhead(), 0))
	region := spare[:n]
	if !bytes.Equal(region, before[:n]) && !allZero(region) {
		return fmt.Errorf("failed Open left %s in dst's spare capacity (was %s): neither zeroed nor untouched", short(region), short(before[:n]))
	}
	if !bytes.Equal(spare[n:], before[n:]) {
		return fmt.Errorf("failed Open wrote past the %d bytes a plaintext would take", n)
	}
	return nil
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

func checkShortCiphertext(e *env) error {
	nonce, data := e.nonce(), e.bytes(13)
	for l := range e.a.Overhead() {
		c := e.bytes(l)
		out, err := e.a.Open(nil, nonce, c, data)
		if err == nil {
			return fmt.Errorf("Open accepted a %d-byte ciphertext (Overhead %d)", l, e.a.Overhead())
		}
		if out != nil {
			return fmt.Errorf("failed Open of a %d-byte ciphertext returned %d bytes", l, len(out))
		}
	}
	return nil
}

// short formats b as hex, truncated for messages.
func short(b []byte) string {
	if len(b) > 24 {
		return fmt.Sprintf("%x...(%d bytes)", b[:24], len(b))
	}
	return fmt.Sprintf("%x", b)
}
