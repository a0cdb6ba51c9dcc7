package rsa

import (
	"slices"

	"github.com/vgcrypto/vg/cpufeat"
)

// keyImpl is the seam every RSA implementation plugs into: a key prepared
// for one backend, made once by NewPublicKey or NewPrivateKey through the
// backend's newKeyFunc (its registration) and held by the key. It owns the
// expensive part of every operation: the two CRT exponentiations of a
// private-key operation, and the short public-exponent exponentiation of
// verify, encrypt and a private operation's s^e == m check. Everything
// else (padding, reducing the input modulo p and q, CRT recombination, the
// comparison) is shared code on the generic limb arithmetic of nat.go.
//
// Each backend converts the shared values into its own representation
// (adx: fixed-width kernels of 8 to 128 limbs, zero-padded above the
// modulus's width; ifma: 52-bit digits, both CRT halves in one interleaved
// loop), so expCRT receives both halves at once. The generic backend's key
// type is in rsa_generic.go, adx's in adx_amd64.go and ifma's in
// ifma_amd64.go, beside the generated declarations of their kernels.
type keyImpl interface {
	// expVarTime sets z = x^e mod n for x < n. It is variable time in the
	// public exponent e only, constant time in x (the s^e == m check of a
	// private operation runs on secret s).
	expVarTime(z, x []uint64, e uint64)
	// expCRT sets mp = xp^dp mod p and mq = xq^dq mod q, for a key
	// prepared with its CRT parameters. Inputs and outputs are w-limb
	// numbers in standard (not Montgomery) form with xp < p and xq < q. It
	// runs in time independent of every value.
	expCRT(mp, mq, xp, xq []uint64)
	// wipe zeroes every number the key holds (its copy of n too: a wiped
	// key makes no more private operations).
	wipe()
}

// newKeyFunc prepares a key for one backend: the public modulus n, and for
// a private key (crt not nil) its two primes and CRT exponents. It runs
// once per key. A backend's registration (the list registrations, in
// rsa_amd64.go or rsa_noasm.go) carries its newKeyFunc. The methods of the
// key it returns are safe for concurrent use.
type newKeyFunc = func(n *modulus, crt *crtParams) keyImpl

// exponents is a private key's own copy of its CRT exponents and their
// bounds, which every backend's key embeds (empty for a public key).
type exponents struct {
	dp, dq       []uint64
	pBits, qBits int
}

// exponents returns a copy of crt's exponents and their bounds.
func (crt *crtParams) exponents() exponents {
	return exponents{dp: slices.Clone(crt.dp), dq: slices.Clone(crt.dq), pBits: crt.pBits, qBits: crt.qBits}
}

// wipe zeroes the exponents.
func (e *exponents) wipe() {
	wipe(e.dp)
	wipe(e.dq)
}

// crtParams is what a backend receives to prepare a private key: the primes
// with their generic Montgomery setup and the CRT exponents. All of it is
// secret except the widths and bit lengths.
type crtParams struct {
	p, q   *modulus // both of width w
	dp, dq []uint64 // d mod (p-1), d mod (q-1), w limbs each
	// pBits and qBits bound the exponents' bit lengths (dp < p, dq < q).
	// They are the primes' bit lengths, public like the modulus size.
	pBits, qBits int
}

// registry holds the backends of this build (the list registrations, in
// rsa_amd64.go or rsa_noasm.go) and chooses one at NewPrivateKey and
// NewPublicKey.
var registry = cpufeat.NewRegistry(cpufeat.RSA, registrations)

// genericDoc describes the generic backend (the Doc of its registration).
const genericDoc = "fixed-width 64-bit limbs, Montgomery multiply and dedicated squaring, fixed 5-bit window, masked full-table lookups, CRT with the sᵉ = m check"
