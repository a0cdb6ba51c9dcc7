package rsa

import (
	"fmt"

	"github.com/vgcrypto/vg/cpufeat"
)

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
	// name is the backend's stable name, as declared in cpufeat.
	name() string
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

// BackendInfo describes one backend this package implements.
type BackendInfo struct {
	// Name is the stable backend name ("generic", "adx", "ifma").
	Name string
	// Requires lists the CPU features the backend needs.
	Requires cpufeat.Set
	// Available reports whether the backend can run here, with the
	// features cpufeat.Enabled allows.
	Available bool
}

// Backends lists the backends this build implements, best first, with the
// features each requires and whether it is available on this machine under
// the current VG_CPU_FEATURES.
func Backends() []BackendInfo {
	var infos []BackendInfo
	for _, d := range cpufeat.Backends(cpufeat.RSA) {
		if backendByName(d.Name) == nil {
			continue
		}
		infos = append(infos, BackendInfo{
			Name:      d.Name,
			Requires:  d.Requires,
			Available: d.Available(cpufeat.Enabled()),
		})
	}
	return infos
}

// implementedNames returns the names of the implemented backends.
func implementedNames() []string {
	names := make([]string, len(implemented))
	for i, b := range implemented {
		names[i] = b.name()
	}
	return names
}

func backendByName(name string) backend {
	for _, b := range implemented {
		if b.name() == name {
			return b
		}
	}
	return nil
}

// chooseBackend returns the backend named by the options, or the best
// available one. It fails on an invalid VG_CPU_FEATURES override.
func chooseBackend(cfg *config) (backend, error) {
	if err := cpufeat.Err(); err != nil {
		return nil, err
	}
	if cfg.backend == "" {
		d := cpufeat.Select(cpufeat.RSA, implementedNames(), cpufeat.Enabled())
		return backendByName(d.Name), nil
	}
	b := backendByName(cfg.backend)
	if b == nil {
		if _, declared := cpufeat.Lookup(cpufeat.RSA, cfg.backend); declared {
			return nil, fmt.Errorf("rsa: backend %q is not implemented in this build", cfg.backend)
		}
		return nil, fmt.Errorf("rsa: unknown backend %q", cfg.backend)
	}
	d := cpufeat.MustLookup(cpufeat.RSA, cfg.backend)
	if !d.Available(cpufeat.Enabled()) {
		return nil, fmt.Errorf("rsa: backend %q needs CPU features %s, enabled here: %s",
			cfg.backend, d.Requires, cpufeat.Enabled())
	}
	return b, nil
}

// Option configures NewPrivateKey and NewPublicKey.
type Option func(*config)

type config struct {
	backend string
}

// WithBackend selects the backend by name instead of the best available one.
// Preparing a key fails when that backend is unknown, not implemented, or
// needs CPU features that are not enabled here.
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
