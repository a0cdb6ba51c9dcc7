// Package aead holds what vg's two AEAD modules, aesgcm and
// chacha20poly1305, share above their backends: the buffer rules of
// crypto/cipher.AEAD (append to dst, in place only at the same offset, no
// other overlap), SealGather's overlap rule, and the Decryptor that releases
// no plaintext before the tag of the whole message has been checked.
//
// The functions here report; the modules panic or return errors with their
// own package name in the message, as crypto/cipher's contract asks.
package aead

import (
	"crypto/cipher"
	"unsafe"
)

// SliceForAppend extends in by n bytes, reusing its capacity when it can,
// and returns the whole slice and the n new bytes.
func SliceForAppend(in []byte, n int) (head, tail []byte) {
	if total := len(in) + n; cap(in) >= total {
		head = in[:total]
	} else {
		head = make([]byte, total)
		copy(head, in)
	}
	tail = head[len(in):]
	return head, tail
}

// AnyOverlap reports whether x and y share memory at any (not necessarily
// corresponding) index. Empty slices never overlap.
func AnyOverlap(x, y []byte) bool {
	return len(x) > 0 && len(y) > 0 &&
		uintptr(unsafe.Pointer(&x[0])) <= uintptr(unsafe.Pointer(&y[len(y)-1])) &&
		uintptr(unsafe.Pointer(&y[0])) <= uintptr(unsafe.Pointer(&x[len(x)-1]))
}

// InexactOverlap reports whether x and y share memory at some index other
// than the corresponding one: in-place use (x[i] and y[i] the same byte) is
// allowed, anything else is not.
func InexactOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 || &x[0] == &y[0] {
		return false
	}
	return AnyOverlap(x, y)
}

// GatherLength returns the total length of pieces and whether any piece
// touches dst's spare capacity, where SealGather's output goes unless dst
// has to grow (fresh memory, which no piece can overlap). One pass; the
// exact test, GatherOverlapOK, is needed only when a piece is there (in-place
// sealing), not on every record. A function of its own: inlined into
// SealGather, the loop's variables lived on the stack, and their store and
// reload on every iteration showed in a 16-byte SealGather.
// Gather measures two pieces, the TLS record shape, straight-line instead.
//
//go:noinline
func GatherLength(dst []byte, pieces [][]byte) (total uint64, touches bool) {
	lo, hi := spare(dst)
	for _, p := range pieces {
		total += uint64(len(p))
		touches = touches || within(p, lo, hi)
	}
	return total, touches
}

// GatherOverlapOK reports whether every piece either is exactly its own
// part of out or does not overlap out at all, comparing addresses once per
// piece. out is the whole output, text and tag: the pieces fill its text
// part in order, so a piece that reaches into the tag overlaps it.
func GatherOverlapOK(out []byte, pieces [][]byte) bool {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(out)))
	hi := lo + uintptr(len(out))
	at := lo // where the piece's own part of out starts
	for _, p := range pieces {
		s, n := uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p))
		if n != 0 && s < hi && lo < s+n && s != at {
			return false
		}
		at += n
	}
	return true
}

// Gather is what SealGather needs of its pieces before it seals: their
// total length, and whether one of them lies in dst's spare capacity. Two
// pieces, the TLS record shape (a payload and its content-type byte), it
// measures straight-line; any other count in GatherLength.
func Gather(dst []byte, pieces [][]byte) (total uint64, touches bool) {
	if len(pieces) != 2 {
		return GatherLength(dst, pieces)
	}
	p, q := pieces[0], pieces[1]
	lo, hi := spare(dst)
	return uint64(len(p)) + uint64(len(q)), within(p, lo, hi) || within(q, lo, hi)
}

// spare returns the address range of dst's spare capacity.
func spare(dst []byte) (lo, hi uintptr) {
	lo = uintptr(unsafe.Pointer(unsafe.SliceData(dst))) + uintptr(len(dst))
	return lo, lo + uintptr(cap(dst)-len(dst))
}

// within reports whether p shares a byte with [lo, hi).
func within(p []byte, lo, hi uintptr) bool {
	s, n := uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p))
	return n != 0 && s < hi && lo < s+n
}

// AsAEAD returns a and err as a constructor in x/crypto's shape returns
// them: a cipher.AEAD, and on an error a nil interface (never an interface
// holding a nil pointer), so that New(key) can be Prepare(key)'s result.
func AsAEAD[A cipher.AEAD](a A, err error) (cipher.AEAD, error) {
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Made returns k, and panics with msg when k is nil: the check of every
// method of an exported type whose zero value has no key (msg names the
// type and the constructors that make it).
func Made[K any](k *K, msg string) *K {
	if k == nil {
		panic(msg)
	}
	return k
}
