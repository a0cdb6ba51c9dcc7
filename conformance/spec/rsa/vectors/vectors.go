// Package vectors runs the pinned Wycheproof RSA files against one backend of
// vg's rsa module and counts the outcome per file. The conformance tests
// (conformance/rsa_test.go) and the conformance runner share it, so both
// report the same numbers.
//
// What is run, per schema:
//   - rsa_signature_*: RSASSA-PKCS1-v1_5 verification under the group's
//     public key;
//   - rsa_pkcs1_*_sig_gen: the group's PKCS #8 key is parsed with
//     rsa.ParsePKCS8PrivateKey and must sign each message to the expected
//     signature (PKCS #1 v1.5 is deterministic);
//   - rsa_pss_*: RSASSA-PSS verification with the group's hash, MGF1 hash and
//     salt length. In the *_params files (schema
//     rsassa_pss_with_parameters_verify_schema.json) the key is an
//     id-RSASSA-PSS SubjectPublicKeyInfo: its RSASSA-PSS-params are parsed
//     (encoding/asn1) and drive the verification, after a check that they
//     agree with the group's fields. Groups whose hash is SHAKE128/SHAKE256
//     (RFC 8702) are skipped, counted, with that reason: crypto.Hash has no
//     SHAKE value, so the module's API cannot express them;
//   - rsa_pkcs1_NNNN and rsa_oaep_*: decryption with the group's PKCS #8 key,
//     PKCS #1 v1.5 or OAEP (hash, MGF1 hash, label);
//   - rsa_three_primes_oaep_*: the key must be rejected by the rejection path
//     for keys with more than two primes; every test counts as passed when it
//     is, failed otherwise.
//
// A test passes when a valid one succeeds with the expected output, an
// invalid one is rejected, and an acceptable one either way (with the
// expected output if it succeeds).
package vectors

import (
	"bytes"
	"crypto"
	stdrsa "crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/vgcrypto/vg/conformance/wycheproof"
	"github.com/vgcrypto/vg/rsa"
)

// Result is the outcome of one file on one backend.
type Result struct {
	// File is the vector file's name and Backend the backend that ran it.
	File    string
	Backend string
	// Pass, Fail and Skip count the tests with each outcome.
	Pass int
	Fail int
	Skip int
	// SkipReasons counts skipped tests per reason.
	SkipReasons map[string]int
	// Failures describes the first failing tests.
	Failures []string

	// stride, when set, keeps one test case in stride(keySize) of the
	// file's test cases of each key size (see [RunFileSampled]); seen
	// counts them.
	stride func(bits int) int
	seen   map[int]int
}

// sample decides which of the n tests of a group with keys of the given size
// run, counting the others as skipped. The count runs over the whole file, so
// files of many small groups (one key each) are sampled as evenly as files of
// a few large ones. It returns keep == nil when every test runs, and run ==
// false when none does: then the group's key is not even parsed (importing a
// private key runs a private-key operation).
func (r *Result) sample(bits, n int) (keep []bool, run bool) {
	if r.stride == nil {
		return nil, true
	}
	stride := r.stride(bits)
	if stride <= 1 {
		return nil, true
	}
	if r.seen == nil {
		r.seen = map[int]int{}
	}
	keep = make([]bool, n)
	for i := range keep {
		keep[i] = r.seen[bits]%stride == 0
		r.seen[bits]++
		if keep[i] {
			run = true
		} else {
			r.skip(fmt.Sprintf("sampled out (1 in %d of the %d-bit tests)", stride, bits), 1)
		}
	}
	return keep, run
}

func (r *Result) pass() { r.Pass++ }

func (r *Result) fail(tc *wycheproof.TestCase, format string, args ...any) {
	r.Fail++
	if len(r.Failures) < 10 {
		r.Failures = append(r.Failures, tc.String()+": "+fmt.Sprintf(format, args...))
	}
}

func (r *Result) skip(reason string, n int) {
	r.Skip += n
	if r.SkipReasons == nil {
		r.SkipReasons = make(map[string]int)
	}
	r.SkipReasons[reason] += n
}

// Files returns every Wycheproof RSA file vg runs, sorted.
func Files() ([]string, error) {
	seen := map[string]bool{}
	var all []string
	for _, g := range wycheproof.RSAGlobs() {
		names, err := wycheproof.Files(g)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				all = append(all, n)
			}
		}
	}
	sort.Strings(all)
	return all, nil
}

// Hash maps a Wycheproof hash name to a crypto.Hash; ok is false for names
// crypto.Hash cannot express (SHAKE).
func Hash(name string) (crypto.Hash, bool) {
	h, ok := map[string]crypto.Hash{
		"SHA-1":       crypto.SHA1,
		"SHA-224":     crypto.SHA224,
		"SHA-256":     crypto.SHA256,
		"SHA-384":     crypto.SHA384,
		"SHA-512":     crypto.SHA512,
		"SHA-512/224": crypto.SHA512_224,
		"SHA-512/256": crypto.SHA512_256,
		"SHA3-224":    crypto.SHA3_224,
		"SHA3-256":    crypto.SHA3_256,
		"SHA3-384":    crypto.SHA3_384,
		"SHA3-512":    crypto.SHA3_512,
	}[name]
	return h, ok
}

func digest(h crypto.Hash, msg []byte) []byte {
	d := h.New()
	d.Write(msg)
	return d.Sum(nil)
}

func publicKey(k wycheproof.RSAPublicKey) *stdrsa.PublicKey {
	return &stdrsa.PublicKey{N: k.Modulus.BigInt(), E: int(k.PublicExponent.BigInt().Int64())}
}

// RunFile runs the loaded file v on the named backend. An error means the
// file could not be run at all (unknown hash name); test failures are
// counted in the result.
func RunFile(v wycheproof.VectorFile, backend string) (*Result, error) {
	return RunFileSampled(v, backend, nil)
}

// RunFileSampled is RunFile running, of the file's test cases with keys of
// each size, only the first and then every stride(keySize)-th (all of them
// when stride is nil or returns 1); the others count as skipped, with the
// reason. It is for
// backends that run on the x86sim model, where a 4096-bit private-key
// operation takes about a second.
func RunFileSampled(v wycheproof.VectorFile, backend string, stride func(bits int) int) (*Result, error) {
	file := v.Info().Name
	var err error
	r := &Result{File: file, Backend: backend, stride: stride}
	opt := rsa.WithBackend(backend)
	switch f := v.(type) {
	case *wycheproof.RSASigFile:
		err = runSig(r, f, opt)
	case *wycheproof.RSASigGenFile:
		err = runSigGen(r, f, opt)
	case *wycheproof.RSAPSSFile:
		err = runPSS(r, f, opt)
	case *wycheproof.RSADecryptFile:
		if strings.HasPrefix(file, "rsa_three_primes_") {
			err = runThreePrimes(r, f, opt)
		} else {
			err = runDecrypt(r, f, opt)
		}
	default:
		return nil, fmt.Errorf("%s: not an RSA file (%T)", file, v)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if r.Pass+r.Fail+r.Skip != v.Count() {
		return nil, fmt.Errorf("%s: counted %d tests, the file has %d", file, r.Pass+r.Fail+r.Skip, v.Count())
	}
	return r, nil
}

// judge records the outcome of one test from whether the operation succeeded
// (ok) and, for a success, whether its output matched (match).
func judge(r *Result, tc *wycheproof.TestCase, opErr error, match bool) {
	switch {
	case tc.Result.Valid() && opErr != nil:
		r.fail(tc, "valid test rejected: %v", opErr)
	case tc.Result.Valid() && !match:
		r.fail(tc, "valid test: wrong output")
	case tc.Result.Invalid() && opErr == nil:
		r.fail(tc, "invalid test accepted")
	case tc.Result.Acceptable() && opErr == nil && !match:
		r.fail(tc, "acceptable test: accepted with a wrong output")
	default:
		r.pass()
	}
}

func runSig(r *Result, f *wycheproof.RSASigFile, opt rsa.Option) error {
	for _, g := range f.TestGroups {
		h, ok := Hash(g.SHA)
		if !ok {
			return fmt.Errorf("unknown hash %q", g.SHA)
		}
		keep, run := r.sample(g.KeySize, len(g.Tests))
		if !run {
			continue
		}
		pub, keyErr := rsa.NewPublicKey(publicKey(g.PublicKey), opt)
		for i := range g.Tests {
			tc := &g.Tests[i]
			if keep != nil && !keep[i] {
				continue
			}
			if keyErr != nil {
				judge(r, &tc.TestCase, keyErr, false)
				continue
			}
			err := pub.VerifyPKCS1v15(h, digest(h, tc.Msg), tc.Sig)
			judge(r, &tc.TestCase, err, true)
		}
	}
	return nil
}

func runSigGen(r *Result, f *wycheproof.RSASigGenFile, opt rsa.Option) error {
	for _, g := range f.TestGroups {
		h, ok := Hash(g.SHA)
		if !ok {
			return fmt.Errorf("unknown hash %q", g.SHA)
		}
		keep, run := r.sample(g.KeySize, len(g.Tests))
		if !run {
			continue
		}
		priv, keyErr := rsa.ParsePKCS8PrivateKey(g.PrivateKeyPkcs8, opt)
		for i := range g.Tests {
			tc := &g.Tests[i]
			if keep != nil && !keep[i] {
				continue
			}
			if keyErr != nil {
				judge(r, &tc.TestCase, keyErr, false)
				continue
			}
			sig, err := priv.Sign(nil, digest(h, tc.Msg), h)
			judge(r, &tc.TestCase, err, bytes.Equal(sig, tc.Sig))
		}
	}
	return nil
}

// OIDs of RFC 8017 Appendix A.
var (
	oidRSAEncryption = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
	oidRSASSAPSS     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 10}
	oidMGF1          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 8}
	oidSHA1          = asn1.ObjectIdentifier{1, 3, 14, 3, 2, 26}
)

// pssParams is RSASSA-PSS-params (RFC 8017 A.2.3); absent fields take the
// defaults sha1, mgf1SHA1, 20 and trailerFieldBC (1).
type pssParams struct {
	Hash         pkix.AlgorithmIdentifier `asn1:"optional,explicit,tag:0"`
	MGF          pkix.AlgorithmIdentifier `asn1:"optional,explicit,tag:1"`
	SaltLength   int                      `asn1:"optional,explicit,tag:2,default:20"`
	TrailerField int                      `asn1:"optional,explicit,tag:3,default:1"`
}

// nistHashArc is the OID arc of the NIST hashes; the last arc names one.
var nistHashArc = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2}

var nistHashes = map[int]crypto.Hash{
	1: crypto.SHA256, 2: crypto.SHA384, 3: crypto.SHA512, 4: crypto.SHA224,
	5: crypto.SHA512_224, 6: crypto.SHA512_256, 7: crypto.SHA3_224,
	8: crypto.SHA3_256, 9: crypto.SHA3_384, 10: crypto.SHA3_512,
}

// hashByOID maps a hash AlgorithmIdentifier's OID (empty: the sha1 default).
func hashByOID(oid asn1.ObjectIdentifier) (crypto.Hash, error) {
	if len(oid) == 0 || oid.Equal(oidSHA1) {
		return crypto.SHA1, nil
	}
	if len(oid) == len(nistHashArc)+1 && oid[:len(nistHashArc)].Equal(nistHashArc) {
		if h, ok := nistHashes[oid[len(nistHashArc)]]; ok {
			return h, nil
		}
	}
	return 0, fmt.Errorf("unknown hash OID %v", oid)
}

// ParsePSSPublicKey parses a SubjectPublicKeyInfo with algorithm
// id-RSASSA-PSS (and its parameters) or rsaEncryption (no parameters:
// hasParams is false).
func ParsePSSPublicKey(der []byte) (pub *stdrsa.PublicKey, p rsa.PSSParams, hasParams bool, err error) {
	var spki struct {
		Algorithm pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}
	if rest, err := asn1.Unmarshal(der, &spki); err != nil || len(rest) != 0 {
		return nil, p, false, errors.New("malformed SubjectPublicKeyInfo")
	}
	pub, err = x509.ParsePKCS1PublicKey(spki.PublicKey.RightAlign())
	if err != nil {
		return nil, p, false, err
	}
	switch {
	case spki.Algorithm.Algorithm.Equal(oidRSAEncryption):
		return pub, p, false, nil
	case !spki.Algorithm.Algorithm.Equal(oidRSASSAPSS):
		return nil, p, false, fmt.Errorf("unexpected key algorithm %v", spki.Algorithm.Algorithm)
	}
	params := pssParams{SaltLength: 20, TrailerField: 1}
	if len(spki.Algorithm.Parameters.FullBytes) > 0 {
		if rest, err := asn1.Unmarshal(spki.Algorithm.Parameters.FullBytes, &params); err != nil || len(rest) != 0 {
			return nil, p, false, fmt.Errorf("malformed RSASSA-PSS-params: %v", err)
		}
	}
	if params.TrailerField != 1 {
		return nil, p, false, fmt.Errorf("trailer field %d is not trailerFieldBC", params.TrailerField)
	}
	if p.Hash, err = hashByOID(params.Hash.Algorithm); err != nil {
		return nil, p, false, err
	}
	p.MGFHash = crypto.SHA1
	if len(params.MGF.Algorithm) > 0 {
		if !params.MGF.Algorithm.Equal(oidMGF1) {
			return nil, p, false, fmt.Errorf("mask generation function %v is not MGF1", params.MGF.Algorithm)
		}
		var mgfHash pkix.AlgorithmIdentifier
		if _, err := asn1.Unmarshal(params.MGF.Parameters.FullBytes, &mgfHash); err != nil {
			return nil, p, false, fmt.Errorf("malformed MGF1 parameters: %v", err)
		}
		if p.MGFHash, err = hashByOID(mgfHash.Algorithm); err != nil {
			return nil, p, false, err
		}
	}
	p.SaltLength = params.SaltLength
	if p.SaltLength == 0 {
		p.SaltLength = rsa.PSSSaltLengthZero
	}
	return pub, p, true, nil
}

const reasonSHAKE = "SHAKE128/SHAKE256 (RFC 8702) is not a crypto.Hash: the API cannot express it"

func runPSS(r *Result, f *wycheproof.RSAPSSFile, opt rsa.Option) error {
	for _, g := range f.TestGroups {
		h, ok1 := Hash(g.SHA)
		mgf, ok2 := Hash(g.MGFSHA)
		if strings.HasPrefix(g.SHA, "SHAKE") {
			r.skip(reasonSHAKE, len(g.Tests))
			continue
		}
		if !ok1 || !ok2 || g.MGF != "MGF1" {
			return fmt.Errorf("unknown PSS parameters %q/%q/%q", g.SHA, g.MGF, g.MGFSHA)
		}
		p := rsa.PSSParams{Hash: h, MGFHash: mgf, SaltLength: g.SLen}
		if g.SLen == 0 {
			p.SaltLength = rsa.PSSSaltLengthZero
		}
		keep, run := r.sample(g.KeySize, len(g.Tests))
		if !run {
			continue
		}
		stdPub := publicKey(g.PublicKey)
		var keyErr error
		if g.Type == "RsassaPssWithParametersVerify" {
			// The key's own parameters drive the verification.
			kp, kparams, has, err := ParsePSSPublicKey(g.PublicKeyDer)
			switch {
			case err != nil:
				keyErr = err
			case kp.N.Cmp(stdPub.N) != 0 || kp.E != stdPub.E:
				return errors.New("publicKeyDer and publicKey disagree")
			case has && kparams != p:
				return fmt.Errorf("the key's RSASSA-PSS-params %+v disagree with the group's %+v", kparams, p)
			case has:
				p = kparams
			}
		}
		var pub *rsa.PublicKey
		if keyErr == nil {
			pub, keyErr = rsa.NewPublicKey(stdPub, opt)
		}
		for i := range g.Tests {
			tc := &g.Tests[i]
			if keep != nil && !keep[i] {
				continue
			}
			if keyErr != nil {
				judge(r, &tc.TestCase, keyErr, false)
				continue
			}
			err := pub.VerifyPSSParams(digest(h, tc.Msg), tc.Sig, p)
			judge(r, &tc.TestCase, err, true)
		}
	}
	return nil
}

func runDecrypt(r *Result, f *wycheproof.RSADecryptFile, opt rsa.Option) error {
	for _, g := range f.TestGroups {
		var h, mgf crypto.Hash
		if g.OAEP() {
			var ok1, ok2 bool
			h, ok1 = Hash(g.SHA)
			mgf, ok2 = Hash(g.MGFSHA)
			if !ok1 || !ok2 || g.MGF != "MGF1" {
				return fmt.Errorf("unknown OAEP parameters %q/%q/%q", g.SHA, g.MGF, g.MGFSHA)
			}
		}
		keep, run := r.sample(g.KeySize, len(g.Tests))
		if !run {
			continue
		}
		priv, keyErr := rsa.ParsePKCS8PrivateKey(g.PrivateKeyPkcs8, opt)
		for i := range g.Tests {
			tc := &g.Tests[i]
			if keep != nil && !keep[i] {
				continue
			}
			if keyErr != nil {
				judge(r, &tc.TestCase, keyErr, false)
				continue
			}
			var pt []byte
			var err error
			if g.OAEP() {
				pt, err = priv.Decrypt(nil, tc.CT, &stdrsa.OAEPOptions{Hash: h, MGFHash: mgf, Label: tc.Label})
			} else {
				pt, err = priv.Decrypt(nil, tc.CT, &stdrsa.PKCS1v15DecryptOptions{})
			}
			judge(r, &tc.TestCase, err, bytes.Equal(pt, tc.Msg))
		}
	}
	return nil
}

func runThreePrimes(r *Result, f *wycheproof.RSADecryptFile, opt rsa.Option) error {
	for _, g := range f.TestGroups {
		_, err := rsa.ParsePKCS8PrivateKey(g.PrivateKeyPkcs8, opt)
		rejected := err != nil && strings.Contains(err.Error(), "more than two primes")
		for i := range g.Tests {
			tc := &g.Tests[i]
			if rejected {
				r.pass()
			} else {
				r.fail(&tc.TestCase, "three-prime key not rejected (err %v)", err)
			}
		}
	}
	return nil
}
