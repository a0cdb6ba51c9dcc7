//go:build amd64 && !purego

package rsa

import (
	"crypto"
	"crypto/sha256"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/stackscratch"
)

// requireADX skips unless the adx backend may run here (an invalid
// VG_CPU_FEATURES fails).
func requireADX(t testing.TB) {
	t.Helper()
	require.NoError(t, cpufeat.Err())
	if !cpufeat.MustLookup(cpufeat.RSA, "adx").Available(cpufeat.Enabled()) {
		t.Skip("the adx backend is not available here")
	}
}

// allOnes returns n limbs of all ones: R - 1.
func allOnes(n int) []uint64 {
	x := make([]uint64, n)
	for i := range x {
		x[i] = ^uint64(0)
	}
	return x
}

// kernelModuli returns the moduli the kernel tests run on for width n:
// random odd ones with the top bit at various places, R - 1 (all-ones
// limbs), the smallest odd modulus with the top bit set, and a modulus
// narrower than the kernel (zero top limbs, as in the padded fallback).
func kernelModuli(r *mrand.Rand, n int) [][]uint64 {
	ms := [][]uint64{allOnes(n)}
	for range 4 {
		ms = append(ms, randOdd(r, n))
	}
	low := make([]uint64, n)
	low[0], low[n-1] = 1, 1<<63
	ms = append(ms, low)
	narrow := make([]uint64, n)
	copy(narrow, randOdd(r, n-3))
	ms = append(ms, narrow)
	return ms
}

// kernelOperands returns operands below R for modulus m: zero, one, m - 1,
// R - 1, random values below m, random values in [m, R) when m < R - 1.
func kernelOperands(r *mrand.Rand, m []uint64) [][]uint64 {
	n := len(m)
	one := make([]uint64, n)
	one[0] = 1
	m1 := append([]uint64(nil), m...)
	m1[0]--
	ops := [][]uint64{make([]uint64, n), one, m1, allOnes(n)}
	M, R := toBig(m), new(big.Int).Lsh(big.NewInt(1), uint(64*n))
	for range 3 {
		// A random value below m (m may have zero top limbs).
		ops = append(ops, fromBig(new(big.Int).Mod(toBig(randBelow(r, allOnes(n))), M), n))
	}
	if gap := new(big.Int).Sub(R, M); gap.Cmp(big.NewInt(2)) > 0 {
		for range 3 {
			// m + a random value below R - m.
			v := new(big.Int).Mod(toBig(randBelow(r, allOnes(n))), gap)
			ops = append(ops, fromBig(v.Add(v, M), n))
		}
		ops = append(ops, append([]uint64(nil), m...)) // m itself
	}
	return ops
}

// TestADXKernels checks every generated Montgomery multiplication and
// squaring against math/big (the result is below R and congruent to
// x*y/R mod m, for operands anywhere below R) and against the generic
// kernels (equal once reduced, for operands below m), including aliased
// outputs.
func TestADXKernels(t *testing.T) {
	requireADX(t)
	r := mrand.New(mrand.NewPCG(3, 4))
	for i := range adxKernels {
		k := &adxKernels[i]
		n := k.n
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			R := new(big.Int).Lsh(big.NewInt(1), uint(64*n))
			for _, mv := range kernelModuli(r, n) {
				M := toBig(mv)
				am := &adxModulus{k: k, w: n, m: mv, m0inv: minusInverse64(mv[0])}
				gm := newModulus(mv)
				Rinv := new(big.Int).ModInverse(R, M)
				ops := kernelOperands(r, mv)
				tmp := make([]uint64, 2*n)
				for xi, x := range ops {
					for yi, y := range ops {
						if (xi+yi)%3 != 0 && yi != xi {
							continue // a third of the pairs, every square
						}
						X, Y := toBig(x), toBig(y)
						want := new(big.Int).Mul(X, Y)
						want.Mul(want, Rinv).Mod(want, M)
						z := make([]uint64, n)
						am.mul(z, x, y)
						Z := toBig(z)
						require.Zero(t, want.Cmp(new(big.Int).Mod(Z, M)), "mul m=%x x=%x y=%x", mv, x, y)
						require.True(t, Z.Cmp(R) < 0)
						if X.Cmp(M) < 0 && Y.Cmp(M) < 0 {
							g := make([]uint64, n)
							gm.mul(g, x, y, tmp)
							require.Zero(t, toBig(g).Cmp(new(big.Int).Mod(Z, M)), "mul vs generic")
						}
						// z aliasing x.
						za := append([]uint64(nil), x...)
						am.mul(za, za, y)
						require.Equal(t, z, za, "mul z=x")
						if xi != yi {
							continue
						}
						s := make([]uint64, n)
						am.sqr(s, x)
						require.Equal(t, z, s, "sqr m=%x x=%x", mv, x)
						if X.Cmp(M) < 0 {
							g := make([]uint64, n)
							gm.sqr(g, x, tmp)
							require.Zero(t, toBig(g).Cmp(new(big.Int).Mod(toBig(s), M)), "sqr vs generic")
						}
						copy(s, x)
						am.sqr(s, s)
						require.Equal(t, z, s, "sqr z=x")
					}
				}
			}
		})
	}
}

// TestADXMulChain runs long chains of products and squares (the results
// fed back as operands, as in an exponentiation) and compares with
// math/big, to exercise the almost-Montgomery bound repeatedly.
func TestADXMulChain(t *testing.T) {
	requireADX(t)
	r := mrand.New(mrand.NewPCG(5, 6))
	for i := range adxKernels {
		k := &adxKernels[i]
		n := k.n
		R := new(big.Int).Lsh(big.NewInt(1), uint(64*n))
		for _, mv := range [][]uint64{allOnes(n), randOdd(r, n)} {
			M := toBig(mv)
			Rinv := new(big.Int).ModInverse(R, M)
			am := &adxModulus{k: k, w: n, m: mv, m0inv: minusInverse64(mv[0])}
			x, y := allOnes(n), randBelow(r, mv)
			X, Y := toBig(x), toBig(y)
			for step := range 200 {
				if step%3 == 2 {
					am.mul(x, x, y)
					X.Mul(X, Y)
				} else {
					am.sqr(x, x)
					X.Mul(X, X)
				}
				X.Mul(X, Rinv).Mod(X, M)
				require.Zero(t, X.Cmp(new(big.Int).Mod(toBig(x), M)), "n=%d step %d", n, step)
			}
		}
	}
}

// TestGather5 checks the constant-time table lookup on every index, for
// several widths.
func TestGather5(t *testing.T) {
	requireADX(t)
	r := mrand.New(mrand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 8, 16, 33, 128} {
		tab := make([]uint64, 32*n)
		for i := range tab {
			tab[i] = r.Uint64()
		}
		z := make([]uint64, n+1)
		for k := range uint64(32) {
			z[n] = 0x5a5a
			gather5ADX(&z[0], &tab[0], n, k)
			for j := range n {
				require.Equal(t, tab[32*j+int(k)], z[j], "n=%d k=%d j=%d", n, k, j)
			}
			require.Equal(t, uint64(0x5a5a), z[n], "wrote past z")
		}
	}
}

// TestADXExp compares the adx exponentiations (private, fixed window, and
// public) with the generic ones, on exact kernel widths and on widths that
// run padded to the next kernel.
func TestADXExp(t *testing.T) {
	requireADX(t)
	r := mrand.New(mrand.NewPCG(9, 10))
	for _, w := range []int{4, 5, 8, 13, 16, 17, 24, 31, 32, 40, 48, 64, 65, 128} {
		mv := randOdd(r, w)
		gm := newModulus(mv)
		am := newADXModulus(gm)
		require.GreaterOrEqual(t, am.k.n, w)
		ebitsList := []int{1, 5, 64*w - 7, 64 * w}
		if w > 32 || testing.Short() {
			ebitsList = []int{1, 6, 300} // the generic side is slow at full length
		}
		for _, ebits := range ebitsList {
			e := randBelow(r, allOnes(w))
			if ebits < 64*w {
				e = make([]uint64, w)
				for b := range ebits {
					e[b/64] |= (r.Uint64() & 1) << uint(b%64)
				}
				e[(ebits-1)/64] |= 1 << uint((ebits-1)%64)
			}
			for _, x := range [][]uint64{randBelow(r, mv), make([]uint64, w)} {
				want := make([]uint64, w)
				expWindowed(want, x, e, ebits, gm, make([]uint64, expScratchLimbs(w)))
				got := make([]uint64, w)
				am.exp(got, x, e, ebits, make([]uint64, am.expScratch()))
				require.Equal(t, want, got, "w=%d ebits=%d", w, ebits)
			}
		}
		x := randBelow(r, mv)
		for _, e := range []uint64{1, 2, 3, 4, 17, 65537, 1<<63 - 1} {
			want, got := make([]uint64, w), make([]uint64, w)
			newKeyGeneric(gm, nil).expVarTime(want, x, e)
			am.expVarTime(got, x, e)
			require.Equal(t, want, got, "public w=%d e=%d", w, e)
		}
	}
}

// TestADXNoSecretOnStack runs Sign and Decrypt on the adx backend under the
// stackscratch harness and looks for any 8-byte limb of the CRT exponents,
// the primes, q^-1 and the Montgomery constants of the primes, for every key
// size of testdata: 1024 to 8192 bits run the private kernels at 8, 16, 24,
// 32 and 64 limbs and Sign's s^e check the public ones at 16, 32, 48, 64 and
// 128, every size class of every kernel (montSqr stops at 32).
func TestADXNoSecretOnStack(t *testing.T) {
	if stackscratch.Instrumented {
		t.Skip("the stack proof needs a build without -race, whose instrumentation spills every live value")
	}
	if cpufeat.Simulated() {
		t.Skip("vgsim: the kernels run on the model, not on this stack; the model's own stack, register and taint checks replace the scan there")
	}
	requireADX(t)
	for _, bits := range []string{"1024", "2048", "3072", "4096", "8192"} {
		t.Run(bits, func(t *testing.T) { adxStackScan(t, bits) })
	}
}

func adxStackScan(t *testing.T, bits string) {
	priv, err := NewPrivateKey(loadKey(t, bits), WithBackend("adx"))
	require.NoError(t, err)
	c := priv.sk.impl.(*keyADX)
	var patterns [][]byte
	for _, x := range [][]uint64{c.dp, c.dq, c.p.m, c.q.m, c.p.rr, c.q.rr, c.p.one, c.q.one, priv.sk.qinv} {
		b := limbBytes(x)
		for i := 0; i+8 <= len(b); i += 8 {
			patterns = append(patterns, b[i:i+8])
		}
	}
	d := sha256.Sum256([]byte("stack"))
	ct, err := priv.PublicKey().EncryptPKCS1v15(nil, []byte("m"))
	require.NoError(t, err)
	// The CRT halves of the signature, s mod p and s mod q: the last
	// kernel call of each exponentiation leaves them in its stack scratch
	// until the wipe.
	sig, err := priv.Sign(nil, d[:], crypto.SHA256)
	require.NoError(t, err)
	S := new(big.Int).SetBytes(sig)
	for _, pm := range [][]uint64{c.p.m, c.q.m} {
		b := limbBytes(fromBig(new(big.Int).Mod(S, toBig(pm)), len(pm)))
		for i := 0; i+8 <= len(b); i += 8 {
			patterns = append(patterns, b[i:i+8])
		}
	}
	// The CRT exponentiation alone, whose last kernel calls are not
	// followed by others at the same stack depth (in Sign the s^e check
	// overwrites that stack): on its inputs the signature's halves.
	w := priv.sk.w
	xp, xq := make([]uint64, w), make([]uint64, w)
	mp, mq := make([]uint64, w), make([]uint64, w)
	copy(xp, fromBig(new(big.Int).Mod(new(big.Int).SetBytes(d[:]), toBig(c.p.m)), w))
	copy(xq, fromBig(new(big.Int).Mod(new(big.Int).SetBytes(d[:]), toBig(c.q.m)), w))
	c.expCRT(mp, mq, xp, xq)
	for _, x := range [][]uint64{mp, mq} {
		b := limbBytes(x)
		for i := 0; i+8 <= len(b); i += 8 {
			patterns = append(patterns, b[i:i+8])
		}
	}
	for name, f := range map[string]func(){
		"Sign":    func() { priv.Sign(nil, d[:], crypto.SHA256) },
		"Decrypt": func() { priv.Decrypt(nil, ct, nil) },
		"expCRT":  func() { c.expCRT(make([]uint64, w), make([]uint64, w), xp, xq) },
	} {
		r, err := stackscratch.Scan(f, patterns)
		require.NoError(t, err, name)
		require.True(t, r.Clean(), "%s: %v", name, r)
	}
}

func benchADX(b *testing.B, n int, sq bool) {
	requireADX(b)
	r := mrand.New(mrand.NewPCG(1, 2))
	mv := randOdd(r, n)
	am := &adxModulus{k: adxKernelFor(n), w: n, m: mv, m0inv: minusInverse64(mv[0])}
	x, y := randBelow(r, mv), randBelow(r, mv)
	z := make([]uint64, n)
	for b.Loop() {
		if sq {
			am.sqr(z, x)
		} else {
			am.mul(z, x, y)
		}
	}
}

func BenchmarkMontMulADX16(b *testing.B) { benchADX(b, 16, false) }
func BenchmarkMontSqrADX16(b *testing.B) { benchADX(b, 16, true) }
func BenchmarkMontMulADX32(b *testing.B) { benchADX(b, 32, false) }
func BenchmarkMontSqrADX32(b *testing.B) { benchADX(b, 32, true) }
func BenchmarkMontMulADX24(b *testing.B) { benchADX(b, 24, false) }
func BenchmarkMontSqrADX24(b *testing.B) { benchADX(b, 24, true) }
