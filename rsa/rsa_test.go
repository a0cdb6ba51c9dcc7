package rsa_test

import (
	"bytes"
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/rsa"
)

var testSizes = []int{1024, 2048, 3072, 4096}

var (
	keysOnce sync.Once
	keys     map[int]*stdrsa.PrivateKey
)

// testKey returns the fixed test key of the given size (generated once with
// crypto/rsa and stored under testdata as input, not as expected output).
func testKey(t testing.TB, bits int) *stdrsa.PrivateKey {
	t.Helper()
	keysOnce.Do(func() {
		keys = make(map[int]*stdrsa.PrivateKey)
		for _, b := range testSizes {
			k, err := loadPEMKey(fmt.Sprintf("testdata/rsa%d.pem", b))
			if err != nil {
				panic(err)
			}
			keys[b] = k
		}
	})
	k := keys[bits]
	require.NotNil(t, k)
	return k
}

// loadPEMKey reads a PKCS #1 PEM key with crypto/x509.
func loadPEMKey(path string) (*stdrsa.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("%s: no PEM block", path)
	}
	return x509.ParsePKCS1PrivateKey(block.Bytes)
}

// TestMaxModulus signs and decrypts with the largest supported key (8192
// bits, 64-limb primes) on every backend, against crypto/rsa.
func TestMaxModulus(t *testing.T) {
	std, err := loadPEMKey("testdata/rsa8192.pem")
	require.NoError(t, err)
	d := sha256.Sum256([]byte("8192"))
	want, err := stdrsa.SignPKCS1v15(nil, std, crypto.SHA256, d[:])
	require.NoError(t, err)
	for _, backend := range availableBackends(t) {
		priv, err := rsa.NewPrivateKey(std, rsa.WithBackend(backend))
		require.NoError(t, err)
		got, err := priv.Sign(nil, d[:], crypto.SHA256)
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.NoError(t, rsa.VerifyPKCS1v15(&std.PublicKey, crypto.SHA256, d[:], got))
	}
	// One bit more is refused.
	big9k := &stdrsa.PublicKey{N: new(big.Int).Lsh(std.N, 1), E: 65537}
	big9k.N.SetBit(big9k.N, 0, 1)
	_, err = rsa.NewPublicKey(big9k)
	require.ErrorContains(t, err, "outside the supported")
}

// availableBackends returns the names of the backends that run here; an
// invalid VG_CPU_FEATURES fails the test.
func availableBackends(t testing.TB) []string {
	t.Helper()
	require.NoError(t, cpufeat.Err())
	var names []string
	for _, b := range rsa.Backends() {
		if b.Available {
			names = append(names, b.Name)
		}
	}
	require.NotEmpty(t, names)
	return names
}

func forEachKey(t *testing.T, f func(t *testing.T, std *stdrsa.PrivateKey, priv *rsa.PrivateKey)) {
	for _, backend := range availableBackends(t) {
		for _, bits := range testSizes {
			t.Run(fmt.Sprintf("%s/%d", backend, bits), func(t *testing.T) {
				std := testKey(t, bits)
				priv, err := rsa.NewPrivateKey(std, rsa.WithBackend(backend))
				require.NoError(t, err)
				require.Equal(t, backend, priv.Backend())
				f(t, std, priv)
			})
		}
	}
}

func messages(n int) [][]byte {
	msgs := [][]byte{nil, []byte("abc")}
	for len(msgs) < n {
		m := make([]byte, 1+len(msgs)*37)
		rand.Read(m)
		msgs = append(msgs, m)
	}
	return msgs
}

func TestSignPKCS1v15MatchesStdlib(t *testing.T) {
	forEachKey(t, func(t *testing.T, std *stdrsa.PrivateKey, priv *rsa.PrivateKey) {
		for _, m := range messages(4) {
			for _, h := range []crypto.Hash{crypto.SHA256, crypto.SHA512, crypto.SHA1} {
				hh := h.New()
				hh.Write(m)
				d := hh.Sum(nil)
				want, err := stdrsa.SignPKCS1v15(nil, std, h, d)
				require.NoError(t, err)
				got, err := priv.Sign(rand.Reader, d, h)
				require.NoError(t, err)
				require.Equal(t, want, got, "hash %v", h)
				require.NoError(t, priv.PublicKey().VerifyPKCS1v15(h, d, got))
				got[len(got)/2] ^= 1
				require.ErrorIs(t, priv.PublicKey().VerifyPKCS1v15(h, d, got), rsa.ErrVerification)
			}
		}
		// Hash 0: an already formatted input.
		raw := []byte("pre-formatted input")
		want, err := stdrsa.SignPKCS1v15(nil, std, 0, raw)
		require.NoError(t, err)
		got, err := priv.Sign(nil, raw, crypto.Hash(0))
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.NoError(t, rsa.VerifyPKCS1v15(&std.PublicKey, 0, raw, got))
	})
}

func TestSignPSSAgreesWithStdlib(t *testing.T) {
	forEachKey(t, func(t *testing.T, std *stdrsa.PrivateKey, priv *rsa.PrivateKey) {
		for i, m := range messages(3) {
			d := sha256.Sum256(m)
			for _, salt := range []int{stdrsa.PSSSaltLengthAuto, stdrsa.PSSSaltLengthEqualsHash, 20 + i} {
				opts := &stdrsa.PSSOptions{SaltLength: salt, Hash: crypto.SHA256}
				sig, err := priv.Sign(rand.Reader, d[:], opts)
				require.NoError(t, err)
				require.NoError(t, stdrsa.VerifyPSS(&std.PublicKey, crypto.SHA256, d[:], sig, opts))
				require.NoError(t, priv.PublicKey().VerifyPSS(crypto.SHA256, d[:], sig, opts))

				sig2, err := stdrsa.SignPSS(rand.Reader, std, crypto.SHA256, d[:], opts)
				require.NoError(t, err)
				require.NoError(t, rsa.VerifyPSS(&std.PublicKey, crypto.SHA256, d[:], sig2, opts))
				sig2[0] ^= 0x80
				require.Error(t, rsa.VerifyPSS(&std.PublicKey, crypto.SHA256, d[:], sig2, opts))
			}
		}
		// SHA-512 with the hash given only in the options (as crypto/tls does).
		d := sha512.Sum512([]byte("tls"))
		sig, err := priv.Sign(nil, d[:], &stdrsa.PSSOptions{SaltLength: stdrsa.PSSSaltLengthEqualsHash, Hash: crypto.SHA512})
		if priv.Size() < 2*64+2 {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		require.NoError(t, stdrsa.VerifyPSS(&std.PublicKey, crypto.SHA512, d[:], sig, nil))
	})
}

func TestDecryptAgreesWithStdlib(t *testing.T) {
	forEachKey(t, func(t *testing.T, std *stdrsa.PrivateKey, priv *rsa.PrivateKey) {
		for _, m := range messages(4) {
			m = m[:min(len(m), priv.Size()-11-64)]
			ct, err := stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, m)
			require.NoError(t, err)
			pt, err := priv.Decrypt(nil, ct, nil)
			require.NoError(t, err)
			require.True(t, bytes.Equal(m, pt))

			ct, err = rsa.EncryptPKCS1v15(nil, &std.PublicKey, m)
			require.NoError(t, err)
			pt, err = stdrsa.DecryptPKCS1v15(nil, std, ct)
			require.NoError(t, err)
			require.True(t, bytes.Equal(m, pt))

			label := []byte("label")
			ct, err = stdrsa.EncryptOAEP(sha256.New(), rand.Reader, &std.PublicKey, m, label)
			require.NoError(t, err)
			pt, err = priv.Decrypt(nil, ct, &stdrsa.OAEPOptions{Hash: crypto.SHA256, Label: label})
			require.NoError(t, err)
			require.True(t, bytes.Equal(m, pt))
			_, err = priv.Decrypt(nil, ct, &stdrsa.OAEPOptions{Hash: crypto.SHA256, Label: []byte("other")})
			require.ErrorIs(t, err, rsa.ErrDecryption)

			ct, err = priv.PublicKey().EncryptOAEP(nil, crypto.SHA256, crypto.SHA1, m, label)
			require.NoError(t, err)
			pt, err = stdrsa.DecryptOAEP(sha256.New(), nil, std, ct, label) // MGF1-SHA-256: must fail
			require.Error(t, err)
			pt, err = priv.Decrypt(nil, ct, &stdrsa.OAEPOptions{Hash: crypto.SHA256, MGFHash: crypto.SHA1, Label: label})
			require.NoError(t, err)
			require.True(t, bytes.Equal(m, pt))
		}
	})
}

func TestDecryptSessionKey(t *testing.T) {
	forEachKey(t, func(t *testing.T, std *stdrsa.PrivateKey, priv *rsa.PrivateKey) {
		key := make([]byte, 16)
		rand.Read(key)
		ct, err := stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, key)
		require.NoError(t, err)
		got, err := priv.Decrypt(rand.Reader, ct, &stdrsa.PKCS1v15DecryptOptions{SessionKeyLen: 16})
		require.NoError(t, err)
		require.Equal(t, key, got)
		// Wrong length: a random key, no error.
		got, err = priv.Decrypt(rand.Reader, ct, &stdrsa.PKCS1v15DecryptOptions{SessionKeyLen: 24})
		require.NoError(t, err)
		require.Len(t, got, 24)
		require.NotEqual(t, key, got[:16])
		// Invalid padding: a random key, no error; plain Decrypt fails.
		bad := make([]byte, len(ct))
		bad[len(bad)-1] = 5
		got, err = priv.Decrypt(rand.Reader, bad, &stdrsa.PKCS1v15DecryptOptions{SessionKeyLen: 16})
		require.NoError(t, err)
		require.NotEqual(t, key, got)
		_, err = priv.Decrypt(nil, bad, &stdrsa.PKCS1v15DecryptOptions{})
		require.ErrorIs(t, err, rsa.ErrDecryption)
	})
}

func TestRandomKeysAgree(t *testing.T) {
	// Fresh keys each run, on top of the fixed ones; small sizes keep
	// generation fast.
	sizes := []int{1024, 2048}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, bits := range sizes {
		std, err := stdrsa.GenerateKey(rand.Reader, bits)
		require.NoError(t, err)
		for _, backend := range availableBackends(t) {
			priv, err := rsa.NewPrivateKey(std, rsa.WithBackend(backend))
			require.NoError(t, err)
			for _, m := range messages(3) {
				d := sha256.Sum256(m)
				want, err := stdrsa.SignPKCS1v15(nil, std, crypto.SHA256, d[:])
				require.NoError(t, err)
				got, err := priv.Sign(nil, d[:], crypto.SHA256)
				require.NoError(t, err)
				require.Equal(t, want, got)
			}
		}
	}
}

func TestParse(t *testing.T) {
	std := testKey(t, 2048)
	pkcs1 := x509.MarshalPKCS1PrivateKey(std)
	pkcs8, err := x509.MarshalPKCS8PrivateKey(std)
	require.NoError(t, err)
	d := sha256.Sum256([]byte("parse"))
	want, err := stdrsa.SignPKCS1v15(nil, std, crypto.SHA256, d[:])
	require.NoError(t, err)

	var privs []*rsa.PrivateKey
	p, err := rsa.ParsePKCS1PrivateKey(pkcs1)
	require.NoError(t, err)
	privs = append(privs, p)
	p, err = rsa.ParsePKCS8PrivateKey(pkcs8)
	require.NoError(t, err)
	privs = append(privs, p)
	p, err = rsa.ParsePEMPrivateKey(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: pkcs1}))
	require.NoError(t, err)
	privs = append(privs, p)
	p, err = rsa.ParsePEMPrivateKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}))
	require.NoError(t, err)
	privs = append(privs, p)
	// A file that bundles a certificate before its key: the certificate is
	// skipped.
	bundle := append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{0x30, 0}}),
		pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: pkcs1})...)
	p, err = rsa.ParsePEMPrivateKey(bundle)
	require.NoError(t, err)
	privs = append(privs, p)
	for _, p := range privs {
		got, err := p.Sign(nil, d[:], crypto.SHA256)
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.Equal(t, &std.PublicKey, p.Public())
	}

	_, err = rsa.ParsePEMPrivateKey([]byte("not pem"))
	require.Error(t, err)
	_, err = rsa.ParsePEMPrivateKey(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: pkcs1}))
	require.Error(t, err)
	_, err = rsa.ParsePKCS1PrivateKey(pkcs1[:100])
	require.Error(t, err)
}

// cloneKey returns a deep copy of k, with Precomputed dropped unless keep.
func cloneKey(k *stdrsa.PrivateKey, keep bool) *stdrsa.PrivateKey {
	c := &stdrsa.PrivateKey{
		PublicKey: stdrsa.PublicKey{N: new(big.Int).Set(k.N), E: k.E},
		D:         new(big.Int).Set(k.D),
		Primes:    []*big.Int{new(big.Int).Set(k.Primes[0]), new(big.Int).Set(k.Primes[1])},
	}
	if keep {
		c.Precomputed = stdrsa.PrecomputedValues{
			Dp:   new(big.Int).Set(k.Precomputed.Dp),
			Dq:   new(big.Int).Set(k.Precomputed.Dq),
			Qinv: new(big.Int).Set(k.Precomputed.Qinv),
		}
	}
	return c
}

func TestKeyValidation(t *testing.T) {
	std := testKey(t, 2048)
	one := big.NewInt(1)
	// The three kinds of key that crypto/rsa rejects and vg once accepted,
	// built by hand (validate_test.go has their boundaries).
	p, qs := fermatPrimes(big.NewInt(2))
	closePrimes := handKey(p, qs[0], 65537)
	largeE := handKey(std.Primes[0], std.Primes[1], int(nextPrime(big.NewInt(1<<31+1), false).Int64()))
	largeD := cloneKey(std, true)
	{
		p1, q1 := new(big.Int).Sub(largeD.Primes[0], one), new(big.Int).Sub(largeD.Primes[1], one)
		lambda := new(big.Int).Mul(p1, q1)
		lambda.Div(lambda, new(big.Int).GCD(nil, nil, p1, q1))
		for largeD.D.Cmp(largeD.N) < 0 { // the same exponent modulo lambda
			largeD.D.Add(largeD.D, lambda)
		}
		setCRT(largeD)
	}
	cases := []struct {
		name   string
		mutate func(k *stdrsa.PrivateKey)
		substr string
		// stdRejects: crypto/rsa's Validate rejects the key too (checked).
		stdRejects bool
	}{
		{name: "|p-q| < 2^(nlen/2-100)", mutate: func(k *stdrsa.PrivateKey) { *k = *closePrimes }, substr: "|p - q| < 2^412", stdRejects: true},
		{name: "e > 2^31-1", mutate: func(k *stdrsa.PrivateKey) { *k = *largeE }, substr: "public exponent 2147483659 is too large", stdRejects: true},
		{name: "d >= n", mutate: func(k *stdrsa.PrivateKey) { *k = *largeD }, substr: "d is not below the modulus n", stdRejects: true},
		{"p*q!=n", func(k *stdrsa.PrivateKey) { k.N.Add(k.N, big.NewInt(2)) }, "p*q != n", true},
		{"d inconsistent", func(k *stdrsa.PrivateKey) { k.D.Add(k.D, big.NewInt(2)) }, "d is inconsistent", true},
		{"even modulus", func(k *stdrsa.PrivateKey) { k.N.Add(k.N, one) }, "even", true},
		{"e even", func(k *stdrsa.PrivateKey) { k.E = 65536 }, "exponent", true},
		{"e too small", func(k *stdrsa.PrivateKey) { k.E = 1 }, "exponent", true},
		{"small modulus", func(k *stdrsa.PrivateKey) { k.N.Rsh(k.N, 1200) }, "outside the supported", true},
		{"small primes", func(k *stdrsa.PrivateKey) {
			k.Primes[0] = big.NewInt(65537)
		}, "too small", true},
		{"three primes", func(k *stdrsa.PrivateKey) {
			k.Primes = append(k.Primes, big.NewInt(7))
		}, "more than two primes", false},
		{"swapped precomputed", func(k *stdrsa.PrivateKey) {
			k.Precomputed.Dp, k.Precomputed.Dq = k.Precomputed.Dq, k.Precomputed.Dp
		}, "precomputed", true},
		{"wrong qinv", func(k *stdrsa.PrivateKey) {
			k.Precomputed.Qinv.Add(k.Precomputed.Qinv, one)
		}, "precomputed", true},
		{"qinv not reduced", func(k *stdrsa.PrivateKey) {
			k.Precomputed.Qinv.Add(k.Precomputed.Qinv, k.Primes[0])
		}, "precomputed", true},
		{"no D", func(k *stdrsa.PrivateKey) { k.D = nil }, "D", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := cloneKey(std, true)
			c.mutate(k)
			if c.stdRejects {
				require.Error(t, k.Validate(), "crypto/rsa accepts the key")
			}
			_, err := rsa.NewPrivateKey(k)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.substr)
		})
	}
	// Without Precomputed, the key is completed from D, P and Q.
	k := cloneKey(std, false)
	priv, err := rsa.NewPrivateKey(k)
	require.NoError(t, err)
	d := sha256.Sum256(nil)
	want, _ := stdrsa.SignPKCS1v15(nil, std, crypto.SHA256, d[:])
	got, err := priv.Sign(nil, d[:], crypto.SHA256)
	require.NoError(t, err)
	require.Equal(t, want, got)

	_, err = rsa.NewPrivateKey(std, rsa.WithBackend("no-such-backend"))
	require.EqualError(t, err, `rsa: unknown backend "no-such-backend" (valid: ifma, adx, stdlib, generic)`)
}

func TestBadInput(t *testing.T) {
	std := testKey(t, 2048)
	priv, err := rsa.NewPrivateKey(std)
	require.NoError(t, err)
	pub := priv.PublicKey()
	k := priv.Size()
	d := sha256.Sum256(nil)

	// Ciphertext of the wrong length, or >= n.
	_, err = priv.Decrypt(nil, make([]byte, k-1), nil)
	require.ErrorIs(t, err, rsa.ErrDecryption)
	_, err = priv.Decrypt(nil, std.N.Bytes(), nil)
	require.ErrorIs(t, err, rsa.ErrDecryption)
	_, err = priv.Decrypt(nil, bytes.Repeat([]byte{0xff}, k), &stdrsa.OAEPOptions{Hash: crypto.SHA256})
	require.ErrorIs(t, err, rsa.ErrDecryption)
	// Signature of the wrong length or >= n.
	require.ErrorIs(t, pub.VerifyPKCS1v15(crypto.SHA256, d[:], make([]byte, k+1)), rsa.ErrVerification)
	require.ErrorIs(t, pub.VerifyPKCS1v15(crypto.SHA256, d[:], std.N.Bytes()), rsa.ErrVerification)
	require.ErrorIs(t, pub.VerifyPSS(crypto.SHA256, d[:], std.N.Bytes(), nil), rsa.ErrVerification)
	// Digest of the wrong length.
	_, err = priv.Sign(nil, d[:10], crypto.SHA256)
	require.Error(t, err)
	_, err = priv.Sign(nil, d[:10], &stdrsa.PSSOptions{Hash: crypto.SHA256})
	require.Error(t, err)
	// Salt too long for the modulus.
	_, err = priv.Sign(nil, d[:], &stdrsa.PSSOptions{Hash: crypto.SHA256, SaltLength: k})
	require.ErrorContains(t, err, "is too long for a 2048-bit modulus")
	_, err = priv.Sign(nil, d[:], &stdrsa.PSSOptions{Hash: crypto.SHA256, SaltLength: -5})
	require.Error(t, err)
	// Unknown or unavailable hash.
	_, err = priv.Sign(nil, d[:16], crypto.MD4)
	require.Error(t, err)
	_, err = priv.Sign(nil, d[:], &stdrsa.PSSOptions{Hash: crypto.Hash(99)})
	require.Error(t, err)
	_, err = priv.Decrypt(nil, make([]byte, k), &stdrsa.OAEPOptions{Hash: crypto.RIPEMD160})
	require.Error(t, err)
	_, err = priv.Sign(nil, d[:], nil)
	require.Error(t, err)
	// Messages too long.
	_, err = pub.EncryptPKCS1v15(nil, make([]byte, k-10))
	require.ErrorIs(t, err, rsa.ErrMessageTooLong)
	_, err = pub.EncryptOAEP(nil, crypto.SHA256, 0, make([]byte, k-2*32-1), nil)
	require.ErrorIs(t, err, rsa.ErrMessageTooLong)
	// Unsupported options.
	_, err = priv.Decrypt(nil, make([]byte, k), struct{ crypto.DecrypterOpts }{})
	require.Error(t, err)
}

func TestBackends(t *testing.T) {
	bs := rsa.Backends()
	require.NotEmpty(t, bs)
	names := map[string]bool{}
	for _, b := range bs {
		d, ok := cpufeat.Lookup(cpufeat.RSA, b.Name)
		require.True(t, ok, b.Name)
		require.Equal(t, d.Requires, b.Requires)
		require.Equal(t, d.Available(cpufeat.Enabled()), b.Available)
		names[b.Name] = true
	}
	require.True(t, names[cpufeat.GenericBackend])
	priv, err := rsa.NewPrivateKey(testKey(t, 1024))
	require.NoError(t, err)
	want := cpufeat.Select(cpufeat.RSA, keysOf(names), cpufeat.Enabled()).Name
	require.Equal(t, want, priv.Backend())
}

// TestBackendErrors checks NewPrivateKey and NewPublicKey with every
// declared backend: each one built and enabled here prepares the key, the
// others fail with the registry's error for their case.
func TestBackendErrors(t *testing.T) {
	std := testKey(t, 1024)
	built := map[string]bool{}
	for _, b := range rsa.Backends() {
		built[b.Name] = true
	}
	for _, d := range cpufeat.Backends(cpufeat.RSA) {
		priv, err := rsa.NewPrivateKey(std, rsa.WithBackend(d.Name))
		pub, perr := rsa.NewPublicKey(&std.PublicKey, rsa.WithBackend(d.Name))
		switch {
		case !built[d.Name]:
			require.ErrorContains(t, err, `rsa: backend "`+d.Name+`" is not built in this build (built: `, d.Name)
			require.ErrorContains(t, err, "generic)", d.Name)
		case !d.Available(cpufeat.Enabled()):
			want := fmt.Sprintf("rsa: backend %q needs CPU features %s; enabled here: %s", d.Name, d.Requires, cpufeat.Enabled())
			if v, set := cpufeat.Override(); set {
				want += fmt.Sprintf(" (%s=%q)", cpufeat.EnvVar, v)
			}
			require.EqualError(t, err, want)
		default:
			require.NoError(t, err, d.Name)
			require.NoError(t, perr, d.Name)
			require.Equal(t, d.Name, priv.Backend())
			require.Equal(t, d.Name, pub.Backend())
			continue
		}
		require.Equal(t, err, perr, "NewPublicKey fails as NewPrivateKey does for %s", d.Name)
	}
}

func keysOf(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	return s
}

func TestAllocations(t *testing.T) {
	if cpufeat.Simulated() {
		t.Skip("vgsim: the model's trampolines allocate on every kernel call; the model's own stack, register and taint checks replace this test there")
	}
	priv, err := rsa.NewPrivateKey(testKey(t, 2048))
	require.NoError(t, err)
	d := sha256.Sum256(nil)
	ct, err := priv.PublicKey().EncryptOAEP(nil, crypto.SHA256, 0, []byte("x"), nil)
	require.NoError(t, err)
	ct1, err := priv.PublicKey().EncryptPKCS1v15(nil, []byte("x"))
	require.NoError(t, err)
	pss := &stdrsa.PSSOptions{Hash: crypto.SHA256, SaltLength: stdrsa.PSSSaltLengthEqualsHash}
	oaep := &stdrsa.OAEPOptions{Hash: crypto.SHA256}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Sign/PKCS1v15", func() { priv.Sign(nil, d[:], crypto.SHA256) }},
		{"Sign/PSS", func() { priv.Sign(rand.Reader, d[:], pss) }},
		{"Decrypt/OAEP", func() { priv.Decrypt(nil, ct, oaep) }},
		{"Decrypt/PKCS1v15", func() { priv.Decrypt(nil, ct1, nil) }},
	} {
		n := testing.AllocsPerRun(5, c.f)
		t.Logf("%s: %.0f allocations per call", c.name, n)
		assert.LessOrEqual(t, n, 20.0, c.name)
	}
}

// TestConcurrentUse signs from several goroutines with one key.
func TestConcurrentUse(t *testing.T) {
	std := testKey(t, 1024)
	priv, err := rsa.NewPrivateKey(std)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			d := sha256.Sum256([]byte{byte(g)})
			want, _ := stdrsa.SignPKCS1v15(nil, std, crypto.SHA256, d[:])
			for range 5 {
				if got, err := priv.Sign(nil, d[:], crypto.SHA256); err != nil || !bytes.Equal(got, want) {
					t.Errorf("goroutine %d: wrong signature (%v)", g, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestErrorsAreStdlibs(t *testing.T) {
	require.True(t, errors.Is(rsa.ErrVerification, stdrsa.ErrVerification))
	require.True(t, errors.Is(rsa.ErrDecryption, stdrsa.ErrDecryption))
}
