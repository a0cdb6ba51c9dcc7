package main

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/vgcrypto/vg/conformance/agree"
	"github.com/vgcrypto/vg/conformance/wycheproof"
)

// TestRegisteredSections runs the real table: every section under the
// full test, only the loading and counting under -short (the sections' own
// checks run in the conformance package's tests too).
func TestRegisteredSections(t *testing.T) {
	secs := sections
	if testing.Short() {
		secs = make([]section, len(sections))
		for i, s := range sections {
			secs[i] = section{name: s.name, globs: s.globs}
		}
	}
	var out bytes.Buffer
	ok := runAll(&out, secs)
	t.Log("\n" + out.String())
	assert.True(t, ok)
	for _, want := range []string{
		"detected:", "enabled:",
		"== aesgcm", "aes_gcm_test.json", "316 vectors",
		"chacha20_poly1305_test.json", "325 vectors",
		"xchacha20_poly1305_test.json", "315 vectors",
		"rsa_pkcs1_2048_test.json", "rsa_three_primes_oaep_2048_sha1_mgf1sha1_test.json",
		"== PASS: 4 sections, 90 files, 12818 vectors",
	} {
		assert.Contains(t, out.String(), want)
	}
}

func gcm(key []byte, nonceSize int) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCMWithNonceSize(b, nonceSize)
}

func gcmBackend(name string, wrap func(cipher.AEAD) cipher.AEAD) aeadUnderTest {
	return aeadUnderTest{
		impl: agree.Impl{Name: name, New: func(key []byte, n int) (cipher.AEAD, error) {
			a, err := gcm(key, n)
			if err != nil {
				return nil, err
			}
			return wrap(a), nil
		}},
		vectors: func(key []byte, n, tag int) (cipher.AEAD, error) {
			if tag != 16 {
				return nil, errors.ErrUnsupported
			}
			a, err := gcm(key, n)
			if err != nil {
				return nil, err
			}
			return wrap(a), nil
		},
	}
}

func same(a cipher.AEAD) cipher.AEAD { return a }

// lenient accepts what fails to authenticate.
type lenient struct{ cipher.AEAD }

func (l lenient) Open(dst, nonce, ct, ad []byte) ([]byte, error) {
	out, err := l.AEAD.Open(dst, nonce, ct, ad)
	if err != nil {
		return dst, nil
	}
	return out, nil
}

// off seals wrongly at one length that no vector has.
type off struct{ cipher.AEAD }

func (o off) Seal(dst, nonce, pt, ad []byte) []byte {
	out := o.AEAD.Seal(dst, nonce, pt, ad)
	if len(pt) == 33 {
		out[len(out)-1] ^= 1
	}
	return out
}

func gcmSection(backends ...aeadUnderTest) section {
	return section{
		name:  "gcm-test",
		globs: []string{wycheproof.GlobAESGCM},
		run: aeadRun(func() ([]aeadUnderTest, error) { return backends, nil },
			agree.Config{KeySizes: []int{16}, MaxLen: 64, LargeLens: []int{}}),
	}
}

func TestAEADSection(t *testing.T) {
	var out bytes.Buffer
	ok := runAll(&out, []section{gcmSection(gcmBackend("one", same), gcmBackend("two", same))})
	t.Log("\n" + out.String())
	assert.True(t, ok)
	assert.Regexp(t, `one\s+aes_gcm_test.json\s+316\s+0\s+0\s+ok`, out.String())
	assert.Regexp(t, `two\s+aes_gcm_test.json\s+316\s+0\s+0\s+ok`, out.String())
	assert.Contains(t, out.String(), "== PASS: 1 sections, 1 files, 316 vectors; 0 load errors, 2 rows, 0 failed rows")
}

func TestFailuresFailTheRun(t *testing.T) {
	cases := map[string]struct {
		sec  section
		want []string
	}{
		"vectors": {gcmSection(gcmBackend("good", same), gcmBackend("lenient", func(a cipher.AEAD) cipher.AEAD { return lenient{a} })),
			[]string{"FAIL", "lenient: ", "Open accepted an invalid test"}},
		"agreement": {gcmSection(gcmBackend("good", same), gcmBackend("off", func(a cipher.AEAD) cipher.AEAD { return off{a} })),
			[]string{"plaintext length 33", "off  "}},
		"load": {section{name: "missing", globs: []string{"nothing_*.json"}},
			[]string{"LOAD ERROR", "nothing_*.json", "1 load errors"}},
		"section": {section{name: "broken", globs: []string{wycheproof.GlobAESGCM},
			run: func([]wycheproof.VectorFile) ([]row, error) { return nil, errors.New("no backend built") }},
			[]string{"SECTION ERROR: no backend built"}},
		"wrong file kind": {section{name: "rsa-as-aead", globs: []string{wycheproof.GlobRSAPKCS1Decrypt},
			run: aeadRun(func() ([]aeadUnderTest, error) { return []aeadUnderTest{gcmBackend("x", same)}, nil }, agree.Config{KeySizes: []int{16}})},
			[]string{"is not an AEAD file"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			ok := runAll(&out, []section{c.sec})
			t.Log("\n" + out.String())
			assert.False(t, ok)
			assert.Contains(t, out.String(), "== FAIL")
			for _, w := range c.want {
				assert.Contains(t, out.String(), w)
			}
		})
	}
}
