package conformance_test

import (
	"bytes"
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	mathrand "math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/rsa"

	spec "github.com/vgcrypto/vg/conformance/spec/rsa"
	"github.com/vgcrypto/vg/conformance/spec/rsa/vectors"
)

// rsaBackends returns the rsa backends available here; an invalid
// VG_CPU_FEATURES fails the test rather than skip.
func rsaBackends(t testing.TB) []string {
	t.Helper()
	_, err := rsa.NewPublicKey(&stdrsa.PublicKey{N: new(big.Int).Lsh(big.NewInt(1), 1100), E: 3})
	// The key is invalid (even n), but the override error comes first.
	require.NotNil(t, err)
	require.NotContains(t, err.Error(), "VG_CPU_FEATURES")
	var names []string
	for _, b := range rsa.Backends() {
		if b.Available {
			names = append(names, b.Name)
		}
	}
	require.NotEmpty(t, names)
	return names
}

// TestRSAWycheproof runs every Wycheproof RSA file on every backend and
// prints the per-file counts.
func TestRSAWycheproof(t *testing.T) {
	files, err := vectors.Files()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 80, "every rsa_signature, sig_gen, pss, pkcs1 decrypt and oaep file")
	for _, backend := range rsaBackends(t) {
		total := vectors.Result{}
		for _, f := range files {
			t.Run(backend+"/"+f, func(t *testing.T) {
				r, err := vectors.Run(f, backend)
				require.NoError(t, err)
				t.Logf("%-52s pass %4d fail %d skip %3d %v", f, r.Pass, r.Fail, r.Skip, r.SkipReasons)
				require.Zero(t, r.Fail, "failures:\n%v", r.Failures)
				total.Pass += r.Pass
				total.Fail += r.Fail
				total.Skip += r.Skip
			})
		}
		t.Logf("%s: %d files, pass %d, fail %d, skip %d", backend, len(files), total.Pass, total.Fail, total.Skip)
	}
}

// TestRSAPSSParamsParsing checks the parameter parser on the keys of a
// params file against the group fields it must reproduce.
func TestRSAPSSParamsParsing(t *testing.T) {
	pub, p, has, err := vectors.ParsePSSPublicKey(mustSPKI(t))
	require.NoError(t, err)
	require.False(t, has)
	require.NotNil(t, pub)
	require.Zero(t, p)
}

func mustSPKI(t *testing.T) []byte {
	k := rsaKeys(t)[1024]
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	require.NoError(t, err)
	return der
}

var (
	rsaKeysOnce sync.Once
	rsaKeyMap   map[int]*stdrsa.PrivateKey
)

// rsaKeys returns one random key per size, generated once per test binary.
// Under -short the 3072- and 4096-bit keys are the rsa module's fixed test
// keys instead (key generation is the slow part).
func rsaKeys(t testing.TB) map[int]*stdrsa.PrivateKey {
	rsaKeysOnce.Do(func() {
		rsaKeyMap = make(map[int]*stdrsa.PrivateKey)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, bits := range []int{1024, 2048, 3072, 4096} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var k *stdrsa.PrivateKey
				var err error
				if testing.Short() && bits > 2048 {
					k, err = fixedKey(bits)
				} else {
					k, err = stdrsa.GenerateKey(rand.Reader, bits)
				}
				if err != nil {
					panic(err)
				}
				mu.Lock()
				rsaKeyMap[bits] = k
				mu.Unlock()
			}()
		}
		wg.Wait()
	})
	return rsaKeyMap
}

func fixedKey(bits int) (*stdrsa.PrivateKey, error) {
	data, err := os.ReadFile(filepath.Join("..", "rsa", "testdata", fmt.Sprintf("rsa%d.pem", bits)))
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	return x509.ParsePKCS1PrivateKey(block.Bytes)
}

// fixedReader returns the same bytes on every read sequence, so vg and the
// spec draw the same salt, seed or padding.
func fixedReader(seed uint64) io.Reader {
	return mathrand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), 1})
}

// TestRSAAgreement checks every backend against the math/big reference and
// crypto/rsa on random keys of 1024..4096 bits and random messages.
func TestRSAAgreement(t *testing.T) {
	keys := rsaKeys(t)
	for _, backend := range rsaBackends(t) {
		for _, bits := range []int{1024, 2048, 3072, 4096} {
			t.Run(fmt.Sprintf("%s/%d", backend, bits), func(t *testing.T) {
				std := keys[bits]
				ref := &spec.PrivateKey{PublicKey: spec.PublicKey{N: std.N, E: std.E}, D: std.D}
				priv, err := rsa.NewPrivateKey(std, rsa.WithBackend(backend))
				require.NoError(t, err)
				pub := priv.PublicKey()
				r := mathrand.New(mathrand.NewPCG(uint64(bits), 7))
				for i := range 4 {
					msg := make([]byte, r.IntN(100))
					for j := range msg {
						msg[j] = byte(r.Uint32())
					}
					testRSAAgreementOne(t, std, ref, priv, pub, msg, uint64(i))
				}
			})
		}
	}
}

func testRSAAgreementOne(t *testing.T, std *stdrsa.PrivateKey, ref *spec.PrivateKey, priv *rsa.PrivateKey, pub *rsa.PublicKey, msg []byte, seed uint64) {
	for _, h := range []crypto.Hash{crypto.SHA256, crypto.SHA384, crypto.SHA1} {
		d := h.New()
		d.Write(msg)
		hashed := d.Sum(nil)

		// PKCS #1 v1.5: deterministic, so all three agree byte for byte.
		want, err := spec.SignPKCS1v15(ref, h, hashed)
		require.NoError(t, err)
		got, err := priv.Sign(nil, hashed, h)
		require.NoError(t, err)
		require.Equal(t, want, got)
		stdSig, err := stdrsa.SignPKCS1v15(nil, std, h, hashed)
		require.NoError(t, err)
		require.Equal(t, want, stdSig)

		// PSS: with the same salt (the same reader), vg equals the spec.
		sLen := 20 + int(seed)
		if priv.Size() < h.Size()+sLen+2 {
			continue
		}
		p := rsa.PSSParams{Hash: h, MGFHash: crypto.SHA256, SaltLength: sLen}
		got, err = priv.SignPSSParams(fixedReader(seed), hashed, p)
		require.NoError(t, err)
		salt := make([]byte, sLen)
		io.ReadFull(fixedReader(seed), salt)
		want, err = spec.SignPSS(ref, h, crypto.SHA256, hashed, salt)
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.NoError(t, spec.VerifyPSS(&ref.PublicKey, h, crypto.SHA256, hashed, got, sLen))
		require.NoError(t, pub.VerifyPSSParams(hashed, want, p))
		// crypto/rsa's PSS (MGF1 with the message hash) verifies vg's.
		got, err = priv.Sign(rand.Reader, hashed, &stdrsa.PSSOptions{Hash: h})
		require.NoError(t, err)
		require.NoError(t, stdrsa.VerifyPSS(&std.PublicKey, h, hashed, got, nil))
	}

	// OAEP: vg's encryption with a fixed seed equals the spec's; the spec's
	// and crypto/rsa's ciphertexts decrypt with vg.
	label := []byte("agreement")
	m := msg[:min(len(msg), priv.Size()-2*32-2)]
	got, err := pub.EncryptOAEP(fixedReader(seed), crypto.SHA256, crypto.SHA1, m, label)
	require.NoError(t, err)
	oseed := make([]byte, 32)
	io.ReadFull(fixedReader(seed), oseed)
	want, err := spec.EncryptOAEP(&ref.PublicKey, crypto.SHA256, crypto.SHA1, m, label, oseed)
	require.NoError(t, err)
	require.Equal(t, want, got)
	pt, err := priv.DecryptOAEP(crypto.SHA256, crypto.SHA1, want, label)
	require.NoError(t, err)
	require.True(t, bytes.Equal(m, pt))
	pt, err = spec.DecryptOAEP(ref, crypto.SHA256, crypto.SHA1, got, label)
	require.NoError(t, err)
	require.True(t, bytes.Equal(m, pt))

	// PKCS #1 v1.5 encryption, both directions.
	ps := make([]byte, priv.Size()-len(m)-3)
	for i := range ps {
		ps[i] = byte(i*7+int(seed))%255 + 1
	}
	ct, err := spec.EncryptPKCS1v15(&ref.PublicKey, m, ps)
	require.NoError(t, err)
	pt, err = priv.Decrypt(nil, ct, nil)
	require.NoError(t, err)
	require.True(t, bytes.Equal(m, pt))
	ct, err = pub.EncryptPKCS1v15(nil, m)
	require.NoError(t, err)
	pt, err = spec.DecryptPKCS1v15(ref, ct)
	require.NoError(t, err)
	require.True(t, bytes.Equal(m, pt))
	pt, err = stdrsa.DecryptPKCS1v15(nil, std, ct)
	require.NoError(t, err)
	require.True(t, bytes.Equal(m, pt))

	// The raw private operation (hash 0 signs a pre-formatted input) equals
	// RSADP with the plain exponent.
	raw := make([]byte, 20)
	io.ReadFull(fixedReader(seed+100), raw)
	got, err = priv.Sign(nil, raw, crypto.Hash(0))
	require.NoError(t, err)
	want, err = spec.SignPKCS1v15(ref, 0, raw)
	require.NoError(t, err)
	require.Equal(t, want, got)
}
