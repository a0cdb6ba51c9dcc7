package conformance_test

import (
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vgcrypto/vg/rsa"

	"github.com/vgcrypto/vg/conformance/spec/rsa/vectors"
	"github.com/vgcrypto/vg/conformance/wycheproof"
	"github.com/vgcrypto/vg/cpufeat"
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

// modelStride is the Wycheproof sampling for backend: none, except under
// -short for an assembly backend that runs on the x86sim model (-tags
// vgsim), where a private-key operation takes 0.2 s at 2048 bits and 1 s at
// 4096: there one test in bits/256 of each key size of each file runs (every
// file still runs, and the full set without -short).
func modelStride(backend string) func(bits int) int {
	if !cpufeat.Simulated() || !testing.Short() || backend == "generic" {
		return nil
	}
	return func(bits int) int { return max(1, bits/256) }
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
				v, err := wycheproof.LoadFile(f)
				require.NoError(t, err)
				r, err := vectors.RunFileSampled(v, backend, modelStride(backend))
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

// TestRSAPSSParamsParsing checks the RSASSA-PSS-params parser on keys built
// here: explicit parameters, all defaults, and plain rsaEncryption.
func TestRSAPSSParamsParsing(t *testing.T) {
	k := rsaKeys(t)[1024]
	pkcs1 := x509.MarshalPKCS1PublicKey(&k.PublicKey)
	spki := func(alg pkix.AlgorithmIdentifier) []byte {
		der, err := asn1.Marshal(struct {
			Algorithm pkix.AlgorithmIdentifier
			PublicKey asn1.BitString
		}{alg, asn1.BitString{Bytes: pkcs1, BitLength: 8 * len(pkcs1)}})
		require.NoError(t, err)
		return der
	}
	oidPSS := asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 10}
	sha256ID := pkix.AlgorithmIdentifier{Algorithm: asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}, Parameters: asn1.NullRawValue}
	sha1ID, err := asn1.Marshal(pkix.AlgorithmIdentifier{Algorithm: asn1.ObjectIdentifier{1, 3, 14, 3, 2, 26}, Parameters: asn1.NullRawValue})
	require.NoError(t, err)
	params, err := asn1.Marshal(struct {
		Hash       pkix.AlgorithmIdentifier `asn1:"explicit,tag:0"`
		MGF        pkix.AlgorithmIdentifier `asn1:"explicit,tag:1"`
		SaltLength int                      `asn1:"explicit,tag:2"`
	}{sha256ID, pkix.AlgorithmIdentifier{Algorithm: asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 8}, Parameters: asn1.RawValue{FullBytes: sha1ID}}, 32})
	require.NoError(t, err)

	pub, p, has, err := vectors.ParsePSSPublicKey(spki(pkix.AlgorithmIdentifier{Algorithm: oidPSS, Parameters: asn1.RawValue{FullBytes: params}}))
	require.NoError(t, err)
	require.True(t, has)
	require.Equal(t, 0, pub.N.Cmp(k.N))
	require.Equal(t, rsa.PSSParams{Hash: crypto.SHA256, MGFHash: crypto.SHA1, SaltLength: 32}, p)

	empty, err := asn1.Marshal(struct{}{})
	require.NoError(t, err)
	_, p, has, err = vectors.ParsePSSPublicKey(spki(pkix.AlgorithmIdentifier{Algorithm: oidPSS, Parameters: asn1.RawValue{FullBytes: empty}}))
	require.NoError(t, err)
	require.True(t, has)
	require.Equal(t, rsa.PSSParams{Hash: crypto.SHA1, MGFHash: crypto.SHA1, SaltLength: 20}, p)

	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	require.NoError(t, err)
	_, _, has, err = vectors.ParsePSSPublicKey(der)
	require.NoError(t, err)
	require.False(t, has)
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

// TestRSAAgreement checks every backend against the math/big reference and
// crypto/rsa on random keys of 1024..4096 bits and random messages (see
// vectors.Agree for what is compared).
func TestRSAAgreement(t *testing.T) {
	keys := rsaKeys(t)
	for _, backend := range rsaBackends(t) {
		for _, bits := range []int{1024, 2048, 3072, 4096} {
			msgs := 4
			if modelStride(backend) != nil && bits > 2048 {
				// On the model under -short: one message (each costs
				// several private-key operations of about a second).
				msgs = 1
			}
			t.Run(fmt.Sprintf("%s/%d", backend, bits), func(t *testing.T) {
				require.NoError(t, vectors.Agree(backend, keys[bits], msgs, uint64(bits)))
			})
		}
	}
}

// TestRSAAgreementRejectsWrongKey makes sure the agreement check can fail:
// a key whose D does not invert E is refused, not silently compared.
func TestRSAAgreementRejectsWrongKey(t *testing.T) {
	k := rsaKeys(t)[1024]
	bad := *k
	bad.D = new(big.Int).Add(k.D, big.NewInt(2))
	bad.Precomputed = stdrsa.PrecomputedValues{}
	require.Error(t, vectors.Agree(rsaBackends(t)[0], &bad, 1, 1))
}
