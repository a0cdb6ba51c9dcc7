package rsa

import "github.com/vgcrypto/vg/cpufeat"

// The backend seam. A backend owns the expensive part of every operation:
// the two CRT exponentiations of a private-key operation, and the short
// public-exponent exponentiation of verify and encrypt. Everything else
// (padding, reducing the input modulo p and q, CRT recombination, the s^e == m
// check) is shared code on the generic limb arithmetic of nat.go.
//
// The interface is shaped for the assembly backends that follow the generic
// one: `adx` converts the primes into fixed-width kernels (16/24/32 limbs per
// prime, 32/48/64/128 per modulus, generic-length fallback) and `ifma` keeps
// 52-bit limbs and runs both CRT halves in one interleaved loop. So each
// backend does its own key-dependent precomputation from the shared crtParams
// (into its own limb representation), and expCRT receives both halves at once.

// backend is one implementation of the Montgomery exponentiation core.
type backend interface {
	// newCRT does the key-dependent precomputation for the two primes. It
	// runs once per key, at NewPrivateKey.
	newCRT(k *crtParams) crtExp
	// newPublic prepares the public modulus n.
	newPublic(n *modulus) publicExp
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

// crtExp is a backend's prepared private key.
type crtExp interface {
	// expCRT sets mp = xp^dp mod p and mq = xq^dq mod q. Inputs and outputs
	// are w-limb numbers in standard (not Montgomery) form with xp < p and
	// xq < q. It runs in time independent of every value, and it must be
	// safe for concurrent use.
	expCRT(mp, mq, xp, xq []uint64)
	// wipe erases the backend's copy of the key.
	wipe()
}

// publicExp is a backend's prepared public modulus.
type publicExp interface {
	// expVarTime sets z = x^e mod n for x < n. It is variable time in the
	// public exponent e only, constant time in x (the s^e == m check of a
	// private operation runs on secret s).
	expVarTime(z, x []uint64, e uint64)
}

// registry holds the backends of this build (the list implementations, in
// rsa_amd64.go or rsa_noasm.go) and chooses one at NewPrivateKey and
// NewPublicKey.
var registry = cpufeat.NewRegistry(cpufeat.RSA, implementations)

// genericDoc describes the generic backend (the Doc of its registration).
const genericDoc = "fixed-width 64-bit limbs, Montgomery multiply and dedicated squaring, fixed 5-bit window, masked full-table lookups, CRT with the sᵉ = m check"

// Backend describes one backend implemented in this build: its Name
// ("generic", "adx", "ifma"), the CPU features it Requires, and whether it
// is Available, that is whether Requires is within cpufeat.Enabled() so that
// keys can be prepared for it here.
type Backend = cpufeat.BackendInfo

// Backends lists the backends this build implements, best first, whether or
// not they can run here.
func Backends() []Backend { return registry.Backends() }

// Option configures NewPrivateKey and NewPublicKey.
type Option func(*config)

type config struct {
	backend string
}

// WithBackend selects the backend by name instead of the best available one.
// Preparing a key fails when cpufeat does not declare that name, when this
// build does not implement it, or when it needs CPU features that are not
// enabled here, each with its own error.
func WithBackend(name string) Option {
	return func(c *config) { c.backend = name }
}

func newConfig(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		o(c)
	}
	return c
}
