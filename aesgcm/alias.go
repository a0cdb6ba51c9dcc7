package aesgcm

import "unsafe"

// anyOverlap reports whether x and y share memory at any (not necessarily
// corresponding) index. Empty slices never overlap.
func anyOverlap(x, y []byte) bool {
	return len(x) > 0 && len(y) > 0 &&
		uintptr(unsafe.Pointer(&x[0])) <= uintptr(unsafe.Pointer(&y[len(y)-1])) &&
		uintptr(unsafe.Pointer(&y[0])) <= uintptr(unsafe.Pointer(&x[len(x)-1]))
}

// inexactOverlap reports whether x and y share memory at some index other
// than the corresponding one: in-place use (x[i] and y[i] the same byte) is
// allowed, anything else is not.
func inexactOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 || &x[0] == &y[0] {
		return false
	}
	return anyOverlap(x, y)
}

// checkGatherOverlap panics unless every piece either is exactly its own
// part of out or does not overlap out at all, comparing addresses once per
// piece. out is the whole output, text and tag: the pieces fill its text
// part in order, so a piece that reaches into the tag overlaps it. SealGather
// runs it only when a piece lies in dst's spare capacity (gatherLength).
func checkGatherOverlap(out []byte, pieces [][]byte) {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(out)))
	hi := lo + uintptr(len(out))
	at := lo // where the piece's own part of out starts
	for _, p := range pieces {
		s, n := uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p))
		if n != 0 && s < hi && lo < s+n && s != at {
			panic("aesgcm: invalid buffer overlap of output and input")
		}
		at += n
	}
}

// gatherLength returns the total length of pieces and whether any piece
// touches dst's spare capacity, where SealGather's output goes unless dst
// has to grow (fresh memory, which no piece can overlap). One pass: the
// exact test, checkGatherOverlap, runs only for a piece there (in-place
// sealing), not on every record. A function of its own: inlined into
// SealGather, the loop's variables lived on the stack, and their store and
// reload on every iteration cost about 5 ns of a 16-byte SealGather.
func gatherLength(dst []byte, pieces [][]byte) (total uint64, touches bool) {
	lo, hi := spare(dst)
	for _, p := range pieces {
		total += uint64(len(p))
		touches = touches || within(p, lo, hi)
	}
	return total, touches
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
