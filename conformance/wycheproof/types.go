package wycheproof

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
)

// HexBytes is a byte string written in the vector files as lower-case hex.
type HexBytes []byte

// UnmarshalJSON decodes a JSON string of hex digits.
func (h *HexBytes) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("wycheproof: hex field: %w", err)
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return fmt.Errorf("wycheproof: hex field %q: %w", truncate(s), err)
	}
	*h = b
	return nil
}

// BigInt returns h read as an unsigned big-endian integer. The files write
// their BigInt fields (RSA key components) as big-endian two's complement with
// a leading zero byte when the top bit is set; every such value in the files vg
// uses is non-negative, so the unsigned reading is the value.
func (h HexBytes) BigInt() *big.Int { return new(big.Int).SetBytes(h) }

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// Result is a test's expected outcome.
type Result string

// The outcomes a test can expect.
const (
	// Valid: the implementation must accept the input and produce the output.
	Valid Result = "valid"
	// Invalid: the implementation must reject the input.
	Invalid Result = "invalid"
	// Acceptable: the input is legal but weak or unusual; accepting and
	// rejecting are both conformant (the flags say why).
	Acceptable Result = "acceptable"
)

// UnmarshalJSON accepts only the three known outcomes.
func (r *Result) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("wycheproof: result: %w", err)
	}
	switch Result(s) {
	case Valid, Invalid, Acceptable:
		*r = Result(s)
		return nil
	}
	return fmt.Errorf("wycheproof: unknown result %q", s)
}

// Valid reports whether r is [Valid].
func (r Result) Valid() bool { return r == Valid }

// Invalid reports whether r is [Invalid].
func (r Result) Invalid() bool { return r == Invalid }

// Acceptable reports whether r is [Acceptable].
func (r Result) Acceptable() bool { return r == Acceptable }

// Note explains one flag; the file's notes map a flag to its Note.
type Note struct {
	// BugType is the kind of bug the flagged tests look for ("AUTH_BYPASS",
	// "EDGE_CASE", "MISSING_STEP", ...).
	BugType string `json:"bugType"`
	// Description says what the flagged tests do, and Effect what an
	// implementation that fails them gets wrong.
	Description string `json:"description"`
	Effect      string `json:"effect"`
	// Links and CVEs point to the bugs and papers behind the flag.
	Links []string `json:"links"`
	CVEs  []string `json:"cves"`
}

// Source names the generator of a test group.
type Source struct {
	// Name and Version identify the generator.
	Name    string `json:"name"`
	Version string `json:"version"`
}

// File holds the fields every vector file has, whatever its schema.
type File struct {
	// Name is the file's base name; it is set by the loader, not read from
	// the JSON.
	Name string `json:"-"`
	// Algorithm is what the file tests ("AES-GCM", "RSASSA-PSS", ...),
	// Schema the name of its JSON schema, which decides its group types,
	// and GeneratorVersion the version of Wycheproof that wrote it.
	Algorithm        string `json:"algorithm"`
	Schema           string `json:"schema"`
	GeneratorVersion string `json:"generatorVersion"`
	// NumberOfTests is how many tests the file says it holds; the loader
	// checks it.
	NumberOfTests int `json:"numberOfTests"`
	// Header describes the file, one line per element.
	Header []string `json:"header"`
	// Notes explains each flag the tests carry.
	Notes map[string]Note `json:"notes"`
}

// Info returns the common fields; every loaded file has it, through
// [VectorFile].
func (f *File) Info() *File { return f }

// TestCase holds the fields every test has, whatever its schema.
type TestCase struct {
	// TcID identifies the test, uniquely within its file.
	TcID int `json:"tcId"`
	// Comment says what the test is about.
	Comment string `json:"comment"`
	// Flags name the notes (File.Notes) that apply to the test.
	Flags []string `json:"flags"`
	// Result is the outcome the test expects.
	Result Result `json:"result"`
}

// HasFlag reports whether the test carries flag.
func (tc *TestCase) HasFlag(flag string) bool { return slices.Contains(tc.Flags, flag) }

// String names the test for messages: "tcId 17 (comment) [flags]".
func (tc *TestCase) String() string {
	s := fmt.Sprintf("tcId %d", tc.TcID)
	if tc.Comment != "" {
		s += " (" + tc.Comment + ")"
	}
	if len(tc.Flags) > 0 {
		s += fmt.Sprint(" ", tc.Flags)
	}
	return s
}

// Group is the constraint satisfied by the test-group types of the modelled
// schemas. Its methods are unexported: the set of schemas is closed.
type Group interface {
	groupType() string
	testCases() []*TestCase
	// schemas maps each schema this group type models to the group types
	// ("type" field) the schema allows.
	schemas() map[string][]string
}

// Vectors is one vector file whose test groups have type G.
type Vectors[G Group] struct {
	File
	// TestGroups are the file's test groups, in file order.
	TestGroups []G `json:"testGroups"`
}

// Count returns the number of tests present in the file.
func (v *Vectors[G]) Count() int {
	n := 0
	for i := range v.TestGroups {
		n += len(v.TestGroups[i].testCases())
	}
	return n
}

// checkSchema reports whether G models schema.
func (v *Vectors[G]) checkSchema(schema string) error {
	var zero G
	if _, ok := zero.schemas()[schema]; !ok {
		return fmt.Errorf("schema %q is not modelled by %T (it models %v)", schema, zero, slices.Sorted(maps.Keys(zero.schemas())))
	}
	return nil
}

// validate checks what the JSON decoder cannot: the schema and group types
// are modelled by G, numberOfTests matches, tcIds are unique and every flag is
// explained in the notes.
func (v *Vectors[G]) validate() error {
	var zero G
	types, ok := zero.schemas()[v.Schema]
	if !ok {
		return fmt.Errorf("wycheproof: %s: schema %q is not modelled by %T", v.Name, v.Schema, zero)
	}
	seen := make(map[int]bool)
	for i := range v.TestGroups {
		g := v.TestGroups[i]
		if !slices.Contains(types, g.groupType()) {
			return fmt.Errorf("wycheproof: %s: test group %d has type %q, schema %s allows %q", v.Name, i, g.groupType(), v.Schema, types)
		}
		for _, tc := range g.testCases() {
			if seen[tc.TcID] {
				return fmt.Errorf("wycheproof: %s: duplicate tcId %d", v.Name, tc.TcID)
			}
			seen[tc.TcID] = true
			for _, f := range tc.Flags {
				if _, ok := v.Notes[f]; !ok {
					return fmt.Errorf("wycheproof: %s: tcId %d: flag %q has no note", v.Name, tc.TcID, f)
				}
			}
		}
	}
	if n := v.Count(); n != v.NumberOfTests {
		return fmt.Errorf("wycheproof: %s: numberOfTests is %d but the file holds %d tests", v.Name, v.NumberOfTests, n)
	}
	return nil
}

func cases[T any](tests []T, tc func(*T) *TestCase) []*TestCase {
	out := make([]*TestCase, len(tests))
	for i := range tests {
		out[i] = tc(&tests[i])
	}
	return out
}

// AEAD (aead_test_schema_v1.json: aes_gcm_test.json,
// chacha20_poly1305_test.json, xchacha20_poly1305_test.json).

// AEADFile is a file of AEAD tests.
type AEADFile = Vectors[AEADGroup]

// AEADGroup is a group of AEAD tests ("type": "AeadTest"). Sizes are in bits
// and describe the group's valid tests; invalid tests may carry keys, nonces
// or tags of other lengths, so use the lengths of the test's own fields.
type AEADGroup struct {
	// Type is the group type and Source its generator.
	Type   string `json:"type"`
	Source Source `json:"source"`
	// KeySize, IVSize and TagSize are the sizes, in bits, of the key, the
	// nonce and the tag.
	KeySize int `json:"keySize"`
	IVSize  int `json:"ivSize"`
	TagSize int `json:"tagSize"`
	// Tests are the group's tests.
	Tests []AEADTest `json:"tests"`
}

// AEADTest is one AEAD test: Seal(Key, IV, Msg, AAD) = CT || Tag for a valid
// test; Open must reject an invalid one.
type AEADTest struct {
	TestCase
	// Key, IV (the nonce) and AAD (the additional data) are the inputs.
	Key HexBytes `json:"key"`
	IV  HexBytes `json:"iv"`
	AAD HexBytes `json:"aad"`
	// Msg is the plaintext, CT the ciphertext without the tag, Tag the tag.
	Msg HexBytes `json:"msg"`
	CT  HexBytes `json:"ct"`
	Tag HexBytes `json:"tag"`
}

func (g AEADGroup) groupType() string { return g.Type }
func (g AEADGroup) testCases() []*TestCase {
	return cases(g.Tests, func(t *AEADTest) *TestCase { return &t.TestCase })
}
func (AEADGroup) schemas() map[string][]string {
	return map[string][]string{"aead_test_schema_v1.json": {"AeadTest"}}
}

// RSA keys.

// RSAPublicKey is a public key as BigInt hex fields.
type RSAPublicKey struct {
	// Modulus is n and PublicExponent e.
	Modulus        HexBytes `json:"modulus"`
	PublicExponent HexBytes `json:"publicExponent"`
}

// RSAPrivateKey is a private key as BigInt hex fields (schemas/rsa_common.json).
// Some keys have only Modulus, PublicExponent and PrivateExponent. A
// multi-prime key lists each further prime as [prime, exponent, coefficient]
// in OtherPrimeInfos.
type RSAPrivateKey struct {
	// Modulus is n, PublicExponent e and PrivateExponent d.
	Modulus         HexBytes `json:"modulus"`
	PublicExponent  HexBytes `json:"publicExponent"`
	PrivateExponent HexBytes `json:"privateExponent"`
	// Prime1 and Prime2 are p and q, Exponent1 and Exponent2 the CRT
	// exponents d mod (p-1) and d mod (q-1), and Coefficient q⁻¹ mod p.
	Prime1      HexBytes `json:"prime1"`
	Prime2      HexBytes `json:"prime2"`
	Exponent1   HexBytes `json:"exponent1"`
	Exponent2   HexBytes `json:"exponent2"`
	Coefficient HexBytes `json:"coefficient"`
	// OtherPrimeInfos lists a multi-prime key's further primes.
	OtherPrimeInfos [][]HexBytes `json:"otherPrimeInfos"`
}

// JWK is an RSA key in JSON Web Key form (base64url strings, RFC 7517); the
// private fields are empty for a public key.
type JWK struct {
	// Kty is the key type ("RSA"), Alg the algorithm the key is for
	// ("RS256", "PS256", ...) and Kid the key's identifier.
	Kty string `json:"kty"`
	Alg string `json:"alg"`
	Kid string `json:"kid"`
	// N, E, D, P, Q, DP, DQ and QI are the key's components, as in
	// RSAPrivateKey (QI is the coefficient q⁻¹ mod p).
	N  string `json:"n"`
	E  string `json:"e"`
	D  string `json:"d"`
	P  string `json:"p"`
	Q  string `json:"q"`
	DP string `json:"dp"`
	DQ string `json:"dq"`
	QI string `json:"qi"`
}

// SigTest is one signature test: Sig is a signature of Msg (valid) or must be
// rejected (invalid). In a signature-generation file, signing Msg with the
// group's key must give Sig.
type SigTest struct {
	TestCase
	// Msg is the message (not its digest) and Sig the signature.
	Msg HexBytes `json:"msg"`
	Sig HexBytes `json:"sig"`
}

// RSA PKCS #1 v1.5 signature verification (rsassa_pkcs1_verify_schema_v1.json:
// rsa_signature_*_test.json).

// RSASigFile is a file of PKCS #1 v1.5 signature-verification tests.
type RSASigFile = Vectors[RSASigGroup]

// RSASigGroup is a group of PKCS #1 v1.5 verification tests under one public
// key ("type": "RsassaPkcs1Verify"). PublicKeyAsn is the PKCS #1
// RSAPublicKey DER, PublicKeyDer the SubjectPublicKeyInfo DER.
type RSASigGroup struct {
	// Type is the group type and Source its generator.
	Type   string `json:"type"`
	Source Source `json:"source"`
	// KeySize is the modulus size in bits and SHA the hash's name
	// ("SHA-256").
	KeySize int    `json:"keySize"`
	SHA     string `json:"sha"`
	// PublicKey is the key; PublicKeyAsn, PublicKeyDer, PublicKeyPem and
	// KeyJwk are the same key encoded (see the type's documentation).
	PublicKey    RSAPublicKey `json:"publicKey"`
	PublicKeyAsn HexBytes     `json:"publicKeyAsn"`
	PublicKeyDer HexBytes     `json:"publicKeyDer"`
	PublicKeyPem string       `json:"publicKeyPem"`
	KeyJwk       *JWK         `json:"keyJwk"`
	// Tests are the group's tests.
	Tests []SigTest `json:"tests"`
}

func (g RSASigGroup) groupType() string { return g.Type }
func (g RSASigGroup) testCases() []*TestCase {
	return cases(g.Tests, func(t *SigTest) *TestCase { return &t.TestCase })
}
func (RSASigGroup) schemas() map[string][]string {
	return map[string][]string{"rsassa_pkcs1_verify_schema_v1.json": {"RsassaPkcs1Verify"}}
}

// RSA PKCS #1 v1.5 signature generation (rsassa_pkcs1_generate_schema_v1.json:
// rsa_pkcs1_*_sig_gen_test.json).

// RSASigGenFile is a file of PKCS #1 v1.5 signature-generation tests.
type RSASigGenFile = Vectors[RSASigGenGroup]

// RSASigGenGroup is a group of PKCS #1 v1.5 signing tests under one private
// key ("type": "RsassaPkcs1Generate"). KeyAsn, KeyDer, KeyPem and KeyJwk are
// the public key; PrivateKeyPkcs8 is PKCS #8 DER (PrivateKeyPem may be PKCS #1
// or PKCS #8 PEM).
type RSASigGenGroup struct {
	// Type is the group type and Source its generator.
	Type   string `json:"type"`
	Source Source `json:"source"`
	// KeySize is the modulus size in bits and SHA the hash's name
	// ("SHA-256").
	KeySize int    `json:"keySize"`
	SHA     string `json:"sha"`
	// PrivateKey is the signing key; PrivateKeyPem, PrivateKeyPkcs8 and
	// PrivateKeyJwk are the same key encoded.
	PrivateKey      RSAPrivateKey `json:"privateKey"`
	PrivateKeyPem   string        `json:"privateKeyPem"`
	PrivateKeyPkcs8 HexBytes      `json:"privateKeyPkcs8"`
	PrivateKeyJwk   *JWK          `json:"privateKeyJwk"`
	// KeyAsn, KeyDer, KeyPem and KeyJwk are its public key, encoded as
	// in RSASigGroup.
	KeyAsn HexBytes `json:"keyAsn"`
	KeyDer HexBytes `json:"keyDer"`
	KeyPem string   `json:"keyPem"`
	KeyJwk *JWK     `json:"keyJwk"`
	// Tests are the group's tests.
	Tests []SigTest `json:"tests"`
}

func (g RSASigGenGroup) groupType() string { return g.Type }
func (g RSASigGenGroup) testCases() []*TestCase {
	return cases(g.Tests, func(t *SigTest) *TestCase { return &t.TestCase })
}
func (RSASigGenGroup) schemas() map[string][]string {
	return map[string][]string{"rsassa_pkcs1_generate_schema_v1.json": {"RsassaPkcs1Generate"}}
}

// RSA-PSS verification (rsassa_pss_verify_schema_v1.json and
// rsassa_pss_with_parameters_verify_schema.json: rsa_pss_*_test.json).

// RSAPSSFile is a file of RSA-PSS verification tests.
type RSAPSSFile = Vectors[RSAPSSGroup]

// RSAPSSGroup is a group of RSA-PSS verification tests under one public key
// and one parameter set ("type": "RsassaPssVerify", or
// "RsassaPssWithParametersVerify" when PublicKeyDer carries the PSS
// parameters, RFC 8017 Appendix A). SHA and MGFSHA name hashes ("SHA-256",
// "SHAKE128", ...); MGF is "MGF1" or the SHAKE name; SLen is the salt length
// in bytes.
type RSAPSSGroup struct {
	// Type is the group type and Source its generator.
	Type   string `json:"type"`
	Source Source `json:"source"`
	// KeySize is the modulus size in bits; SHA, MGF, MGFSHA and SLen are
	// the PSS parameters (see the type's documentation).
	KeySize int    `json:"keySize"`
	SHA     string `json:"sha"`
	MGF     string `json:"mgf"`
	MGFSHA  string `json:"mgfSha"`
	SLen    int    `json:"sLen"`
	// PublicKey is the key; PublicKeyAsn, PublicKeyDer, PublicKeyPem and
	// PublicKeyJwk are the same key encoded, as in RSASigGroup.
	PublicKey    RSAPublicKey `json:"publicKey"`
	PublicKeyAsn HexBytes     `json:"publicKeyAsn"`
	PublicKeyDer HexBytes     `json:"publicKeyDer"`
	PublicKeyPem string       `json:"publicKeyPem"`
	PublicKeyJwk *JWK         `json:"publicKeyJwk"`
	// Tests are the group's tests.
	Tests []SigTest `json:"tests"`
}

func (g RSAPSSGroup) groupType() string { return g.Type }
func (g RSAPSSGroup) testCases() []*TestCase {
	return cases(g.Tests, func(t *SigTest) *TestCase { return &t.TestCase })
}
func (RSAPSSGroup) schemas() map[string][]string {
	return map[string][]string{
		"rsassa_pss_verify_schema_v1.json":              {"RsassaPssVerify"},
		"rsassa_pss_with_parameters_verify_schema.json": {"RsassaPssWithParametersVerify"},
	}
}

// RSA decryption, PKCS #1 v1.5 (rsaes_pkcs1_decrypt_schema_v1.json:
// rsa_pkcs1_{2048,3072,4096}_test.json) and OAEP
// (rsaes_oaep_decrypt_schema_v1.json: rsa_oaep_*_test.json,
// rsa_three_primes_oaep_*_test.json).

// RSADecryptFile is a file of RSA decryption tests, PKCS #1 v1.5 or OAEP.
type RSADecryptFile = Vectors[RSADecryptGroup]

// RSADecryptGroup is a group of decryption tests under one private key
// ("type": "RsaesPkcs1Decrypt" or "RsaesOaepDecrypt"). SHA, MGF and MGFSHA
// are set for OAEP only.
type RSADecryptGroup struct {
	// Type is the group type and Source its generator.
	Type   string `json:"type"`
	Source Source `json:"source"`
	// KeySize is the modulus size in bits; SHA (the label hash), MGF and
	// MGFSHA are OAEP's parameters.
	KeySize int    `json:"keySize"`
	SHA     string `json:"sha"`
	MGF     string `json:"mgf"`
	MGFSHA  string `json:"mgfSha"`
	// PrivateKey is the decryption key; PrivateKeyPem, PrivateKeyPkcs8
	// and PrivateKeyJwk are the same key encoded.
	PrivateKey      RSAPrivateKey `json:"privateKey"`
	PrivateKeyPem   string        `json:"privateKeyPem"`
	PrivateKeyPkcs8 HexBytes      `json:"privateKeyPkcs8"`
	PrivateKeyJwk   *JWK          `json:"privateKeyJwk"`
	// Tests are the group's tests.
	Tests []DecryptTest `json:"tests"`
}

// OAEP reports whether the group tests OAEP (else PKCS #1 v1.5).
func (g *RSADecryptGroup) OAEP() bool { return g.Type == "RsaesOaepDecrypt" }

// DecryptTest is one decryption test: decrypting CT (with Label, for OAEP)
// gives Msg (valid) or must fail (invalid).
type DecryptTest struct {
	TestCase
	// Msg is the plaintext, CT the ciphertext and Label OAEP's label.
	Msg   HexBytes `json:"msg"`
	CT    HexBytes `json:"ct"`
	Label HexBytes `json:"label"`
}

func (g RSADecryptGroup) groupType() string { return g.Type }
func (g RSADecryptGroup) testCases() []*TestCase {
	return cases(g.Tests, func(t *DecryptTest) *TestCase { return &t.TestCase })
}
func (RSADecryptGroup) schemas() map[string][]string {
	return map[string][]string{
		"rsaes_pkcs1_decrypt_schema_v1.json": {"RsaesPkcs1Decrypt"},
		"rsaes_oaep_decrypt_schema_v1.json":  {"RsaesOaepDecrypt"},
	}
}
