package rsa

import (
	"crypto"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"strings"
	"sync/atomic"

	"github.com/vgcrypto/vg/cpufeat"
)

// Size limits of the modulus, in bits.
const (
	MinModulusBits = 1024
	MaxModulusBits = 8192
)

// Errors returned by the operations. ErrVerification, ErrDecryption and
// ErrMessageTooLong are crypto/rsa's own values, so code that checks for them
// with errors.Is works unchanged.
var (
	// ErrVerification: a signature does not verify.
	ErrVerification = rsa.ErrVerification
	// ErrDecryption: a ciphertext does not decrypt (bad padding, wrong
	// length, or a value not below the modulus).
	ErrDecryption = rsa.ErrDecryption
	// ErrMessageTooLong: a message or digest does not fit the key.
	ErrMessageTooLong = rsa.ErrMessageTooLong
	// ErrFault: the private-key result failed the s^e == m check, so it was
	// withheld. It indicates a fault (hardware, memory corruption) or a key
	// whose values are inconsistent in a way validation did not catch.
	ErrFault = errors.New("rsa: private-key operation failed its self-check (s^e != m); result withheld")
)

// PublicKey is an RSA public key prepared for repeated use: the Montgomery
// constants of n are computed once. It is safe for concurrent use.
//
// The zero value is not a key: every method of a PublicKey not returned by
// [NewPublicKey] (or [PrivateKey.PublicKey]) panics.
type PublicKey struct {
	pub     rsa.PublicKey // a copy
	n       *modulus
	e       uint64
	k       int     // modulus length in bytes
	impl    keyImpl // the backend's prepared key: n
	backend string
	std     bool // the stdlib backend: verify and encrypt with crypto/rsa on pub
}

// PrivateKey is an RSA private key with two primes, prepared for the
// constant-time CRT operations of one backend. It implements crypto.Signer
// and crypto.Decrypter and is safe for concurrent use.
//
// The zero value is not a key: every method of a PrivateKey not returned by
// [NewPrivateKey], [ParsePKCS1PrivateKey], [ParsePKCS8PrivateKey] or
// [ParsePEMPrivateKey] panics. A copy of a PrivateKey value is the same key:
// the copies share its secret state, and [PrivateKey.Wipe] on any of them
// wipes them all.
type PrivateKey struct {
	pub *PublicKey
	key *rsa.PublicKey // returned by Public
	sk  *secretKey     // shared by every copy; Wipe zeroes and marks it
}

// secretKey is the secret part of a PrivateKey, behind a pointer so that
// every copy of a PrivateKey value shares it and its wiped mark, which
// every operation on the secrets checks first (PrivateKey.secret).
type secretKey struct {
	wiped atomic.Bool
	p, q  *modulus // width w each
	qinv  []uint64 // q^-1 mod p, w limbs
	impl  keyImpl  // the backend's prepared key: n, p, q, dp, dq
	w     int
	// std is crypto/rsa's form of the key, the stdlib backend's own copy
	// (stdPrivateKey), which signs and decrypts; nil on other backends.
	std *rsa.PrivateKey
}

// The panics of every method of a PublicKey or a PrivateKey that its
// constructors did not make (a zero value: its modulus, or its public key,
// is nil), and of every use of a wiped PrivateKey's secrets (aesgcm's
// words).
const (
	errZeroPublic  = "rsa: use of a PublicKey not made by NewPublicKey or PrivateKey.PublicKey (a zero value has no key)"
	errZeroPrivate = "rsa: use of a PrivateKey not made by NewPrivateKey, ParsePKCS1PrivateKey, ParsePKCS8PrivateKey or ParsePEMPrivateKey (a zero value has no key)"
	errWiped       = "rsa: use of a wiped key"
)

// mustBeMade panics on a zero value.
func (pub *PublicKey) mustBeMade() {
	if pub.n == nil {
		panic(errZeroPublic)
	}
}

// mustBeMade panics on a zero value.
func (priv *PrivateKey) mustBeMade() {
	if priv.pub == nil {
		panic(errZeroPrivate)
	}
}

// secret returns the secret state of priv, panicking on a zero value and on
// a wiped key. Every method that uses the secrets calls it first.
func (priv *PrivateKey) secret() *secretKey {
	priv.mustBeMade()
	if priv.sk.wiped.Load() {
		panic(errWiped)
	}
	return priv.sk
}

// Wipe zeroes every secret of the key: the primes, q^-1 mod p, the
// Montgomery constants and the R² and R mod p and q tables, and the
// backend's own copies of them and of the CRT exponents (its limb or digit
// forms). Call it when the key is no longer needed. Afterwards every
// method that uses the secrets (Sign, Decrypt and the Sign* and Decrypt*
// methods, also through crypto.Signer and crypto.Decrypter) panics with
// "rsa: use of a wiped key", on priv and on every copy of *priv, made
// before or after: copies share the secret state and its wiped mark. What
// is public keeps working: Public, PublicKey (and verification with it),
// Size and Backend, so a wiped key can still be identified, for instance
// matched to its certificate. Wiping again, through priv or a copy, does
// nothing. Wipe panics on a zero PrivateKey, like every other method, and
// must not run concurrently with other methods of the key.
//
// Wipe cannot reach the *crypto/rsa.PrivateKey the key was made from (or
// that ParsePKCS1PrivateKey, ParsePKCS8PrivateKey and ParsePEMPrivateKey
// decoded): its math/big values are the caller's, or the garbage
// collector's. On the stdlib backend it zeroes vg's own crypto/rsa copy of
// the key, but not the form crypto/rsa precomputed from it.
func (priv *PrivateKey) Wipe() {
	priv.mustBeMade()
	if priv.sk.wiped.Swap(true) {
		return
	}
	priv.sk.wipe()
}

// wipe zeroes the secrets of sk and of its backend.
func (sk *secretKey) wipe() {
	sk.p.wipe()
	sk.q.wipe()
	wipe(sk.qinv)
	sk.impl.wipe()
	if sk.std != nil {
		wipeStd(sk.std)
		sk.std = nil
	}
}

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

// NewPublicKey validates pub and prepares it. The modulus must have between
// MinModulusBits and MaxModulusBits bits and be odd; the exponent must be odd,
// at least 3 and at most 2^31-1 (crypto/rsa's limit).
func NewPublicKey(pub *rsa.PublicKey, opts ...Option) (*PublicKey, error) {
	b, err := registry.Pick(newConfig(opts).backend)
	if err != nil {
		return nil, err
	}
	return newPublicKey(pub, b)
}

func newPublicKey(pub *rsa.PublicKey, b *cpufeat.Registration[newKeyFunc]) (*PublicKey, error) {
	if pub == nil || pub.N == nil {
		return nil, errors.New("rsa: missing public key")
	}
	if pub.N.Sign() <= 0 {
		return nil, errors.New("rsa: modulus is not positive")
	}
	nBits := pub.N.BitLen()
	if nBits < MinModulusBits || nBits > MaxModulusBits {
		return nil, fmt.Errorf("rsa: a modulus of %d bits is outside the supported sizes, %d to %d bits", nBits, MinModulusBits, MaxModulusBits)
	}
	if pub.N.Bit(0) == 0 {
		return nil, errors.New("rsa: modulus is even")
	}
	if pub.E < 3 || pub.E&1 == 0 {
		return nil, fmt.Errorf("rsa: public exponent %d is out of range (must be odd and at least 3)", pub.E)
	}
	// crypto/rsa's limit, so that int is the same size everywhere: it
	// neither verifies nor encrypts with a larger exponent.
	if pub.E > 1<<31-1 {
		return nil, fmt.Errorf("rsa: public exponent %d is too large (at most 2^31-1, as in crypto/rsa)", pub.E)
	}
	if big.NewInt(int64(pub.E)).Cmp(pub.N) >= 0 {
		return nil, fmt.Errorf("rsa: public exponent %d is not below the modulus", pub.E)
	}
	wn := (nBits + 63) / 64
	n := newModulusFull(limbsFromBytes(pub.N.Bytes(), wn))
	return &PublicKey{
		pub:     rsa.PublicKey{N: new(big.Int).Set(pub.N), E: pub.E},
		n:       n,
		e:       uint64(pub.E),
		k:       (nBits + 7) / 8,
		impl:    b.Value(n, nil),
		backend: b.Name,
		std:     b.Name == stdlibBackend,
	}, nil
}

// Size returns the modulus length in bytes.
func (pub *PublicKey) Size() int {
	pub.mustBeMade()
	return pub.k
}

// Key returns a copy of the crypto/rsa form of the key.
func (pub *PublicKey) Key() *rsa.PublicKey {
	pub.mustBeMade()
	return &rsa.PublicKey{N: new(big.Int).Set(pub.pub.N), E: pub.pub.E}
}

// Backend returns the name of the backend the key was prepared for.
func (pub *PublicKey) Backend() string {
	pub.mustBeMade()
	return pub.backend
}

// publicOpVarTime sets out (k bytes) = in^e mod n, returning an error when in
// is not k bytes or not below n. It is variable time in the public exponent.
func (pub *PublicKey) publicOpVarTime(out, in []byte) error {
	if len(in) != pub.k {
		return fmt.Errorf("rsa: input of %d bytes differs from the modulus length, %d bytes", len(in), pub.k)
	}
	w := pub.n.width()
	x := make([]uint64, 2*w)
	setBytes(x[:w], in)
	if lessThan(x[:w], pub.n.m) == no {
		return errors.New("rsa: input is not below the modulus")
	}
	pub.impl.expVarTime(x[w:], x[:w], pub.e)
	fillBytes(out, x[w:])
	wipe(x)
	return nil
}

// NewPrivateKey validates k and prepares it for the selected backend: the
// best one this build implements among those cpufeat.Enabled allows, or the
// one named with WithBackend. Everything that
// depends only on the key is computed here, never per operation.
//
// Validation rejects every key crypto/rsa's Validate rejects (Go 1.26's
// rules), each with its own error, and a few more: keys with more than two
// primes, a modulus outside MinModulusBits..MaxModulusBits or even, a public
// exponent that is even, below 3, above 2^31-1 or not below n, primes below
// 256 bits, p*q != n, p == q or |p - q| < 2^(nlen/2-100) (Fermat's method
// factors such an n at once), d >= n or d < 2^(nlen/2), d inconsistent with
// e modulo p-1 or q-1, precomputed CRT values (if k has any, it must have
// all three) that differ from the ones derived from d, p and q, and a q^-1
// mod p that is not one, and primes that fail Fermat's test (q^(p-1) = 1
// mod p and p^(q-1) = 1 mod q, run on the backend as the q^-1 mod p and
// p^-1 mod q it computes): crypto/rsa accepts such a key when it carries a
// right Qinv, and its signatures then fail their check. The checks run on
// the package's own constant-time arithmetic (no math/big; only the
// verdicts and the values' lengths are public). Every private-key
// operation still checks its result against the public key.
func NewPrivateKey(k *rsa.PrivateKey, opts ...Option) (*PrivateKey, error) {
	b, err := registry.Pick(newConfig(opts).backend)
	if err != nil {
		return nil, err
	}
	pub, err := checkKeyShape(k, b)
	if err != nil {
		return nil, err
	}
	v := loadKeyLimbs(k, pub)
	defer v.wipe()
	if err := v.validate(uint64(pub.pub.E)); err != nil {
		return nil, err
	}
	pm := newPrimeModulus(v.p, pub.n, v.n.width())
	qm := newPrimeModulus(v.q, pub.n, v.n.width())
	qinv, err := v.crtCoefficient(k.Precomputed, pub.n, pm, qm, b.Value)
	if err != nil {
		pm.wipe()
		qm.wipe()
		return nil, err
	}
	priv := &PrivateKey{
		pub: pub,
		key: pub.Key(),
		sk: &secretKey{
			p:    pm,
			q:    qm,
			qinv: qinv,
			impl: b.Value(pub.n, &crtParams{p: pm, q: qm, dp: v.dp, dq: v.dq, pBits: v.pBits, qBits: v.qBits}),
			w:    len(v.p),
		},
	}
	if b.Name == stdlibBackend {
		priv.sk.std = stdPrivateKey(k)
	}
	return priv, nil
}

// checkKeyShape checks what k's fields are, without their values: nil
// fields, the number of primes, signs and lengths; and prepares the public
// key (newPublicKey checks n and e).
func checkKeyShape(k *rsa.PrivateKey, b *cpufeat.Registration[newKeyFunc]) (*PublicKey, error) {
	if k == nil {
		return nil, errors.New("rsa: missing private key")
	}
	if len(k.Primes) > 2 {
		return nil, fmt.Errorf("rsa: keys with more than two primes are not supported (this key has %d)", len(k.Primes))
	}
	if len(k.Primes) != 2 {
		return nil, fmt.Errorf("rsa: a private key needs exactly two primes, this one has %d", len(k.Primes))
	}
	if k.Primes[0] == nil || k.Primes[1] == nil {
		return nil, errors.New("rsa: private key has a nil prime")
	}
	if k.D == nil {
		return nil, errors.New("rsa: private key has no private exponent (D is nil)")
	}
	pub, err := newPublicKey(&k.PublicKey, b)
	if err != nil {
		return nil, err
	}
	P, Q := k.Primes[0], k.Primes[1]
	for _, v := range []struct {
		name string
		v    *big.Int
	}{{"prime P", P}, {"prime Q", Q}, {"private exponent D", k.D}} {
		if v.v.Sign() <= 0 {
			return nil, fmt.Errorf("rsa: private key's %s is not positive", v.name)
		}
	}
	// The lengths of the primes and of d are public, like the modulus
	// size (crypto/rsa's checks leak them too).
	pBits, qBits := P.BitLen(), Q.BitLen()
	if pBits < 256 || qBits < 256 {
		return nil, fmt.Errorf("rsa: primes of %d and %d bits are too small (minimum 256)", pBits, qBits)
	}
	nBits := pub.pub.N.BitLen()
	if pBits+qBits > nBits+1 {
		return nil, errors.New("rsa: invalid private key: p*q != n")
	}
	if k.D.BitLen() > nBits {
		return nil, errDNotBelowN
	}
	return pub, nil
}

var errDNotBelowN = errors.New("rsa: invalid private key: d is not below the modulus n")

// keyLimbs holds a key's secret numbers as fixed-width limbs while it is
// validated and prepared; wipe zeroes them.
type keyLimbs struct {
	n            *modulus // the public modulus, wn limbs
	nBits        int
	p, q         []uint64 // w limbs each, w from the longer prime
	d            []uint64 // wn limbs
	dp, dq       []uint64 // d mod (p-1) and d mod (q-1), w limbs; set by validate
	pBits, qBits int
}

// loadKeyLimbs converts k's primes and d (whose lengths checkKeyShape
// checked) to limbs.
func loadKeyLimbs(k *rsa.PrivateKey, pub *PublicKey) *keyLimbs {
	P, Q := k.Primes[0], k.Primes[1]
	pBits, qBits := P.BitLen(), Q.BitLen()
	w := (max(pBits, qBits) + 63) / 64
	return &keyLimbs{
		n:     pub.n,
		nBits: pub.pub.N.BitLen(),
		p:     limbsFromBytes(P.Bytes(), w),
		q:     limbsFromBytes(Q.Bytes(), w),
		d:     limbsFromBytes(k.D.Bytes(), pub.n.width()),
		pBits: pBits,
		qBits: qBits,
	}
}

func (v *keyLimbs) wipe() {
	for _, x := range [][]uint64{v.p, v.q, v.d, v.dp, v.dq} {
		wipe(x)
	}
}

// validate checks the values of the key, each check in constant time with
// a public verdict, in crypto/rsa's terms (checkPrivateKey in
// crypto/internal/fips140/rsa): p*q = n with both primes odd; |p - q| >=
// 2^(nlen/2 - 100); d < n; d >= 2^(nlen/2); and e*dp = 1 mod p-1, e*dq = 1
// mod q-1, where it sets dp = d mod (p-1) and dq = d mod (q-1).
func (v *keyLimbs) validate(e uint64) error {
	w, wn := len(v.p), v.n.width()

	// p*q == n (n padded to 2w limbs).
	prod := make([]uint64, 2*w)
	defer wipe(prod)
	mulFull(prod, v.p, v.q)
	nPad := make([]uint64, max(2*w, wn))
	copy(nPad, v.n.m)
	if natEqual(prod, nPad[:2*w])&natIsZero(nPad[2*w:]) == no {
		return errors.New("rsa: invalid private key: p*q != n")
	}
	if choice(v.p[0]&v.q[0]&1) == no {
		return errors.New("rsa: invalid private key: a prime is even")
	}

	// |p - q|, both orders computed, one kept with a mask.
	diff := make([]uint64, 2*w)
	defer wipe(diff)
	pq, qp := diff[:w], diff[w:]
	borrow := subVV(pq, v.p, v.q)
	subVV(qp, v.q, v.p)
	assign(pq, qp, choice(borrow))
	if natIsZero(pq) == yes {
		return errors.New("rsa: invalid private key: p == q (n is a square)")
	}
	if bound := v.nBits/2 - 100; natAtLeastPow2(pq, bound) == no {
		return fmt.Errorf("rsa: invalid private key: |p - q| < 2^%d (nlen/2 - 100): p and q are so close that Fermat's method factors n", bound)
	}

	if lessThan(v.d, v.n.m) == no {
		return errDNotBelowN
	}
	if natAtLeastPow2(v.d, v.nBits/2) == no {
		return fmt.Errorf("rsa: invalid private key: d < 2^%d (nlen/2) is too small (attacks on small private exponents recover it)", v.nBits/2)
	}

	var okp, okq choice
	v.dp, okp = crtExponent(v.d, v.p, e, v.nBits, v.pBits)
	v.dq, okq = crtExponent(v.d, v.q, e, v.nBits, v.qBits)
	if okp&okq == no {
		return errors.New("rsa: invalid private key: d is inconsistent with e (e*d != 1 mod p-1 or q-1)")
	}
	return nil
}

// crtCoefficient returns qinv = q^-1 mod p, computed as q^(p-2) mod p on
// the backend whose key constructor is newKey, beside p^-1 mod q =
// p^(q-2) mod q in the same dual exponentiation, and checks both as
// crypto/rsa checks its qinv: below the prime, and its product with the
// other prime 1 modulo it. That is Fermat's test of each prime (to the base
// of the other one): a composite p or q fails it, as almost every number
// that is not prime does. When k carries precomputed values, its Dp and Dq
// must equal the dp and dq that validate derived from d, and its Qinv the
// qinv computed here.
func (v *keyLimbs) crtCoefficient(pc rsa.PrecomputedValues, n, pm, qm *modulus, newKey newKeyFunc) ([]uint64, error) {
	w := len(v.p)
	qinv := make([]uint64, w)
	s := make([]uint64, 9*w)
	defer wipe(s)
	qmod, pmod, pinv := s[:w], s[w:2*w], s[2*w:3*w] // q mod p, p mod q, p^-1 mod q
	t, u := s[3*w:5*w], s[5*w:6*w]                  // a product, a number
	pm2, qm2 := s[6*w:7*w], s[7*w:8*w]              // p-2, q-2
	given := s[8*w:]                                // the key's Qinv
	copy(t, v.q)
	pm.redc(qmod, t)             // q/R mod p
	pm.mul(qmod, qmod, pm.rr, t) // q mod p
	clear(t)
	copy(t, v.p)
	qm.redc(pmod, t)             // p/R mod q
	qm.mul(pmod, pmod, qm.rr, t) // p mod q

	// Both exponentiations on a key of the backend prepared with the
	// exponents p-2 and q-2 over copies of the primes (a backend may keep
	// and wipe the primes it is given), then wiped.
	two := make([]uint64, w)
	two[0] = 2
	subVV(pm2, v.p, two)
	subVV(qm2, v.q, two)
	fermat := newKey(n, &crtParams{p: pm.clone(), q: qm.clone(), dp: pm2, dq: qm2, pBits: v.pBits, qBits: v.qBits})
	fermat.expCRT(qinv, pinv, qmod, pmod)
	fermat.wipe()

	pm.mul(u, qinv, qmod, t) // qinv*q/R
	pm.mul(u, u, pm.rr, t)   // qinv*q mod p
	pOK := lessThan(qinv, v.p) & natIsOne(u)
	qm.mul(u, pinv, pmod, t) // pinv*p/R
	qm.mul(u, u, qm.rr, t)   // pinv*p mod q
	qOK := lessThan(pinv, v.q) & natIsOne(u)

	good := yes
	if pc.Dp != nil || pc.Dq != nil || pc.Qinv != nil {
		for _, c := range []struct {
			v    *big.Int
			want []uint64
		}{{pc.Dp, v.dp}, {pc.Dq, v.dq}, {pc.Qinv, qinv}} {
			if c.v == nil || c.v.Sign() < 0 || c.v.BitLen() > 64*w {
				good = no
				continue
			}
			setBytes(given, c.v.Bytes())
			good &= natEqual(given, c.want)
		}
	}
	var err error
	switch {
	case pOK == no:
		err = errors.New("rsa: invalid private key: q^(p-2) mod p is not the inverse of q modulo p, so p is not prime")
	case qOK == no:
		err = errors.New("rsa: invalid private key: p^(q-2) mod q is not the inverse of p modulo q, so q is not prime")
	case good == no:
		err = errors.New("rsa: invalid private key: precomputed CRT values (Dp, Dq, Qinv) are inconsistent with D, P and Q")
	}
	if err != nil {
		wipe(qinv)
		return nil, err
	}
	return qinv, nil
}

// crtExponent returns d mod (p-1) and whether e * that == 1 mod (p-1), in
// constant time, for d < 2^nBits and a prime p of pBits bits (public
// lengths). Both reductions start from the part of their input that the
// bounds place below p-1 >= 2^(pBits-1): d >> (nBits-pBits+1), and, as
// dp < p-1, e*dp >> bits(e).
func crtExponent(d, p []uint64, e uint64, nBits, pBits int) ([]uint64, choice) {
	w := len(p)
	pm1 := append([]uint64(nil), p...)
	pm1[0] &^= 1 // p is odd: p-1 clears bit 0
	dp := make([]uint64, w)
	reduceBits(dp, d, pm1, nBits-pBits+1)
	// e*dp as w+1 limbs, reduced mod p-1.
	ed := make([]uint64, w+1)
	ed[w] = addMulVVW(ed[:w], dp, e)
	r := make([]uint64, w)
	reduceBits(r, ed, pm1, bits.Len64(e))
	ok := natIsOne(r)
	wipe(pm1)
	wipe(ed)
	wipe(r)
	return dp, ok
}

// newPrimeModulus prepares the Montgomery setup of a prime p of width w,
// given the prepared modulus n (width wn).
//
// R_p^2 = 2^(128w) mod p. Fast path: with E = 192w and D = E - 64*wn, when
// 0 <= D and D/64 < wn-1 the power 2^D is below n (n's top limb is nonzero by
// construction), so one Montgomery multiplication by R_n^2 gives
// G = 2^D * R_n mod n = 2^E mod n, and since G < n < p*R_p, one Montgomery
// reduction modulo p gives G/R_p = 2^(128w) mod p. That replaces the ~11
// squarings and 64w doublings of the chain, which stays as the fallback (for
// primes much shorter than half of n). The test uses public lengths only.
func newPrimeModulus(pv []uint64, n *modulus, wn int) *modulus {
	w := len(pv)
	D := 192*w - 64*wn
	if D < 0 || D/64 >= wn-1 {
		return newModulus(pv)
	}
	m := &modulus{
		m:     append([]uint64(nil), pv...),
		m0inv: minusInverse64(pv[0]),
		rr:    make([]uint64, w),
		one:   make([]uint64, w),
	}
	g := make([]uint64, wn)
	g[D/64] = 1 << uint(D%64)
	tn := make([]uint64, 2*wn)
	n.mul(g, g, n.rr, tn)
	t := make([]uint64, 2*max(w, wn))
	copy(t, g)
	m.redc(m.rr, t[:2*w])
	clear(t)
	t[0] = 1
	m.mul(m.one, t[:w], m.rr, t[w:])
	wipe(t)
	return m
}

// ParsePKCS1PrivateKey parses a PKCS #1 RSAPrivateKey in DER form (with
// crypto/x509) and prepares it like NewPrivateKey. A parse error wraps
// crypto/x509's.
func ParsePKCS1PrivateKey(der []byte, opts ...Option) (*PrivateKey, error) {
	k, err := x509.ParsePKCS1PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("rsa: parsing a PKCS #1 private key: %w", err)
	}
	return NewPrivateKey(k, opts...)
}

// ParsePKCS8PrivateKey parses a PKCS #8 PrivateKeyInfo in DER form (with
// crypto/x509), which must hold an RSA key, and prepares it like
// NewPrivateKey. A parse error wraps crypto/x509's.
func ParsePKCS8PrivateKey(der []byte, opts ...Option) (*PrivateKey, error) {
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("rsa: parsing a PKCS #8 private key: %w", err)
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("rsa: PKCS #8 key is a %T, not an RSA key", k)
	}
	return NewPrivateKey(rk, opts...)
}

// ParsePEMPrivateKey parses the first private-key PEM block of data, "RSA
// PRIVATE KEY" (PKCS #1) or "PRIVATE KEY" (PKCS #8), and prepares it like
// NewPrivateKey. Blocks that hold no private key, such as the CERTIFICATE
// blocks of a file that bundles a chain with its key, are skipped. Encrypted
// keys ("ENCRYPTED PRIVATE KEY", or a PKCS #1 block with a Proc-Type
// ENCRYPTED header) are refused: decrypt them first.
func ParsePEMPrivateKey(data []byte, opts ...Option) (*PrivateKey, error) {
	var skipped []string
	for rest := data; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if !strings.HasSuffix(block.Type, "PRIVATE KEY") {
			skipped = append(skipped, block.Type)
			continue
		}
		switch {
		case block.Type == "ENCRYPTED PRIVATE KEY" || strings.Contains(block.Headers["Proc-Type"], "ENCRYPTED"):
			return nil, fmt.Errorf("rsa: the %q PEM block is encrypted; encrypted PEM keys are not supported (decrypt the key first)", block.Type)
		case block.Type == "RSA PRIVATE KEY":
			return ParsePKCS1PrivateKey(block.Bytes, opts...)
		case block.Type == "PRIVATE KEY":
			return ParsePKCS8PrivateKey(block.Bytes, opts...)
		}
		return nil, fmt.Errorf("rsa: unsupported PEM block type %q (want \"RSA PRIVATE KEY\" or \"PRIVATE KEY\")", block.Type)
	}
	if len(skipped) == 0 {
		return nil, errors.New("rsa: no PEM block found")
	}
	return nil, fmt.Errorf("rsa: no private key PEM block found (want \"RSA PRIVATE KEY\" or \"PRIVATE KEY\"; found %q)", skipped)
}

// Public returns the public key as a *crypto/rsa.PublicKey, so crypto/tls
// and crypto/x509 recognise the key. It works after Wipe, as PublicKey,
// Size and Backend do.
func (priv *PrivateKey) Public() crypto.PublicKey {
	priv.mustBeMade()
	return priv.key
}

// PublicKey returns the prepared public key.
func (priv *PrivateKey) PublicKey() *PublicKey {
	priv.mustBeMade()
	return priv.pub
}

// Size returns the modulus length in bytes.
func (priv *PrivateKey) Size() int {
	priv.mustBeMade()
	return priv.pub.k
}

// Backend returns the name of the backend the key was prepared for.
func (priv *PrivateKey) Backend() string {
	priv.mustBeMade()
	return priv.pub.backend
}

// faultHook, when set by a test, may corrupt the CRT halves between the
// exponentiation and the recombination.
var faultHook func(mp, mq []uint64)

// privateOp sets out (k bytes) = in^d mod n with the CRT and checks the
// result against the public key. in must be k bytes and below n (it is the
// public ciphertext or the encoded message); the result is secret.
func (priv *PrivateKey) privateOp(out, in []byte) error {
	sk := priv.secret()
	pub := priv.pub
	if len(in) != pub.k || len(out) != pub.k {
		return fmt.Errorf("rsa: input of %d bytes and output of %d bytes differ from the modulus length, %d bytes", len(in), len(out), pub.k)
	}
	w, wn := sk.w, pub.n.width()
	ww := max(2*w, wn)
	// One allocation for every temporary; wiped before returning.
	scratch := make([]uint64, 3*ww+wn+6*w)
	defer wipe(scratch)
	c, rest := scratch[:ww], scratch[ww:] // the input, zero padded
	t, rest := rest[:ww], rest[ww:]       // products and reductions
	s, rest := rest[:ww], rest[ww:]       // the result
	v, rest := rest[:wn], rest[wn:]       // s^e mod n
	mp, mq, rest := rest[:w], rest[w:2*w], rest[2*w:]
	xp, xq, rest := rest[:w], rest[w:2*w], rest[2*w:]
	a, h := rest[:w], rest[w:2*w]

	setBytes(c[:wn], in)
	if lessThan(c[:wn], pub.n.m) == no {
		return errors.New("rsa: input is not below the modulus")
	}

	// xp = c mod p = REDC(c) * R^2 * R^-1 (c < n < p*R).
	copy(t, c[:2*w])
	sk.p.redc(xp, t)
	sk.p.mul(xp, xp, sk.p.rr, t)
	copy(t, c[:2*w])
	sk.q.redc(xq, t)
	sk.q.mul(xq, xq, sk.q.rr, t)

	sk.impl.expCRT(mp, mq, xp, xq)
	if faultHook != nil {
		faultHook(mp, mq)
	}

	// h = (mp - mq) * qinv mod p, with both halves taken into the
	// Montgomery domain so that mq (< q, maybe >= p) is reduced there.
	sk.p.mul(a, mp, sk.p.rr, t)
	sk.p.mul(h, mq, sk.p.rr, t)
	sk.p.modSub(a, a, h, xp)
	sk.p.mul(h, a, sk.qinv, t)
	// s = mq + h*q < n.
	sw := t[:2*w]
	mulFull(sw, h, sk.q.m)
	carry := addVV(sw[:w], sw[:w], mq)
	for i := w; i < 2*w; i++ {
		sw[i], carry = bits.Add64(sw[i], 0, carry)
	}
	clear(s)
	copy(s, sw)

	// The fault check: s^e mod n == c, and s fits in n's width.
	sk.impl.expVarTime(v, s[:wn], pub.e)
	ok := natEqual(v, c[:wn]) & natIsZero(s[wn:]) & not(choice(carry))
	// Withhold the value on failure: zero it with a mask, then report.
	keep := ctMask(ok)
	for i := range s {
		s[i] &= keep
	}
	fillBytes(out, s[:wn])
	declassify(&ok) // the fault check's verdict is public
	if ok == no {
		return ErrFault
	}
	return nil
}

// checkHash returns an error unless h is a known, linked hash.
func checkHash(h crypto.Hash) error {
	if h.Available() {
		return nil
	}
	if knownHash(h) {
		return fmt.Errorf("rsa: hash function %s is not available (no package linked into the program implements it)", h)
	}
	return fmt.Errorf("rsa: hash function %s is not available", hashName(h))
}

// knownHash reports whether crypto.Hash has a name for h. Its String method
// is the only list of names it exports: for any other value it returns
// "unknown hash value N".
func knownHash(h crypto.Hash) bool {
	return !strings.HasPrefix(h.String(), "unknown hash value")
}

// hashName names h in an error message: crypto.Hash's name ("SHA-256") for
// a hash it knows, else the number and "(unknown)", as in "hash function 0
// (unknown) is not available" (crypto.Hash's own text, "unknown hash value
// 0", does not read as a name).
func hashName(h crypto.Hash) string {
	if knownHash(h) {
		return h.String()
	}
	return fmt.Sprintf("%d (unknown)", uint(h))
}

// errDigestLength is the error for a digest whose length is not the size
// of hash h (a known hash), with both lengths.
func errDigestLength(h crypto.Hash, got int) error {
	return fmt.Errorf("rsa: digest length %d does not match hash function %s, whose digests are %d bytes", got, h, h.Size())
}
