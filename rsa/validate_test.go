package rsa_test

import (
	stdrsa "crypto/rsa"
	"math/big"
	mrand "math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/rsa"
)

// The keys of these tests are built by hand with math/big from primes found
// here (deterministic seeds, so every run builds the same keys), and every
// expected verdict comes from crypto/rsa's rule, checked twice: against the
// numbers themselves (the rule, as Go 1.26's crypto/internal/fips140/rsa
// checkPrivateKey and checkPublicKey state it) and against crypto/rsa's
// Validate at test time. vg's own output is never the reference.

var bigOne = big.NewInt(1)

// smallPrimes sieve the candidates of nextPrime.
var smallPrimes = []uint64{3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181, 191, 193, 197, 199}

// nextPrime returns the smallest prime p >= x, for x of a few hundred
// bits; with pair, the smallest such that 2p - 1 is prime too. The
// candidates are sieved by the small primes (residues kept from x's).
func nextPrime(x *big.Int, pair bool) *big.Int {
	x = new(big.Int).SetBit(x, 0, 1)
	res := make([]uint64, len(smallPrimes))
	m := new(big.Int)
	for i, s := range smallPrimes {
		res[i] = m.Mod(x, new(big.Int).SetUint64(s)).Uint64()
	}
	p, q := new(big.Int), new(big.Int)
next:
	for delta := uint64(0); ; delta += 2 {
		for i, s := range smallPrimes {
			r := (res[i] + delta) % s
			if r == 0 || pair && (2*r+s-1)%s == 0 {
				continue next
			}
		}
		p.Add(x, new(big.Int).SetUint64(delta))
		if !p.ProbablyPrime(20) {
			continue
		}
		if pair && !q.Sub(q.Lsh(p, 1), bigOne).ProbablyPrime(20) {
			continue
		}
		return p
	}
}

// randomOdd returns a random odd number of bits bits with its top two bits
// set (so that the product of two has exactly twice the bits), from r.
func randomOdd(r *mrand.Rand, bits int) *big.Int {
	x := new(big.Int)
	for i := range bits {
		if r.IntN(2) == 1 {
			x.SetBit(x, i, 1)
		}
	}
	x.SetBit(x, bits-1, 1)
	x.SetBit(x, bits-2, 1)
	return x.SetBit(x, 0, 1)
}

// handKey builds the two-prime key of p, q and e with d = e^-1 mod
// lcm(p-1, q-1) and the CRT values of PKCS #1 (Dp = d mod p-1, Dq = d mod
// q-1, Qinv = q^-1 mod p), or returns nil when e has no inverse.
func handKey(p, q *big.Int, e int) *stdrsa.PrivateKey {
	pm1 := new(big.Int).Sub(p, bigOne)
	qm1 := new(big.Int).Sub(q, bigOne)
	g := new(big.Int).GCD(nil, nil, pm1, qm1)
	lambda := new(big.Int).Mul(pm1, qm1)
	lambda.Div(lambda, g)
	d := new(big.Int).ModInverse(big.NewInt(int64(e)), lambda)
	if d == nil {
		return nil
	}
	k := &stdrsa.PrivateKey{
		PublicKey: stdrsa.PublicKey{N: new(big.Int).Mul(p, q), E: e},
		D:         d,
		Primes:    []*big.Int{new(big.Int).Set(p), new(big.Int).Set(q)},
	}
	setCRT(k)
	return k
}

// setCRT sets k's Precomputed CRT values from its D and primes, by hand.
func setCRT(k *stdrsa.PrivateKey) {
	p, q := k.Primes[0], k.Primes[1]
	k.Precomputed = stdrsa.PrecomputedValues{
		Dp:   new(big.Int).Mod(k.D, new(big.Int).Sub(p, bigOne)),
		Dq:   new(big.Int).Mod(k.D, new(big.Int).Sub(q, bigOne)),
		Qinv: new(big.Int).ModInverse(q, p),
	}
}

// withoutCRT returns a copy of k without Precomputed values, for the other
// path of both crypto/rsa (NewPrivateKey instead of
// NewPrivateKeyWithPrecomputation) and vg (q^-1 mod p computed).
func withoutCRT(k *stdrsa.PrivateKey) *stdrsa.PrivateKey {
	c := *k
	c.Primes = slices.Clone(k.Primes)
	c.Precomputed = stdrsa.PrecomputedValues{}
	return &c
}

// requireSameVerdict checks that crypto/rsa's Validate gives the verdict
// the rule gives (valid), and that NewPrivateKey agrees, with an error that
// contains substr when the key is invalid. Both the key as given and its
// copy without Precomputed values are checked.
func requireSameVerdict(t *testing.T, k *stdrsa.PrivateKey, valid bool, substr string) {
	t.Helper()
	for _, k := range []*stdrsa.PrivateKey{k, withoutCRT(k)} {
		name := "with Precomputed"
		if k.Precomputed.Dp == nil {
			name = "without Precomputed"
		}
		stdErr := k.Validate()
		require.Equal(t, valid, stdErr == nil, "%s: the rule and crypto/rsa's Validate disagree (%v)", name, stdErr)
		_, err := rsa.NewPrivateKey(k)
		if valid {
			require.NoError(t, err, name)
			continue
		}
		require.Error(t, err, "%s: crypto/rsa rejects this key (%v), vg accepts it", name, stdErr)
		require.ErrorContains(t, err, substr, name)
	}
}

// fermatPrimes returns a 512-bit prime p and the primes q found from p plus
// each offset (q = nextPrime(p + offset)), from a fixed seed.
func fermatPrimes(offsets ...*big.Int) (*big.Int, []*big.Int) {
	r := mrand.New(mrand.NewChaCha8([32]byte{'f', 'e', 'r', 'm', 'a', 't'}))
	p := nextPrime(randomOdd(r, 512), false)
	var qs []*big.Int
	for _, off := range offsets {
		qs = append(qs, nextPrime(new(big.Int).Add(p, off), false))
	}
	return p, qs
}

// TestValidationCloseFactors: |p - q| <= 2^(nlen/2 - 100) (a bit length of
// nlen/2 - 100 or less) lets Fermat's method factor n at once; crypto/rsa
// rejects such keys ("|p - q| too small", "p == q"), and so must vg, on
// both sides of the bound and with the primes in either order.
func TestValidationCloseFactors(t *testing.T) {
	const nlen = 1024
	bound := nlen/2 - 100 // the largest bit length of |p - q| that is rejected
	p, qs := fermatPrimes(big.NewInt(2), new(big.Int).Lsh(bigOne, uint(bound-1)), new(big.Int).Lsh(bigOne, uint(bound)))
	for _, c := range []struct {
		name  string
		q     *big.Int
		valid bool
	}{
		{"next prime", qs[0], false},
		{"just below the bound", qs[1], false},
		{"just above the bound", qs[2], true},
	} {
		t.Run(c.name, func(t *testing.T) {
			diff := new(big.Int).Sub(c.q, p)
			require.Equal(t, c.valid, diff.BitLen() > bound, "the case does not test what it says: |p-q| has %d bits", diff.BitLen())
			for _, order := range [][2]*big.Int{{p, c.q}, {c.q, p}} {
				k := handKey(order[0], order[1], 65537)
				require.NotNil(t, k)
				require.Equal(t, nlen, k.N.BitLen())
				requireSameVerdict(t, k, c.valid, "|p - q|")
			}
		})
	}
	t.Run("p == q", func(t *testing.T) {
		k := handKey(p, p, 65537)
		require.NotNil(t, k)
		requireSameVerdict(t, k, false, "p == q")
	})
}

// TestValidationLargeExponent: crypto/rsa requires e <= 2^31 - 1 (so that
// int is the same on every platform) and cannot even verify a signature
// of a key with a larger one: vg rejects such keys, private and public.
func TestValidationLargeExponent(t *testing.T) {
	r := mrand.New(mrand.NewChaCha8([32]byte{'e'}))
	p := nextPrime(randomOdd(r, 512), false)
	q := nextPrime(randomOdd(r, 512), false)
	eMax := 1<<31 - 1 // a prime (Mersenne's M31)
	eOver := int(nextPrime(big.NewInt(1<<31+1), false).Int64())
	for _, c := range []struct {
		name  string
		e     int
		valid bool
	}{
		{"2^31-1", eMax, true},
		{"the prime after 2^31", eOver, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.valid, c.e <= 1<<31-1)
			k := handKey(p, q, c.e)
			require.NotNil(t, k)
			requireSameVerdict(t, k, c.valid, "exponent")
			_, err := rsa.NewPublicKey(&k.PublicKey)
			if c.valid {
				require.NoError(t, err)
				return
			}
			// crypto/rsa refuses the public key too, in every operation.
			stdErr := stdrsa.VerifyPKCS1v15(&k.PublicKey, 0, []byte("x"), make([]byte, k.Size()))
			require.ErrorContains(t, stdErr, "public exponent too large")
			require.ErrorContains(t, err, "exponent")
		})
	}
}

// TestValidationLargeD: d >= n is rejected by crypto/rsa (bigmod refuses a
// d that overflows the modulus), also when d is the right exponent modulo
// lcm(p-1, q-1) and the CRT values match it.
func TestValidationLargeD(t *testing.T) {
	k := testKey(t, 2048)
	p, q := k.Primes[0], k.Primes[1]
	pm1, qm1 := new(big.Int).Sub(p, bigOne), new(big.Int).Sub(q, bigOne)
	lambda := new(big.Int).Mul(pm1, qm1)
	lambda.Div(lambda, new(big.Int).GCD(nil, nil, pm1, qm1))
	// The smallest d' = d + j*lambda >= n: the same exponent modulo lambda,
	// as long as n (same byte length), and one much longer.
	j := new(big.Int).Sub(k.N, k.D)
	j.Add(j, lambda).Sub(j, bigOne).Div(j, lambda)
	dJustOver := new(big.Int).Add(k.D, new(big.Int).Mul(j, lambda))
	dLonger := new(big.Int).Add(k.D, new(big.Int).Mul(k.N, lambda))
	for _, c := range []struct {
		name  string
		d     *big.Int
		valid bool
	}{
		{"d", k.D, true},
		{"d + j*lambda, just above n", dJustOver, false},
		{"d + n*lambda", dLonger, false},
		{"n", k.N, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.valid, c.d.Cmp(k.N) < 0)
			m := cloneKey(k, false)
			m.D = new(big.Int).Set(c.d)
			setCRT(m)
			requireSameVerdict(t, m, c.valid, "d is not below the modulus n")
		})
	}
}

// TestValidationSmallD: crypto/rsa rejects d <= 2^(nlen/2) (Wiener's and
// Boneh-Durfee's attacks recover small private exponents). A key with a
// small e and such a d needs a small lcm(p-1, q-1): q = 2p - 1 gives
// lcm = 2(p-1), about 2^(nlen/2), and d = e^-1 mod lcm falls below
// 2^(nlen/2) for about half of the exponents e.
func TestValidationSmallD(t *testing.T) {
	// A seed whose search for p is short.
	r := mrand.New(mrand.NewChaCha8([32]byte{'s', 'm', 'a', 'l', 'l', ' ', 'd', 5}))
	two := big.NewInt(2)
	p := nextPrime(randomOdd(r, 512), true)
	q := new(big.Int).Sub(new(big.Int).Mul(p, two), bigOne)
	nlen := new(big.Int).Mul(p, q).BitLen()
	var small, large *stdrsa.PrivateKey
	for e := 65537; small == nil || large == nil; e += 2 {
		k := handKey(p, q, e)
		switch {
		case k == nil:
		case k.D.BitLen() <= nlen/2 && small == nil:
			small = k
		case k.D.BitLen() > nlen/2 && large == nil:
			large = k
		}
	}
	t.Run("d <= 2^(nlen/2)", func(t *testing.T) { requireSameVerdict(t, small, false, "is too small") })
	t.Run("d > 2^(nlen/2)", func(t *testing.T) { requireSameVerdict(t, large, true, "") })
}

// TestValidationMatchesStdlib applies crypto/rsa's own list of modified
// keys (TestModifiedPrivateKey in crypto/rsa/rsa_test.go, Go 1.26) and a
// few more to a valid key: every key crypto/rsa's Validate rejects, vg
// rejects.
func TestValidationMatchesStdlib(t *testing.T) {
	base := testKey(t, 2048)
	other := testKey(t, 3072)
	add := func(x *big.Int, v int64) *big.Int { return new(big.Int).Add(x, big.NewInt(v)) }
	for _, c := range []struct {
		name   string
		mutate func(k *stdrsa.PrivateKey)
		// precomputedOnly: the case changes Precomputed values, which a
		// key without them does not have (and crypto/rsa ignores a
		// partial set).
		precomputedOnly bool
	}{
		{"PublicKey mismatch", func(k *stdrsa.PrivateKey) { k.PublicKey = other.PublicKey }, false},
		{"Precomputed mismatch", func(k *stdrsa.PrivateKey) {
			k.Precomputed = cloneKey(other, true).Precomputed
		}, true},
		{"D+2", func(k *stdrsa.PrivateKey) { k.D = add(k.D, 2) }, false},
		{"D=0", func(k *stdrsa.PrivateKey) { k.D = new(big.Int) }, false},
		{"D is nil", func(k *stdrsa.PrivateKey) { k.D = nil }, false},
		{"N+2", func(k *stdrsa.PrivateKey) { k.N = add(k.N, 2) }, false},
		{"N=0", func(k *stdrsa.PrivateKey) { k.N = new(big.Int) }, false},
		{"N is nil", func(k *stdrsa.PrivateKey) { k.N = nil }, false},
		{"P+2", func(k *stdrsa.PrivateKey) { k.Primes[0] = add(k.Primes[0], 2) }, false},
		{"P=0", func(k *stdrsa.PrivateKey) { k.Primes[0] = new(big.Int) }, false},
		{"P is nil", func(k *stdrsa.PrivateKey) { k.Primes[0] = nil }, false},
		{"Q+2", func(k *stdrsa.PrivateKey) { k.Primes[1] = add(k.Primes[1], 2) }, false},
		{"Q=0", func(k *stdrsa.PrivateKey) { k.Primes[1] = new(big.Int) }, false},
		{"Q is nil", func(k *stdrsa.PrivateKey) { k.Primes[1] = nil }, false},
		{"E+2", func(k *stdrsa.PrivateKey) { k.E += 2 }, false},
		{"E=0", func(k *stdrsa.PrivateKey) { k.E = 0 }, false},
		{"E=1", func(k *stdrsa.PrivateKey) { k.E = 1 }, false},
		{"E=-65537", func(k *stdrsa.PrivateKey) { k.E = -65537 }, false},
		{"one prime", func(k *stdrsa.PrivateKey) { k.Primes = k.Primes[:1] }, false},
		{"Dp+(p-1)", func(k *stdrsa.PrivateKey) {
			k.Precomputed.Dp = new(big.Int).Add(k.Precomputed.Dp, new(big.Int).Sub(k.Primes[0], bigOne))
		}, true},
		{"Dq+2", func(k *stdrsa.PrivateKey) { k.Precomputed.Dq = add(k.Precomputed.Dq, 2) }, true},
		{"Qinv+p", func(k *stdrsa.PrivateKey) { k.Precomputed.Qinv = new(big.Int).Add(k.Precomputed.Qinv, k.Primes[0]) }, true},
		{"Qinv=0", func(k *stdrsa.PrivateKey) { k.Precomputed.Qinv = new(big.Int) }, true},
		{"N=p*q*p", func(k *stdrsa.PrivateKey) { k.N = new(big.Int).Mul(k.N, k.Primes[0]) }, false},
		{"P and Q swapped, Qinv kept", func(k *stdrsa.PrivateKey) {
			k.Primes[0], k.Primes[1] = k.Primes[1], k.Primes[0]
			k.Precomputed.Dp, k.Precomputed.Dq = k.Precomputed.Dq, k.Precomputed.Dp
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, keep := range []bool{true, false} {
				if c.precomputedOnly && !keep {
					continue
				}
				k := cloneKey(base, keep)
				c.mutate(k)
				stdErr := k.Validate()
				require.Error(t, stdErr, "crypto/rsa accepts this key: the case tests nothing")
				_, err := rsa.NewPrivateKey(k)
				require.Error(t, err, "crypto/rsa rejects this key (%v), vg accepts it (Precomputed kept: %v)", stdErr, keep)
			}
		})
	}
	// Both accept the key itself, with and without Precomputed.
	requireSameVerdict(t, cloneKey(base, true), true, "")
}

// TestValidationCompositePrime: a "prime" p = r*s that is the product of
// two primes, with d chosen so that e*d = 1 mod p-1 and mod q-1 (what the
// checks of d look at). Without Precomputed values crypto/rsa computes
// q^-1 mod p as q^(p-2) mod p, which is wrong for a composite p, and
// rejects the key ("invalid CRT coefficient"); vg checks its own q^(p-2)
// the same way. With a correct Qinv crypto/rsa's Validate accepts the key
// (its signatures then fail their check), and vg rejects it still: it
// computes q^(p-2) mod p itself (Fermat's test of p) and finds it is not
// the inverse.
func TestValidationCompositePrime(t *testing.T) {
	r := mrand.New(mrand.NewChaCha8([32]byte{'r', 's'}))
	e := big.NewInt(65537)
	var k *stdrsa.PrivateKey
	for k == nil {
		p := new(big.Int).Mul(nextPrime(randomOdd(r, 256), false), nextPrime(randomOdd(r, 256), false))
		q := nextPrime(randomOdd(r, p.BitLen()), false)
		pm1, qm1 := new(big.Int).Sub(p, bigOne), new(big.Int).Sub(q, bigOne)
		dp := new(big.Int).ModInverse(e, pm1)
		dq := new(big.Int).ModInverse(e, qm1)
		if dp == nil || dq == nil {
			continue
		}
		// d = dp mod p-1 and d = dq mod q-1 (consistent modulo their gcd,
		// both being e^-1 there): d = dp + (p-1)*x with
		// (p-1)/g * x = (dq-dp)/g mod (q-1)/g.
		g := new(big.Int).GCD(nil, nil, pm1, qm1)
		m := new(big.Int).Div(qm1, g)
		x := new(big.Int).Sub(dq, dp)
		x.Div(x, g)
		x.Mul(x, new(big.Int).ModInverse(new(big.Int).Div(pm1, g), m)).Mod(x, m)
		d := new(big.Int).Add(dp, x.Mul(x, pm1))
		k = &stdrsa.PrivateKey{
			PublicKey: stdrsa.PublicKey{N: new(big.Int).Mul(p, q), E: 65537},
			D:         d,
			Primes:    []*big.Int{p, q},
		}
		setCRT(k)
	}
	require.Equal(t, int64(1), new(big.Int).Mod(new(big.Int).Mul(e, k.Precomputed.Dp), new(big.Int).Sub(k.Primes[0], bigOne)).Int64(), "e*dp != 1 mod p-1: the key does not test what it says")

	bare := withoutCRT(k)
	require.ErrorContains(t, bare.Validate(), "invalid CRT coefficient")
	_, err := rsa.NewPrivateKey(bare)
	require.ErrorContains(t, err, "is not the inverse of q modulo p, so p is not prime")

	require.NoError(t, k.Validate(), "crypto/rsa's Validate accepts the key with a correct Qinv")
	_, err = rsa.NewPrivateKey(k)
	require.ErrorContains(t, err, "is not the inverse of q modulo p, so p is not prime")

	// The composite factor second: crypto/rsa tests only p (its q^(p-2)
	// mod p is then right) and accepts the key, with or without its
	// precomputed values; vg tests q too (p^(q-2) mod q), a deliberate
	// difference.
	swapped := withoutCRT(k)
	swapped.Primes[0], swapped.Primes[1] = swapped.Primes[1], swapped.Primes[0]
	require.NoError(t, swapped.Validate(), "crypto/rsa's Validate accepts the key with its composite factor second")
	_, err = rsa.NewPrivateKey(swapped)
	require.ErrorContains(t, err, "is not the inverse of p modulo q, so q is not prime")
	swapped = withoutCRT(k)
	swapped.Primes[0], swapped.Primes[1] = swapped.Primes[1], swapped.Primes[0]
	setCRT(swapped)
	require.NoError(t, swapped.Validate())
	_, err = rsa.NewPrivateKey(swapped)
	require.ErrorContains(t, err, "is not the inverse of p modulo q, so q is not prime")
}
