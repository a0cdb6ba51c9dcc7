package wycheproof

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allGlobs lists every glob vg's algorithms need, with the type its files
// must load as.
var allGlobs = []struct {
	glob string
	typ  VectorFile
}{
	{GlobAESGCM, (*AEADFile)(nil)},
	{GlobChaCha20Poly1305, (*AEADFile)(nil)},
	{GlobXChaCha20Poly1305, (*AEADFile)(nil)},
	{GlobRSASignature, (*RSASigFile)(nil)},
	{GlobRSASigGen, (*RSASigGenFile)(nil)},
	{GlobRSAPSS, (*RSAPSSFile)(nil)},
	{GlobRSAPKCS1Decrypt, (*RSADecryptFile)(nil)},
	{GlobRSAOAEP, (*RSADecryptFile)(nil)},
	{GlobRSAThreePrimesOAEP, (*RSADecryptFile)(nil)},
}

// knownCounts are the test counts of the pinned AEAD files.
var knownCounts = map[string]int{
	"aes_gcm_test.json":            316,
	"chacha20_poly1305_test.json":  325,
	"xchacha20_poly1305_test.json": 315,
}

// rawCount counts the tests of a file without the typed structs.
func rawCount(t *testing.T, name string) (declared, present int) {
	t.Helper()
	dir, err := Dir()
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(dir, VectorsDir, name))
	require.NoError(t, err)
	var raw struct {
		NumberOfTests int `json:"numberOfTests"`
		TestGroups    []struct {
			Tests []json.RawMessage `json:"tests"`
		} `json:"testGroups"`
	}
	require.NoError(t, json.Unmarshal(data, &raw))
	for _, g := range raw.TestGroups {
		present += len(g.Tests)
	}
	return raw.NumberOfTests, present
}

func TestAllFilesLoad(t *testing.T) {
	total, files := 0, 0
	for _, g := range allGlobs {
		names, err := Files(g.glob)
		require.NoError(t, err)
		for _, name := range names {
			typed, err := LoadFile(name)
			require.NoError(t, err, name)
			assert.IsType(t, g.typ, typed, name)
			declared, present := rawCount(t, name)
			assert.Equal(t, declared, present, "%s: numberOfTests", name)
			assert.Equal(t, present, typed.Count(), name)
			assert.Equal(t, name, typed.Info().Name)
			if want, ok := knownCounts[name]; ok {
				assert.Equal(t, want, typed.Count(), name)
			}
			t.Logf("%-55s %-36s %4d", name, typed.Info().Schema, typed.Count())
			total += typed.Count()
			files++
		}
	}
	t.Logf("%d files, %d tests", files, total)
}

// TestEveryRSAFileCovered checks that the RSA globs partition rsa_*.json: no
// RSA file of the pinned version is left out or loaded twice.
func TestEveryRSAFileCovered(t *testing.T) {
	names, err := Files("rsa_*.json")
	require.NoError(t, err)
	require.Greater(t, len(names), 80)
	for _, name := range names {
		var matched []string
		for _, g := range RSAGlobs() {
			if ok, _ := path.Match(g, name); ok {
				matched = append(matched, g)
			}
		}
		assert.Len(t, matched, 1, "%s matches %v", name, matched)
	}
}

func TestTypedContents(t *testing.T) {
	gcm, err := LoadAEAD("aes_gcm_test.json")
	require.NoError(t, err)
	assert.Equal(t, "AES-GCM", gcm.Algorithm)
	g := gcm.TestGroups[0]
	assert.Equal(t, []int{96, 128, 128}, []int{g.IVSize, g.KeySize, g.TagSize})
	tc := g.Tests[0]
	assert.Equal(t, 1, tc.TcID)
	assert.Equal(t, HexBytes{0x5b, 0x96, 0x04, 0xfe, 0x14, 0xea, 0xdb, 0xa9, 0x31, 0xb0, 0xcc, 0xf3, 0x48, 0x43, 0xda, 0xb9}, tc.Key)
	assert.Len(t, tc.IV, 12)
	assert.True(t, tc.Result.Valid())
	assert.True(t, tc.HasFlag("Ktv"))
	assert.False(t, tc.HasFlag("CounterWrap"))
	assert.Equal(t, "BASIC", gcm.Notes["Ktv"].BugType)

	oaep, err := LoadRSADecrypt("rsa_three_primes_oaep_2048_sha1_mgf1sha1_test.json")
	require.NoError(t, err)
	og := oaep.TestGroups[0]
	assert.True(t, og.OAEP())
	assert.Equal(t, "SHA-1", og.SHA)
	require.Len(t, og.PrivateKey.OtherPrimeInfos, 1)
	assert.Len(t, og.PrivateKey.OtherPrimeInfos[0], 3)
	// n = p * q * r.
	n := og.PrivateKey.Prime1.BigInt()
	n.Mul(n, og.PrivateKey.Prime2.BigInt())
	n.Mul(n, og.PrivateKey.OtherPrimeInfos[0][0].BigInt())
	assert.Equal(t, 0, n.Cmp(og.PrivateKey.Modulus.BigInt()))
	assert.Equal(t, 2048, og.KeySize)
	assert.Equal(t, 2048, og.PrivateKey.Modulus.BigInt().BitLen())

	pkcs1, err := LoadRSADecrypt("rsa_pkcs1_2048_test.json")
	require.NoError(t, err)
	assert.False(t, pkcs1.TestGroups[0].OAEP())
	assert.Equal(t, "RSA1_5", pkcs1.TestGroups[0].PrivateKeyJwk.Alg)

	pss, err := LoadRSAPSS("rsa_pss_2048_sha1_mgf1_20_params_test.json")
	require.NoError(t, err)
	assert.Equal(t, "RsassaPssWithParametersVerify", pss.TestGroups[0].Type)
	assert.Equal(t, 20, pss.TestGroups[0].SLen)
	assert.True(t, strings.HasPrefix(pss.TestGroups[0].PublicKeyPem, "-----BEGIN PUBLIC KEY-----"))

	gen, err := LoadRSASigGen("rsa_pkcs1_3072_sig_gen_test.json")
	require.NoError(t, err)
	gg := gen.TestGroups[0]
	assert.Equal(t, "RsassaPkcs1Generate", gg.Type)
	// The sig-gen files give only n, e and d in privateKey; the PKCS #8 DER
	// has the primes.
	for _, g := range gen.TestGroups {
		k := g.PrivateKey
		assert.Equal(t, g.KeySize, k.Modulus.BigInt().BitLen())
		assert.Empty(t, k.Prime1)
		parsed, err := x509.ParsePKCS8PrivateKey(g.PrivateKeyPkcs8)
		require.NoError(t, err)
		rk := parsed.(*rsa.PrivateKey)
		assert.Zero(t, rk.N.Cmp(k.Modulus.BigInt()))
		assert.Zero(t, rk.D.Cmp(k.PrivateExponent.BigInt()))
	}
	assert.Equal(t, "RSA", gg.KeyJwk.Kty)
	assert.NotEmpty(t, gg.PrivateKeyPkcs8)

	sig, err := LoadRSASig("rsa_signature_2048_sha256_test.json")
	require.NoError(t, err)
	assert.Equal(t, "SHA-256", sig.TestGroups[0].SHA)
	assert.Equal(t, byte(0x30), sig.TestGroups[0].PublicKeyDer[0])
}

func TestWrongSchemaFails(t *testing.T) {
	_, err := LoadAEAD("rsa_pkcs1_2048_test.json")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "rsaes_pkcs1_decrypt_schema_v1.json")

	_, err = LoadRSASig("rsa_pss_2048_sha256_mgf1_32_test.json")
	require.Error(t, err)

	_, err = LoadFile("hmac_sha256_test.json")
	require.ErrorContains(t, err, "not modelled")

	_, err = LoadFile("../testvectors_v1/aes_gcm_test.json")
	require.ErrorContains(t, err, "not a file name")

	_, err = Files("nothing_*.json")
	require.ErrorContains(t, err, "no file")
}

func TestStrictDecoding(t *testing.T) {
	const good = `{"algorithm":"X","schema":"aead_test_schema_v1.json","numberOfTests":1,
		"header":[],"notes":{"F":{"bugType":"BASIC","description":"d"}},
		"testGroups":[{"type":"AeadTest","ivSize":96,"keySize":128,"tagSize":128,
		"source":{"name":"n","version":"v"},
		"tests":[{"tcId":1,"comment":"","flags":["F"],"key":"00ff","iv":"","aad":"","msg":"","ct":"","tag":"","result":"valid"}]}]}`
	var f AEADFile
	require.NoError(t, decode("x.json", []byte(good), &f))
	assert.Equal(t, HexBytes{0x00, 0xff}, f.TestGroups[0].Tests[0].Key)
	assert.Equal(t, "x.json", f.Name)

	bad := map[string]string{
		"unknown field":   strings.Replace(good, `"comment":""`, `"comment":"","extra":1`, 1),
		"count":           strings.Replace(good, `"numberOfTests":1`, `"numberOfTests":2`, 1),
		"result":          strings.Replace(good, `"result":"valid"`, `"result":"maybe"`, 1),
		"hex":             strings.Replace(good, `"key":"00ff"`, `"key":"0g"`, 1),
		"flag":            strings.Replace(good, `"flags":["F"]`, `"flags":["G"]`, 1),
		"schema":          strings.Replace(good, `aead_test_schema_v1.json`, `aead_test_schema_v2.json`, 1),
		"group type":      strings.Replace(good, `"AeadTest"`, `"DaeadTest"`, 1),
		"duplicate tcId":  strings.Replace(good, `"tests":[{`, `"tests":[{"tcId":1,"comment":"","flags":[],"key":"","iv":"","aad":"","msg":"","ct":"","tag":"","result":"valid"},{`, 1),
		"trailing values": good + `{}`,
	}
	for name, data := range bad {
		var f AEADFile
		assert.Error(t, decode("x.json", []byte(data), &f), name)
	}
}

func TestResultMethods(t *testing.T) {
	assert.True(t, Valid.Valid())
	assert.False(t, Valid.Invalid())
	assert.True(t, Invalid.Invalid())
	assert.True(t, Acceptable.Acceptable())
	assert.False(t, Acceptable.Valid())
}

// TestUnreachableProxy checks that a failed download is an error telling the
// user how to fetch the vectors.
func TestUnreachableProxy(t *testing.T) {
	env := append(os.Environ(), "GOPROXY=off", "GOMODCACHE="+t.TempDir(), "GOFLAGS=-modcacherw")
	_, err := resolveDir("", env)
	require.Error(t, err)
	assert.Contains(t, err.Error(), FetchCommand)
	assert.Contains(t, err.Error(), DirEnv)
	t.Log(err)
}

func TestOverride(t *testing.T) {
	dir, err := Dir()
	require.NoError(t, err)
	got, err := resolveDir(dir, nil)
	require.NoError(t, err)
	assert.Equal(t, dir, got)

	_, err = resolveDir(t.TempDir(), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), DirEnv)
	assert.Contains(t, err.Error(), FetchCommand)
}
