//go:build amd64 && !purego

package rsa

import (
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"fmt"
	"math/big"
	mrand1 "math/rand"
	mrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/stackscratch"
)

// requireIFMA skips unless the ifma kernels may run here (an invalid
// VG_CPU_FEATURES fails). The backend is tested directly, registered or not.
func requireIFMA(t testing.TB) {
	t.Helper()
	require.NoError(t, cpufeat.Err())
	if !cpufeat.MustLookup(cpufeat.RSA, "ifma").Available(cpufeat.Enabled()) {
		t.Skip("the ifma backend's features are not available here")
	}
}

// digitsToBig and bigToDigits convert between math/big and l lanes of 52
// bits (test side, independent of the kernels).
func digitsToBig(d []uint64) *big.Int {
	z := new(big.Int)
	for i := len(d) - 1; i >= 0; i-- {
		z.Lsh(z, 52)
		z.Or(z, new(big.Int).SetUint64(d[i]))
	}
	return z
}

func bigToDigits(x *big.Int, l int) []uint64 {
	d := make([]uint64, l)
	v := new(big.Int).Set(x)
	mask := new(big.Int).SetUint64(1<<52 - 1)
	for i := range d {
		d[i] = new(big.Int).And(v, mask).Uint64()
		v.Rsh(v, 52)
	}
	return d
}

// ammRef is the exact AMM result: (x*y + Q*m)/R' with Q = -x*y*m^-1 mod R'
// (what digit-serial Montgomery reduction computes, digit by digit).
func ammRef(x, y, m *big.Int, n int) *big.Int {
	R := new(big.Int).Lsh(big.NewInt(1), uint(52*n))
	xy := new(big.Int).Mul(x, y)
	minv := new(big.Int).ModInverse(m, R)
	q := new(big.Int).Mul(xy, minv)
	q.Neg(q).Mod(q, R)
	q.Mul(q, m).Add(q, xy)
	return q.Rsh(q, uint(52*n))
}

// ifmaModuli returns odd test moduli for kernel k: the largest allowed
// (2^(52n-2) - 1, all ones), random ones of 52n-2 bits, of the key size's
// prime length 64*(limbs-1) bits and of half that, and a modulus with the
// top bit of that length and the low bit only.
func ifmaModuli(r *mrand.Rand, k *ifmaKernel) []*big.Int {
	one := big.NewInt(1)
	top := new(big.Int).Lsh(one, uint(52*k.n-2))
	ms := []*big.Int{new(big.Int).Sub(top, one)}
	for _, bits := range []int{52*k.n - 2, 64 * (k.limbs - 1), 32 * (k.limbs - 1)} {
		for range 2 {
			v := bigRand(r, new(big.Int).Lsh(one, uint(bits)))
			v.SetBit(v, bits-1, 1).SetBit(v, 0, 1)
			ms = append(ms, v)
		}
	}
	low := new(big.Int).Lsh(one, uint(64*(k.limbs-1)-1))
	ms = append(ms, low.Add(low, one))
	return ms
}

// bigRand returns a random value below n.
func bigRand(r *mrand.Rand, n *big.Int) *big.Int {
	return new(big.Int).Rand(mrand1.New(randSource{r}), n)
}

// randSource adapts math/rand/v2 for big.Int.Rand.
type randSource struct{ r *mrand.Rand }

func (s randSource) Int63() int64 { return int64(s.r.Uint64() >> 1) }
func (s randSource) Seed(int64)   {}

// ifmaOperands returns the operands below 2m: 0, 1, m-1, m, 2m-1, random
// below m and in [m, 2m).
func ifmaOperands(r *mrand.Rand, m *big.Int) []*big.Int {
	one := big.NewInt(1)
	m2 := new(big.Int).Lsh(m, 1)
	ops := []*big.Int{new(big.Int), big.NewInt(1), new(big.Int).Sub(m, one), new(big.Int).Set(m), new(big.Int).Sub(m2, one)}
	for range 3 {
		ops = append(ops, bigRand(r, m))
		v := bigRand(r, m)
		ops = append(ops, v.Add(v, m))
	}
	return ops
}

// TestIFMAConvert checks the limb <-> digit conversions against math/big.
func TestIFMAConvert(t *testing.T) {
	requireIFMA(t)
	r := mrand.New(mrand.NewPCG(18, 1))
	for i := range ifmaKernels {
		k := &ifmaKernels[i]
		lim := new(big.Int).Lsh(big.NewInt(1), uint(52*k.n))
		vals := []*big.Int{new(big.Int), big.NewInt(1), new(big.Int).Sub(lim, big.NewInt(1))}
		for range 8 {
			vals = append(vals, bigRand(r, lim))
		}
		for _, v := range vals {
			x := fromBig(v, k.limbs)
			d := make([]uint64, k.lanes)
			for j := range d {
				d[j] = ^uint64(0) // the padding lanes must be written
			}
			k.toD(d, x)
			require.Equal(t, bigToDigits(v, k.lanes), d, "n=%d to", k.n)
			back := make([]uint64, k.limbs)
			k.fromD(back, d)
			require.Equal(t, x, back, "n=%d from", k.n)
		}
	}
}

// TestIFMAKernels checks amm<n>IFMA and ammDual<n>IFMA against the exact
// result from math/big, on the edge moduli and operands (0, 1, m-1, m,
// 2m-1, all-ones digits R'-1 against an operand below 2m, random below m
// and in [m, 2m)), the dual kernel with the two streams on different moduli
// and operands, aliased outputs; and, for operands below m, against the
// generic and adx Montgomery multiplications (z*R' = x*y = zg*R mod m).
func TestIFMAKernels(t *testing.T) {
	requireIFMA(t)
	r := mrand.New(mrand.NewPCG(18, 2))
	for i := range ifmaKernels {
		k := &ifmaKernels[i]
		l := k.lanes
		ms := ifmaModuli(r, k)
		Rp := new(big.Int).Lsh(big.NewInt(1), uint(52*k.n))
		allOnesD := new(big.Int).Sub(Rp, big.NewInt(1))
		for mi, M := range ms {
			md := bigToDigits(M, l)
			k0 := minusInverse64(md[0] | md[1]<<52)
			// The other stream of the dual kernel: another modulus.
			M2 := ms[(mi+1)%len(ms)]
			md2 := bigToDigits(M2, l)
			k02 := minusInverse64(md2[0] | md2[1]<<52)
			ops := ifmaOperands(r, M)
			pairs := [][2]*big.Int{}
			for _, x := range ops {
				for _, y := range ops {
					pairs = append(pairs, [2]*big.Int{x, y})
				}
				pairs = append(pairs, [2]*big.Int{allOnesD, x}, [2]*big.Int{x, allOnesD})
			}
			for pi, pr := range pairs {
				x, y := pr[0], pr[1]
				want := ammRef(x, y, M, k.n)
				require.Less(t, want.Cmp(Rp), 0)
				xd, yd := bigToDigits(x, l), bigToDigits(y, l)
				z := make([]uint64, l)
				k.amm(&z[0], &xd[0], &yd[0], &md[0], k0)
				require.Equal(t, bigToDigits(want, l), z, "amm n=%d m#%d x=%x y=%x", k.n, mi, x, y)
				if x.Cmp(new(big.Int).Lsh(M, 1)) < 0 && y.Cmp(new(big.Int).Lsh(M, 1)) < 0 {
					require.Less(t, want.Cmp(new(big.Int).Lsh(M, 1)), 0, "below 2m")
				}

				// Dual: stream a as above, stream b on M2 with its own operands.
				ops2 := ifmaOperands(r, M2)
				x2, y2 := ops2[pi%len(ops2)], ops2[(pi*7+3)%len(ops2)]
				x2d, y2d := bigToDigits(x2, l), bigToDigits(y2, l)
				za, zb := make([]uint64, l), make([]uint64, l)
				k.dual(&za[0], &xd[0], &yd[0], &md[0], k0, &zb[0], &x2d[0], &y2d[0], &md2[0], k02)
				require.Equal(t, z, za, "dual a n=%d", k.n)
				require.Equal(t, bigToDigits(ammRef(x2, y2, M2, k.n), l), zb, "dual b n=%d", k.n)

				// Aliased: z = x (a), z = y (b).
				k.dual(&xd[0], &xd[0], &yd[0], &md[0], k0, &y2d[0], &x2d[0], &y2d[0], &md2[0], k02)
				require.Equal(t, za, xd, "dual aliased a")
				require.Equal(t, zb, y2d, "dual aliased b")
			}

			// Agreement with the generic and adx Montgomery code, for
			// operands below m, on the modulus as w limbs.
			w := k.limbs - 1
			if M.BitLen() > 64*w {
				w = k.limbs
			}
			gm := newModulus(fromBig(M, w))
			var am *adxModulus
			if cpufeat.MustLookup(cpufeat.RSA, "adx").Available(cpufeat.Enabled()) {
				am = newADXModulus(gm)
			}
			R := new(big.Int).Lsh(big.NewInt(1), uint(64*w))
			for _, x := range ops[:3] {
				for _, y := range append(ops[5:], ops[:3]...) {
					if y.Cmp(M) >= 0 {
						continue
					}
					xd, yd := bigToDigits(x, l), bigToDigits(y, l)
					z := make([]uint64, l)
					k.amm(&z[0], &xd[0], &yd[0], &md[0], k0)
					lhs := new(big.Int).Mul(digitsToBig(z), Rp)
					lhs.Mod(lhs, M)
					zg := make([]uint64, w)
					gm.mul(zg, fromBig(x, w), fromBig(y, w), make([]uint64, 2*w))
					rhs := new(big.Int).Mul(toBig(zg), R)
					assert.Equal(t, lhs, rhs.Mod(rhs, M), "generic n=%d", k.n)
					if am != nil {
						xa, ya := make([]uint64, am.k.n), make([]uint64, am.k.n)
						copy(xa, fromBig(x, w))
						copy(ya, fromBig(y, w))
						za := make([]uint64, am.k.n)
						am.mul(za, xa, ya)
						Ra := new(big.Int).Lsh(big.NewInt(1), uint(64*am.k.n))
						rhs := new(big.Int).Mul(toBig(za), Ra)
						assert.Equal(t, lhs, rhs.Mod(rhs, M), "adx n=%d", k.n)
					}
				}
			}
		}
	}
}

// TestIFMAMulChain runs 300 chained dual multiplications from 2m-1 and
// R'-1 (each output the next input, as in an exponentiation) against
// math/big.
func TestIFMAMulChain(t *testing.T) {
	requireIFMA(t)
	r := mrand.New(mrand.NewPCG(18, 3))
	for i := range ifmaKernels {
		k := &ifmaKernels[i]
		l := k.lanes
		ms := ifmaModuli(r, k)
		Ma, Mb := ms[0], ms[2]
		ma, mb := bigToDigits(Ma, l), bigToDigits(Mb, l)
		k0a, k0b := minusInverse64(ma[0]|ma[1]<<52), minusInverse64(mb[0]|mb[1]<<52)
		xa := new(big.Int).Sub(new(big.Int).Lsh(Ma, 1), big.NewInt(1))
		xb := new(big.Int).Sub(new(big.Int).Lsh(Mb, 1), big.NewInt(1))
		da, db := bigToDigits(xa, l), bigToDigits(xb, l)
		ya := bigToDigits(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(52*k.n)), big.NewInt(1)), l)
		for step := range 300 {
			var wantB *big.Int
			if step%3 == 2 {
				wantB = ammRef(xb, digitsToBig(ya), Mb, k.n)
				k.dual(&da[0], &da[0], &da[0], &ma[0], k0a, &db[0], &db[0], &ya[0], &mb[0], k0b)
			} else {
				wantB = ammRef(xb, xb, Mb, k.n)
				k.dual(&da[0], &da[0], &da[0], &ma[0], k0a, &db[0], &db[0], &db[0], &mb[0], k0b)
			}
			xa = ammRef(xa, xa, Ma, k.n)
			xb = wantB
			require.Equal(t, bigToDigits(xa, l), da, "n=%d step %d a", k.n, step)
			require.Equal(t, bigToDigits(xb, l), db, "n=%d step %d b", k.n, step)
		}
	}
}

// ifmaParams builds crtParams for random odd moduli of pBits and qBits
// bits (the exponentiation does not need primes) with random full-length
// exponents.
func ifmaParams(r *mrand.Rand, pBits, qBits int) *crtParams {
	w := (max(pBits, qBits) + 63) / 64
	mk := func(bits int) (*modulus, []uint64) {
		m := make([]uint64, w)
		for i := range (bits + 63) / 64 {
			m[i] = r.Uint64()
		}
		if bits%64 != 0 {
			m[(bits-1)/64] &= 1<<uint(bits%64) - 1
		}
		m[(bits-1)/64] |= 1 << uint((bits-1)%64)
		m[0] |= 1
		e := fromBig(bigRand(r, toBig(m)), w)
		return newModulus(m), e
	}
	p, dp := mk(pBits)
	q, dq := mk(qBits)
	return &crtParams{p: p, q: q, dp: dp, dq: dq, pBits: pBits, qBits: qBits}
}

// TestIFMAExpCRT checks expCRT against the generic backend on balanced
// primes of every kernel size, unbalanced ones (both on the larger
// kernel), primes too long for the kernels (the adx fallback), and inputs
// 0, 1, m-1 and random.
func TestIFMAExpCRT(t *testing.T) {
	requireIFMA(t)
	r := mrand.New(mrand.NewPCG(18, 4))
	sizes := [][2]int{{512, 512}, {1024, 1024}, {1024, 1020}, {1536, 1536}, {2048, 2048}, {1000, 1090}, {2047, 1500}, {2100, 2100}}
	if testing.Short() {
		sizes = [][2]int{{1024, 1024}, {1536, 1536}, {2048, 2047}}
	}
	for _, sz := range sizes {
		k := ifmaParams(r, sz[0], sz[1])
		w := k.p.width()
		ic := newKeyIFMA(k.p, k) // n: any odd modulus, expCRT does not use it
		gc := newKeyGeneric(k.p, k)
		if sz[0] > 2078 {
			_, ok := ic.(*keyADX)
			require.True(t, ok, "primes above 2078 bits run on adx")
		}
		one := make([]uint64, w)
		one[0] = 1
		pm1, qm1 := append([]uint64(nil), k.p.m...), append([]uint64(nil), k.q.m...)
		pm1[0]--
		qm1[0]--
		inputs := [][2][]uint64{
			{make([]uint64, w), make([]uint64, w)},
			{one, one},
			{pm1, qm1},
			{fromBig(bigRand(r, toBig(k.p.m)), w), fromBig(bigRand(r, toBig(k.q.m)), w)},
		}
		for _, in := range inputs {
			wp, wq := make([]uint64, w), make([]uint64, w)
			gp, gq := make([]uint64, w), make([]uint64, w)
			gc.expCRT(wp, wq, in[0], in[1])
			ic.expCRT(gp, gq, in[0], in[1])
			require.Equal(t, wp, gp, "p %v", sz)
			require.Equal(t, wq, gq, "q %v", sz)
		}
	}
}

// withIFMA returns the key of bits from testdata with its CRT replaced by
// the ifma backend's, whether or not the backend is registered.
func withIFMA(t *testing.T, bits string) (*PrivateKey, *stdrsa.PrivateKey) {
	std := loadKey(t, bits)
	priv, err := NewPrivateKey(std, WithBackend("generic"))
	require.NoError(t, err)
	g := priv.sk.impl.(*keyGeneric)
	priv.sk.impl = newKeyIFMA(priv.pub.n, &crtParams{p: g.p, q: g.q, dp: g.dp, dq: g.dq, pBits: g.pBits, qBits: g.qBits})
	return priv, std
}

// TestIFMASignDecrypt checks Sign (PKCS #1 v1.5, against crypto/rsa byte
// for byte, and PSS, verified by crypto/rsa) and Decrypt (PKCS #1 v1.5 and
// OAEP of crypto/rsa's ciphertexts) on the ifma backend.
func TestIFMASignDecrypt(t *testing.T) {
	requireIFMA(t)
	sizes := []string{"1024", "2048", "3072", "4096", "8192"}
	if testing.Short() {
		sizes = []string{"2048", "4096"}
	}
	for _, bits := range sizes {
		t.Run(bits, func(t *testing.T) {
			priv, std := withIFMA(t, bits)
			for i := range 3 {
				digest := sha256.Sum256([]byte{byte(i), 'v', 'g'})
				want, err := stdrsa.SignPKCS1v15(nil, std, crypto.SHA256, digest[:])
				require.NoError(t, err)
				got, err := priv.Sign(rand.Reader, digest[:], crypto.SHA256)
				require.NoError(t, err)
				require.Equal(t, want, got)
				pss, err := priv.Sign(rand.Reader, digest[:], &stdrsa.PSSOptions{Hash: crypto.SHA256})
				require.NoError(t, err)
				require.NoError(t, stdrsa.VerifyPSS(&std.PublicKey, crypto.SHA256, digest[:], pss, nil))

				msg := []byte{byte(i), 'p', 'l', 'a', 'i', 'n'}
				ct, err := stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, msg)
				require.NoError(t, err)
				pt, err := priv.Decrypt(nil, ct, nil)
				require.NoError(t, err)
				require.Equal(t, msg, pt)
				ct, err = stdrsa.EncryptOAEP(sha256.New(), rand.Reader, &std.PublicKey, msg, nil)
				require.NoError(t, err)
				pt, err = priv.Decrypt(nil, ct, &stdrsa.OAEPOptions{Hash: crypto.SHA256})
				require.NoError(t, err)
				require.Equal(t, msg, pt)
			}
		})
	}
}

// TestIFMANoSecretOnStack runs Sign, Decrypt and expCRT on the ifma backend
// under the stackscratch harness and looks for any 8-byte word of the CRT
// exponents, the primes (limbs and digits), R'^2 of each prime in digits,
// q^-1 and the CRT halves of the result, for the key sizes of every kernel
// (20, 30, 40 digits) and the adx fallback (8192).
func TestIFMANoSecretOnStack(t *testing.T) {
	if stackscratch.Instrumented {
		t.Skip("the stack proof needs a build without -race, whose instrumentation spills every live value")
	}
	if cpufeat.Simulated() {
		t.Skip("vgsim: the kernels run on the model, not on this stack; the model's own stack, register and taint checks replace the scan there")
	}
	requireIFMA(t)
	for _, bits := range []string{"1024", "2048", "3072", "4096", "8192"} {
		t.Run(bits, func(t *testing.T) { ifmaStackScan(t, bits) })
	}
}

func ifmaStackScan(t *testing.T, bits string) {
	priv, _ := withIFMA(t, bits)
	words := func(x []uint64) (ps [][]byte) {
		b := limbBytes(x)
		for i := 0; i+8 <= len(b); i += 8 {
			if x[i/8] != 0 { // the digit forms' zero padding lanes
				ps = append(ps, b[i:i+8])
			}
		}
		return ps
	}
	var patterns [][]byte
	var pm, qm []uint64
	switch c := priv.sk.impl.(type) {
	case *keyIFMA:
		for _, x := range [][]uint64{c.dp, c.dq, c.p.m, c.q.m, c.p.m64, c.q.m64, c.p.rr, c.q.rr, priv.sk.qinv} {
			patterns = append(patterns, words(x)...)
		}
		pm, qm = c.p.m64, c.q.m64
	case *keyADX:
		require.Equal(t, "8192", bits)
		for _, x := range [][]uint64{c.dp, c.dq, c.p.m, c.q.m, c.p.rr, c.q.rr, c.p.one, c.q.one, priv.sk.qinv} {
			patterns = append(patterns, words(x)...)
		}
		pm, qm = c.p.m, c.q.m
	}
	d := sha256.Sum256([]byte("stack"))
	ct, err := priv.PublicKey().EncryptPKCS1v15(nil, []byte("m"))
	require.NoError(t, err)
	sig, err := priv.Sign(nil, d[:], crypto.SHA256)
	require.NoError(t, err)
	S := new(big.Int).SetBytes(sig)
	for _, m := range [][]uint64{pm, qm} {
		patterns = append(patterns, words(fromBig(new(big.Int).Mod(S, toBig(m)), len(m)))...)
	}
	w := priv.sk.w
	xp, xq := make([]uint64, w), make([]uint64, w)
	mp, mq := make([]uint64, w), make([]uint64, w)
	copy(xp, fromBig(new(big.Int).Mod(new(big.Int).SetBytes(d[:]), toBig(pm)), w))
	copy(xq, fromBig(new(big.Int).Mod(new(big.Int).SetBytes(d[:]), toBig(qm)), w))
	priv.sk.impl.expCRT(mp, mq, xp, xq)
	patterns = append(patterns, words(mp)...)
	patterns = append(patterns, words(mq)...)
	for name, f := range map[string]func(){
		"Sign":    func() { priv.Sign(nil, d[:], crypto.SHA256) },
		"Decrypt": func() { priv.Decrypt(nil, ct, nil) },
		"expCRT":  func() { priv.sk.impl.expCRT(make([]uint64, w), make([]uint64, w), xp, xq) },
	} {
		r, err := stackscratch.Scan(f, patterns)
		require.NoError(t, err, name)
		require.True(t, r.Clean(), "%s: %v", name, r)
	}
}

// BenchmarkIFMAKernel times one AMM and one dual AMM (two multiplications)
// per digit count.
func BenchmarkIFMAKernel(b *testing.B) {
	requireIFMA(b)
	r := mrand.New(mrand.NewPCG(18, 5))
	for i := range ifmaKernels {
		k := &ifmaKernels[i]
		l := k.lanes
		M := ifmaModuli(r, k)[1]
		m := bigToDigits(M, l)
		k0 := minusInverse64(m[0] | m[1]<<52)
		x, y := bigToDigits(bigRand(r, M), l), bigToDigits(bigRand(r, M), l)
		x2, y2 := append([]uint64(nil), x...), append([]uint64(nil), y...)
		b.Run(fmt.Sprintf("amm%d", k.n), func(b *testing.B) {
			for b.Loop() {
				k.amm(&x[0], &x[0], &y[0], &m[0], k0)
			}
		})
		b.Run(fmt.Sprintf("dual%d", k.n), func(b *testing.B) {
			for b.Loop() {
				k.dual(&x[0], &x[0], &y[0], &m[0], k0, &x2[0], &x2[0], &y2[0], &m[0], k0)
			}
		})
	}
}

// TestIFMAGather checks gatherDual<n>IFMA for every pair of indices against
// the plain table read, with random tables and outputs prefilled.
func TestIFMAGather(t *testing.T) {
	requireIFMA(t)
	r := mrand.New(mrand.NewPCG(18, 6))
	for i := range ifmaKernels {
		k := &ifmaKernels[i]
		l := k.lanes
		ta, tb := make([]uint64, 32*l), make([]uint64, 32*l)
		for j := range ta {
			ta[j], tb[j] = r.Uint64(), r.Uint64()
		}
		for ka := range uint64(32) {
			for _, kb := range []uint64{ka, 31 - ka, (ka * 7) % 32} {
				za, zb := make([]uint64, l), make([]uint64, l)
				for j := range za {
					za[j], zb[j] = ^uint64(0), ^uint64(0)
				}
				k.gather(&za[0], &ta[0], ka, &zb[0], &tb[0], kb)
				require.Equal(t, ta[int(ka)*l:int(ka+1)*l], za, "n=%d ka=%d", k.n, ka)
				require.Equal(t, tb[int(kb)*l:int(kb+1)*l], zb, "n=%d kb=%d", k.n, kb)
			}
		}
	}
}
