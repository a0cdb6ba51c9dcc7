package rsa

import (
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"encoding/pem"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/stackscratch"
)

func toBig(x []uint64) *big.Int {
	b := make([]byte, 8*len(x))
	fillBytes(b, x)
	return new(big.Int).SetBytes(b)
}

func fromBig(x *big.Int, w int) []uint64 { return limbsFromBytes(x.Bytes(), w) }

func randOdd(r *mrand.Rand, w int) []uint64 {
	x := make([]uint64, w)
	for i := range x {
		x[i] = r.Uint64()
	}
	x[0] |= 1
	x[w-1] |= 1 << 63 >> uint(r.IntN(8)) // vary the top bit a little
	return x
}

func randBelow(r *mrand.Rand, m []uint64) []uint64 {
	x := make([]uint64, len(m))
	for i := range x {
		x[i] = r.Uint64()
	}
	x[len(m)-1] %= m[len(m)-1]
	return x
}

// TestMontgomeryAgainstBig checks mul, sqr, redc, modAdd, modSub and R^2
// against math/big on random odd moduli of many widths.
func TestMontgomeryAgainstBig(t *testing.T) {
	r := mrand.New(mrand.NewPCG(1, 2))
	for _, w := range []int{1, 2, 3, 4, 5, 7, 8, 16, 17, 24, 32, 33, 64} {
		for range 20 {
			mv := randOdd(r, w)
			m := newModulus(mv)
			M := toBig(mv)
			R := new(big.Int).Lsh(big.NewInt(1), uint(64*w))
			require.Equal(t, new(big.Int).Mod(new(big.Int).Mul(R, R), M), toBig(m.rr), "rr w=%d", w)
			require.Equal(t, new(big.Int).Mod(R, M), toBig(m.one))
			require.Equal(t, m.rr, newModulusFull(mv).rr, "the chain from 2^(64(w-1)), w=%d", w)
			Rinv := new(big.Int).ModInverse(R, M)
			x, y := randBelow(r, mv), randBelow(r, mv)
			X, Y := toBig(x), toBig(y)
			z := make([]uint64, w)
			tt := make([]uint64, 2*w)
			s := make([]uint64, w)
			m.mul(z, x, y, tt)
			want := new(big.Int).Mul(X, Y)
			want.Mul(want, Rinv).Mod(want, M)
			require.Equal(t, want, toBig(z), "mul w=%d", w)
			m.sqr(z, x, tt)
			want.Mul(X, X).Mul(want, Rinv).Mod(want, M)
			require.Equal(t, want, toBig(z), "sqr w=%d", w)
			m.modAdd(z, x, y, s)
			require.Equal(t, new(big.Int).Mod(new(big.Int).Add(X, Y), M), toBig(z))
			m.modSub(z, x, y, s)
			require.Equal(t, new(big.Int).Mod(new(big.Int).Sub(X, Y), M), toBig(z))
			// Exponentiation, both window sizes.
			e := randBelow(r, mv)
			for _, ebits := range []int{64 * w, 1024} {
				if ebits < 64*w {
					continue
				}
				expWindowed(z, x, e, ebits, m, make([]uint64, expScratchLimbs(w)))
				require.Equal(t, new(big.Int).Exp(X, toBig(e), M), toBig(z), "exp w=%d", w)
			}
			// reduceBits with an even divisor.
			d := append([]uint64(nil), mv...)
			d[0] &^= 1
			xx := make([]uint64, 2*w)
			for i := range xx {
				xx[i] = r.Uint64()
			}
			reduceBits(z, xx, d, 64*len(xx))
			require.Equal(t, new(big.Int).Mod(toBig(xx), toBig(d)), toBig(z))
			// From a start below d: x = q*2^n + y with q < d (the top
			// bit of d's top limb is set, so one limb less is below it).
			for _, n := range []int{1, 31, 64, 65, 64*w + 7} {
				low := new(big.Int).Lsh(toBig(xx), uint(n))
				low.Rsh(low, uint(64*len(xx))) // n random bits
				X := new(big.Int).Lsh(toBig(xx[:w-1]), uint(n))
				X.Add(X, low)
				xs := make([]uint64, 2*w+1)
				for i, word := range X.Bits() {
					xs[i] = uint64(word)
				}
				reduceBits(z, xs, d, n)
				want := new(big.Int).Mod(X, toBig(d))
				require.Zero(t, want.Cmp(toBig(z)), "w=%d n=%d: %x mod d = %x, got %x", w, n, X, want, toBig(z))
			}
		}
	}
}

func loadKey(t *testing.T, bits string) *stdrsa.PrivateKey {
	data, err := os.ReadFile("testdata/rsa" + bits + ".pem")
	require.NoError(t, err)
	block, _ := pem.Decode(data)
	k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
	require.NoError(t, err)
	return k
}

// TestPrimeSetupFastPath checks that the R^2 fast path for the primes agrees
// with the doubling and squaring chain.
func TestPrimeSetupFastPath(t *testing.T) {
	for _, bits := range []string{"1024", "2048", "3072", "4096"} {
		k := loadKey(t, bits)
		priv, err := NewPrivateKey(k)
		require.NoError(t, err)
		for _, pm := range []*modulus{priv.sk.p, priv.sk.q} {
			chain := newModulus(pm.m)
			require.Equal(t, chain.rr, pm.rr, bits)
			require.Equal(t, chain.one, pm.one, bits)
			wn := priv.pub.n.width()
			require.Less(t, (192*priv.sk.w-64*wn)/64, wn-1, "the fast path should apply to balanced keys")
		}
	}
}

// TestUnbalancedPrimes builds a 2048-bit key from a 640-bit and a 1408-bit
// prime, which takes the chain fallback for R^2 mod p.
func TestUnbalancedPrimes(t *testing.T) {
	if testing.Short() {
		t.Skip("prime generation is slow")
	}
	var p, q, n *big.Int
	for {
		var err error
		p, err = rand.Prime(rand.Reader, 640)
		require.NoError(t, err)
		q, err = rand.Prime(rand.Reader, 1408)
		require.NoError(t, err)
		n = new(big.Int).Mul(p, q)
		if n.BitLen() == 2048 {
			break
		}
	}
	e := big.NewInt(65537)
	one := big.NewInt(1)
	phi := new(big.Int).Mul(new(big.Int).Sub(p, one), new(big.Int).Sub(q, one))
	d := new(big.Int).ModInverse(e, phi)
	if d == nil {
		t.Skip("e not invertible for these primes")
	}
	k := &stdrsa.PrivateKey{PublicKey: stdrsa.PublicKey{N: n, E: 65537}, D: d, Primes: []*big.Int{p, q}}
	priv, err := NewPrivateKey(k)
	require.NoError(t, err)
	wn := priv.pub.n.width()
	require.GreaterOrEqual(t, (192*priv.sk.w-64*wn)/64, wn-1, "this key should take the fallback")
	m := make([]byte, priv.Size())
	rand.Read(m[1:])
	s := make([]byte, priv.Size())
	require.NoError(t, priv.privateOp(s, m))
	want := new(big.Int).Exp(new(big.Int).SetBytes(m), d, n)
	require.Equal(t, want, new(big.Int).SetBytes(s))
}

// TestFaultInjection corrupts one CRT half and checks that the operation
// returns ErrFault and never the faulty value, on every backend that runs
// vg's CRT (the stdlib backend's operations are crypto/rsa's, which checks
// its own result).
func TestFaultInjection(t *testing.T) {
	t.Cleanup(func() { faultHook = nil })
	k := loadKey(t, "2048")
	for _, b := range Backends() {
		if !b.Available || b.Name == stdlibBackend {
			continue
		}
		t.Run(b.Name, func(t *testing.T) {
			priv, err := NewPrivateKey(k, WithBackend(b.Name))
			require.NoError(t, err)
			d := sha256.Sum256([]byte("fault"))
			good, err := priv.Sign(nil, d[:], crypto.SHA256)
			require.NoError(t, err)

			for _, half := range []string{"p", "q"} {
				faultHook = func(mp, mq []uint64) {
					if half == "p" {
						mp[3] ^= 1 << 17
					} else {
						mq[0] ^= 1
					}
				}
				sig, err := priv.Sign(nil, d[:], crypto.SHA256)
				require.ErrorIs(t, err, ErrFault, half)
				require.Nil(t, sig)
				out := make([]byte, priv.Size())
				em, _ := pkcs1v15SignEncode(priv.Size(), digestInfoPrefixes[crypto.SHA256], d[:])
				require.ErrorIs(t, priv.privateOp(out, em), ErrFault)
				require.Equal(t, make([]byte, priv.Size()), out, "the faulty value must not be released")
				ct, err := priv.PublicKey().EncryptOAEP(nil, crypto.SHA256, 0, []byte("m"), nil)
				require.NoError(t, err)
				_, err = priv.Decrypt(nil, ct, &stdrsa.OAEPOptions{Hash: crypto.SHA256})
				require.ErrorIs(t, err, ErrFault)
			}
			faultHook = nil
			sig, err := priv.Sign(nil, d[:], crypto.SHA256)
			require.NoError(t, err)
			require.Equal(t, good, sig)
		})
	}
}

// limbBytes returns x's limbs as they lie in memory (little endian).
func limbBytes(x []uint64) []byte {
	b := make([]byte, 8*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	return b
}

// TestNoSecretOnStack runs Sign and Decrypt under the stackscratch harness
// and looks for any limb-aligned 8-byte piece of the CRT exponents, the
// primes and the CRT halves' inputs in the stack they used, for key sizes
// 1024 to 4096 bits.
func TestNoSecretOnStack(t *testing.T) {
	if stackscratch.Instrumented {
		t.Skip("the stack proof needs a build without -race, whose instrumentation spills every live value")
	}
	for _, bits := range []string{"1024", "2048", "3072", "4096"} {
		t.Run(bits, func(t *testing.T) { genericStackScan(t, bits) })
	}
}

func genericStackScan(t *testing.T, bits string) {
	k := loadKey(t, bits)
	priv, err := NewPrivateKey(k, WithBackend("generic")) // adx: TestADXNoSecretOnStack
	require.NoError(t, err)
	g := priv.sk.impl.(*keyGeneric)
	var patterns [][]byte
	for _, x := range [][]uint64{g.dp, g.dq, priv.sk.p.m, priv.sk.q.m, priv.sk.qinv} {
		b := limbBytes(x)
		for i := 0; i+8 <= len(b); i += 8 {
			patterns = append(patterns, b[i:i+8])
		}
	}
	d := sha256.Sum256([]byte("stack"))
	ct, err := priv.PublicKey().EncryptOAEP(nil, crypto.SHA256, 0, []byte("m"), nil)
	require.NoError(t, err)
	for name, f := range map[string]func(){
		"Sign":    func() { priv.Sign(nil, d[:], crypto.SHA256) },
		"Decrypt": func() { priv.Decrypt(nil, ct, &stdrsa.OAEPOptions{Hash: crypto.SHA256}) },
	} {
		r, err := stackscratch.Scan(f, patterns)
		require.NoError(t, err, name)
		require.True(t, r.Clean(), "%s: %v", name, r)
	}
}
