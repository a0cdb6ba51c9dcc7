package stackscratch

// Wipe zeroes b. It is never inlined, so the compiler cannot remove the
// zeroing as a dead store, even when b is a local array that is not read
// again.
//
//go:noinline
func Wipe(b []byte) {
	clear(b)
}

// WipeWords zeroes w, a slice of machine words (bignum limbs, key schedule
// words), with the same guarantee as [Wipe].
//
//go:noinline
func WipeWords[W ~uint | ~uint32 | ~uint64 | ~uintptr](w []W) {
	clear(w)
}
