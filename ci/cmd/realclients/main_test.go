package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const xchacha = "golang.org/x/crypto/chacha20poly1305"

// The three AES-GCM sites of quic-go v0.65.0's internal/handshake, in
// miniature, and what they must become.
const suiteSrc = `package handshake

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"

	"golang.org/x/crypto/chacha20poly1305"
)

func aeadAESGCMTLS13(key, nonceMask []byte) cipher.AEAD {
	aes, err := aes.NewCipher(key)
	if err != nil {
		panic(err)
	}
	aead, err := cipher.NewGCM(aes)
	if err != nil {
		panic(err)
	}
	return aead
}

func aeadChaCha20Poly1305(key []byte) cipher.AEAD {
	aead, err := chacha20poly1305.New(key)
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return aead
}
`

const suiteWant = `package handshake

import (
	"crypto/cipher"
	"fmt"

	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/chacha20poly1305"
)

func aeadAESGCMTLS13(key, nonceMask []byte) cipher.AEAD {
	aead, err := aesgcm.New(key)
	if err != nil {
		panic(err)
	}
	return aead
}

func aeadChaCha20Poly1305(key []byte) cipher.AEAD {
	aead, err := chacha20poly1305.New(key)
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return aead
}
`

const retrySrc = `package handshake

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/fips140"
)

func initAEAD(key [16]byte) cipher.AEAD {
	aes, err := aes.NewCipher(key[:])
	if err != nil {
		panic(err)
	}
	var aead cipher.AEAD
	// A comment that stays.
	fips140.WithoutEnforcement(func() {
		var err error
		aead, err = cipher.NewGCM(aes)
		if err != nil {
			panic(err)
		}
	})
	return aead
}
`

const retryWant = `package handshake

import (
	"crypto/cipher"
	"crypto/fips140"

	"github.com/vgcrypto/vg/aesgcm"
)

func initAEAD(key [16]byte) cipher.AEAD {
	var aead cipher.AEAD
	// A comment that stays.
	fips140.WithoutEnforcement(func() {
		var err error
		aead, err = aesgcm.New(key[:])
		if err != nil {
			panic(err)
		}
	})
	return aead
}
`

const tokenSrc = `package handshake

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
)

func createAEAD(secret, salt []byte) (cipher.AEAD, error) {
	key, err := hkdf.Key(sha256.New, secret, salt, "info", 32)
	if err != nil {
		return nil, err
	}
	c, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCMWithRandomNonce(c)
	if err != nil {
		return nil, err
	}
	return aead, nil
}

// Header protection: a block cipher that is not for GCM stays.
func newHeaderProtector(hpKey []byte) cipher.Block {
	block, err := aes.NewCipher(hpKey)
	if err != nil {
		panic(err)
	}
	return block
}
`

const tokenWant = `package handshake

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"

	"github.com/vgcrypto/vg/aesgcm"
)

func createAEAD(secret, salt []byte) (cipher.AEAD, error) {
	key, err := hkdf.Key(sha256.New, secret, salt, "info", 32)
	if err != nil {
		return nil, err
	}
	aead, err := aesgcm.NewWithRandomNonce(key)
	if err != nil {
		return nil, err
	}
	return aead, nil
}

// Header protection: a block cipher that is not for GCM stays.
func newHeaderProtector(hpKey []byte) cipher.Block {
	block, err := aes.NewCipher(hpKey)
	if err != nil {
		panic(err)
	}
	return block
}
`

func quicConfig() swapConfig {
	return swapConfig{
		imports: map[string]string{xchacha: "github.com/vgcrypto/vg/chacha20poly1305"},
		gcm:     map[string]int{"h/suite.go": 1, "h/retry.go": 1, "h/token.go": 1},
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	for name, src := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
}

func TestSwapQUICShapes(t *testing.T) {
	dir := t.TempDir()
	test := "package handshake\n\nimport \"crypto/aes\"\n\nvar _ = aes.BlockSize\n"
	writeFiles(t, dir, map[string]string{"h/suite.go": suiteSrc, "h/retry.go": retrySrc, "h/token.go": tokenSrc, "h/x_test.go": test})
	var out bytes.Buffer
	ok, err := swap(dir, []string{"./h"}, quicConfig(), &out)
	require.NoError(t, err)
	require.True(t, ok, out.String())
	for name, want := range map[string]string{"h/suite.go": suiteWant, "h/retry.go": retryWant, "h/token.go": tokenWant, "h/x_test.go": test} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		require.Equal(t, want, string(got), name)
	}
	require.Contains(t, out.String(), `h/suite.go:8: import "golang.org/x/crypto/chacha20poly1305" -> "github.com/vgcrypto/vg/chacha20poly1305"`)
	require.Contains(t, out.String(), "h/suite.go:12: aes, err := aes.NewCipher(key) + cipher.NewGCM(aes) -> aesgcm.New(key) in aeadAESGCMTLS13")
	require.Contains(t, out.String(), "h/retry.go:10: aes, err := aes.NewCipher(key[:]) + cipher.NewGCM(aes) -> aesgcm.New(key[:]) in initAEAD")
	require.Contains(t, out.String(), "h/token.go:15: c, err := aes.NewCipher(key) + cipher.NewGCMWithRandomNonce(c) -> aesgcm.NewWithRandomNonce(key) in createAEAD")
}

// A count or shape other than the pinned one writes nothing.
func TestSwapRefusesUnexpectedSites(t *testing.T) {
	for _, tc := range []struct {
		name, src, problem string
		gcm                map[string]int
	}{
		{"fewer sites than listed", suiteSrc, "h/suite.go: 1 AES-GCM construction sites, expected 2", map[string]int{"h/suite.go": 2}},
		{"an unlisted site", suiteSrc, "h/suite.go: 1 AES-GCM construction sites not in the -gcm list", map[string]int{}},
		{"the key changes in between", strings.Replace(suiteSrc, "\taead, err := cipher.NewGCM(aes)", "\tkey = nil\n\taead, err := cipher.NewGCM(aes)", 1),
			"the key key is assigned after aes.NewCipher", map[string]int{"h/suite.go": 1}},
		{"the block used twice", strings.Replace(suiteSrc, "\taead, err := cipher.NewGCM(aes)", "\t_ = aes\n\taead, err := cipher.NewGCM(aes)", 1),
			"aes is used 2 times after aes.NewCipher", map[string]int{"h/suite.go": 1}},
		{"no error check", strings.Replace(suiteSrc, "\tif err != nil {\n\t\tpanic(err)\n\t}\n\taead", "\t_ = err\n\taead", 1),
			"not of the form X, err := aes.NewCipher(K); if err != nil", map[string]int{"h/suite.go": 1}},
		{"an import that is not there", strings.Replace(suiteSrc, xchacha, "example.com/other", 1),
			"no file of h imports golang.org/x/crypto/chacha20poly1305", map[string]int{"h/suite.go": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"h/suite.go": tc.src})
			cfg := quicConfig()
			cfg.gcm = tc.gcm
			var out bytes.Buffer
			ok, err := swap(dir, []string{"h"}, cfg, &out)
			require.NoError(t, err)
			require.False(t, ok)
			require.Contains(t, out.String(), tc.problem)
			require.Contains(t, out.String(), "nothing written")
			got, err := os.ReadFile(filepath.Join(dir, "h/suite.go"))
			require.NoError(t, err)
			require.Equal(t, tc.src, string(got))
		})
	}
}

// An import whose last element differs keeps the name the code uses.
func TestSwapImportKeepsName(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nimport \"example.com/old/aead\"\n\nvar _ = aead.New\n"
	writeFiles(t, dir, map[string]string{"p.go": src})
	cfg := swapConfig{imports: map[string]string{"example.com/old/aead": "example.com/new/chacha"}}
	var out bytes.Buffer
	ok, err := swap(dir, []string{"."}, cfg, &out)
	require.NoError(t, err)
	require.True(t, ok, out.String())
	got, err := os.ReadFile(filepath.Join(dir, "p.go"))
	require.NoError(t, err)
	require.Equal(t, "package p\n\nimport aead \"example.com/new/chacha\"\n\nvar _ = aead.New\n", string(got))
}

// jsonLines builds go test -json output: each argument is
// "action package [test]".
func jsonLines(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		f := strings.Fields(e)
		b.WriteString(`{"Action":"` + f[0] + `","Package":"` + f[1] + `"`)
		if len(f) > 2 {
			b.WriteString(`,"Test":"` + f[2] + `"`)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

func writeJSON(t *testing.T, dir, name string, events ...string) string {
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(jsonLines(events...)), 0o644))
	return p
}

func TestCountAndCompare(t *testing.T) {
	dir := t.TempDir()
	before := writeJSON(t, dir, "before.json",
		"pass p TestA/x", "pass p TestA/y", "pass p TestA", "skip p TestB", "fail p TestC", "fail p",
		"pass q TestD", "pass q")
	same := writeJSON(t, dir, "same.json",
		"pass p TestA/x", "pass p TestA/y", "pass p TestA", "skip p TestB", "fail p TestC", "fail p",
		"pass q TestD", "pass q")
	worse := writeJSON(t, dir, "worse.json",
		"fail p TestA/x", "pass p TestA/y", "fail p TestA", "skip p TestB", "pass p TestC", "fail p",
		"skip q TestD", "fail q TestE", "fail q")

	res, err := readResults(before)
	require.NoError(t, err)
	require.Equal(t, "L     4 passed    1 failed    1 skipped  (2 packages)", countLine("L ", res, newResults()))

	var out bytes.Buffer
	ok, err := compareMain([]string{before, same}, &out)
	require.NoError(t, err)
	require.True(t, ok, out.String())
	require.Contains(t, out.String(), "warning: p TestC failed before the swap too")

	out.Reset()
	list := filepath.Join(dir, "rerun")
	ok, err = compareMain([]string{"-rerun-list", list, before, worse}, &out)
	require.NoError(t, err)
	require.False(t, ok)
	for _, want := range []string{
		"REGRESSION: p TestA/x passed before the swap, failed after",
		"REGRESSION: p TestA passed before the swap, failed after",
		"REGRESSION: q TestD passed before the swap, skipped after",
		"REGRESSION: q TestE failed after the swap (it did not run before)",
	} {
		require.Contains(t, out.String(), want)
	}
	b, err := os.ReadFile(list)
	require.NoError(t, err)
	require.Equal(t, "p ^(TestA)$\nq ^(TestD|TestE)$\n", string(b))

	// A rerun says which regressions are intermittent, and they still are
	// regressions; TestA/y, which passed both times, is no news.
	rerun := writeJSON(t, dir, "rerun.json", "pass p TestA/x", "pass p TestA/y", "pass p TestA", "pass p",
		"fail q TestD", "fail q")
	out.Reset()
	ok, err = compareMain([]string{before, worse, rerun}, &out)
	require.NoError(t, err)
	require.False(t, ok)
	for _, want := range []string{
		"REGRESSION: p TestA/x passed before the swap, failed after (passed on a rerun: intermittent)",
		"REGRESSION: p TestA passed before the swap, failed after (passed on a rerun: intermittent)",
		"REGRESSION: q TestD passed before the swap, skipped after (failed again on a rerun)",
		"REGRESSION: q TestE failed after the swap (it did not run before) (not run on a rerun)",
	} {
		require.Contains(t, out.String(), want)
	}
	require.NotContains(t, out.String(), "TestA/y")
	res, err = readResults(worse)
	require.NoError(t, err)
	reruns, err := readResults(rerun)
	require.NoError(t, err)
	require.Equal(t, "L     2 passed    3 failed    2 skipped  (2 packages; 2 of those not passing passed on a rerun)", countLine("L ", res, reruns))
}

// A package that does not build is one regression, with its build output,
// and its tests are not listed one by one; nothing passing before fails.
func TestComparePackageFailure(t *testing.T) {
	dir := t.TempDir()
	before := writeJSON(t, dir, "before.json", "pass p TestA", "pass p TestB", "pass p")
	after := filepath.Join(dir, "after.json")
	require.NoError(t, os.WriteFile(after, []byte(
		`{"ImportPath":"p [p.test]","Action":"build-output","Output":"p.go:3:2: undefined: aesgcm.New\n"}`+"\n"+
			`{"ImportPath":"p [p.test]","Action":"build-fail"}`+"\n"+
			`{"Action":"fail","Package":"p","FailedBuild":"p [p.test]"}`+"\n"), 0o644))
	var out bytes.Buffer
	ok, err := compareMain([]string{before, after}, &out)
	require.NoError(t, err)
	require.False(t, ok)
	require.Contains(t, out.String(), "REGRESSION: package p failed after the swap, not before, with no failing test:")
	require.Contains(t, out.String(), "undefined: aesgcm.New")
	require.NotContains(t, out.String(), "TestA")

	empty := writeJSON(t, dir, "empty.json", "fail p")
	out.Reset()
	ok, err = compareMain([]string{empty, empty}, &out)
	require.NoError(t, err)
	require.False(t, ok)
	require.Contains(t, out.String(), "no test passed before the swap")
}
