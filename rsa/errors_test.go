package rsa_test

import (
	"crypto"
	"crypto/md5"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/rsa"
)

// otherOpts is a crypto.DecrypterOpts that Decrypt does not know.
type otherOpts struct{}

// TestErrorTexts checks the exact text of every error the package makes
// itself (crypto/rsa's sentinel errors aside): each reads as a sentence
// and carries the values that matter, such as both lengths of a digest
// that does not match its hash, and names a hash crypto.Hash has no name
// for by its number.
func TestErrorTexts(t *testing.T) {
	std := testKey(t, 2048)
	priv, err := rsa.NewPrivateKey(std)
	require.NoError(t, err)
	pub := priv.PublicKey()
	d := sha256.Sum256([]byte("message"))
	sig, err := priv.Sign(nil, d[:], crypto.SHA256)
	require.NoError(t, err)
	md5sha1 := make([]byte, md5.Size+20)
	// Hashes crypto.Hash knows that no package in this test binary
	// implements.
	for _, h := range []crypto.Hash{crypto.MD4, crypto.RIPEMD160, crypto.BLAKE2b_256} {
		require.False(t, h.Available(), "%s is linked into the test binary", h)
	}

	mutated := func(mutate func(k *stdrsa.PrivateKey)) error {
		k := cloneKey(std, true)
		mutate(k)
		_, err := rsa.NewPrivateKey(k)
		return err
	}
	pemKey := func(typ string) error {
		_, err := rsa.ParsePEMPrivateKey(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: []byte{0}}))
		return err
	}
	fermatP, qs := fermatPrimes(big.NewInt(2))
	closePrimes := handKey(fermatP, qs[0], 65537)
	small := &stdrsa.PublicKey{N: new(big.Int).Rsh(std.N, 1536), E: 65537}
	small.N.SetBit(small.N, 0, 1)

	for _, c := range []struct {
		err  error
		want string
	}{
		// Digests of the wrong length: both lengths.
		{second(priv.Sign(nil, d[:10], crypto.SHA256)),
			"rsa: digest length 10 does not match hash function SHA-256, whose digests are 32 bytes"},
		{second(priv.Sign(nil, d[:], &stdrsa.PSSOptions{Hash: crypto.SHA512})),
			"rsa: digest length 32 does not match hash function SHA-512, whose digests are 64 bytes"},
		{second(priv.Sign(nil, md5sha1[:20], crypto.MD5SHA1)),
			"rsa: digest length 20 does not match hash function MD5+SHA1, whose digests are 36 bytes"},
		{pub.VerifyPKCS1v15(crypto.SHA384, d[:], sig),
			"rsa: digest length 32 does not match hash function SHA-384, whose digests are 48 bytes"},

		// Hashes that cannot be used: unknown values by number, known ones
		// by name.
		{second(priv.Sign(nil, d[:], &stdrsa.PSSOptions{})),
			"rsa: hash function 0 (unknown) is not available"},
		{second(priv.Sign(nil, d[:], &stdrsa.PSSOptions{Hash: crypto.Hash(99)})),
			"rsa: hash function 99 (unknown) is not available"},
		{pub.VerifyPSS(crypto.BLAKE2b_256, d[:], sig, nil),
			"rsa: hash function BLAKE2b-256 is not available (no package linked into the program implements it)"},
		{second(priv.Decrypt(nil, sig, &stdrsa.OAEPOptions{Hash: crypto.RIPEMD160})),
			"rsa: hash function RIPEMD-160 is not available (no package linked into the program implements it)"},
		{second(priv.Decrypt(nil, sig, &stdrsa.OAEPOptions{Hash: crypto.SHA256, MGFHash: crypto.Hash(0xff)})),
			"rsa: hash function 255 (unknown) is not available"},
		{second(pub.EncryptOAEP(nil, 0, 0, []byte("m"), nil)),
			"rsa: hash function 0 (unknown) is not available"},
		{second(priv.Sign(nil, d[:16], crypto.MD4)),
			"rsa: PKCS #1 v1.5 signatures with hash function MD4 are not supported"},
		{second(priv.Sign(nil, d[:], crypto.Hash(99))),
			"rsa: PKCS #1 v1.5 signatures with hash function 99 (unknown) are not supported"},
		{pub.VerifyPKCS1v15(crypto.MD4, d[:16], sig), // and errors.Is(err, ErrVerification)
			"rsa: PKCS #1 v1.5 signatures with hash function MD4 are not supported"},

		// Options.
		{second(priv.Sign(nil, d[:], nil)),
			"rsa: Sign needs SignerOpts, and opts is nil (want a crypto.Hash, or a *rsa.PSSOptions for PSS)"},
		{second(priv.Decrypt(nil, sig, otherOpts{})),
			"rsa: Decrypt options of type rsa_test.otherOpts are not supported (want nil, *rsa.PKCS1v15DecryptOptions or *rsa.OAEPOptions)"},
		{second(priv.Sign(nil, d[:], &stdrsa.PSSOptions{Hash: crypto.SHA256, SaltLength: -5})),
			"rsa: invalid PSS salt length -5 (want a length in bytes, PSSSaltLengthAuto (0) or PSSSaltLengthEqualsHash (-1))"},
		{pub.VerifyPSS(crypto.SHA256, d[:], sig, &stdrsa.PSSOptions{SaltLength: rsa.PSSSaltLengthZero}),
			"rsa: invalid PSS salt length -2 (want a length in bytes, PSSSaltLengthAuto (0) or PSSSaltLengthEqualsHash (-1))"},
		{pub.VerifyPSSParams(d[:], sig, rsa.PSSParams{Hash: crypto.SHA256, SaltLength: -3}),
			"rsa: invalid PSS salt length -3 (want a length in bytes, PSSSaltLengthAuto (0), PSSSaltLengthEqualsHash (-1) or PSSSaltLengthZero (-2))"},
		{second(priv.Sign(nil, d[:], &stdrsa.PSSOptions{Hash: crypto.SHA256, SaltLength: 256})),
			"rsa: a PSS salt of 256 bytes is too long for a 2048-bit modulus with hash function SHA-256 (at most 222 bytes fit)"},

		// Keys.
		{second(rsa.NewPublicKey(nil)), "rsa: missing public key"},
		{second(rsa.NewPublicKey(small)),
			"rsa: a modulus of 512 bits is outside the supported sizes, 1024 to 8192 bits"},
		{second(rsa.NewPublicKey(&stdrsa.PublicKey{N: new(big.Int).Lsh(std.N, 1), E: 65537})),
			"rsa: modulus is even"},
		{second(rsa.NewPublicKey(&stdrsa.PublicKey{N: big.NewInt(-5), E: 65537})),
			"rsa: modulus is not positive"},
		{second(rsa.NewPublicKey(&stdrsa.PublicKey{N: new(big.Int), E: 65537})),
			"rsa: modulus is not positive"},
		{second(rsa.NewPublicKey(&stdrsa.PublicKey{N: std.N, E: 65536})),
			"rsa: public exponent 65536 is out of range (must be odd and at least 3)"},
		{second(rsa.NewPrivateKey(nil)), "rsa: missing private key"},
		{mutated(func(k *stdrsa.PrivateKey) { k.Primes = k.Primes[:1] }),
			"rsa: a private key needs exactly two primes, this one has 1"},
		{mutated(func(k *stdrsa.PrivateKey) { k.Primes = append(k.Primes, big.NewInt(7)) }),
			"rsa: keys with more than two primes are not supported (this key has 3)"},
		{mutated(func(k *stdrsa.PrivateKey) { k.Primes[1] = nil }), "rsa: private key has a nil prime"},
		{mutated(func(k *stdrsa.PrivateKey) { k.D = nil }), "rsa: private key has no private exponent (D is nil)"},
		{mutated(func(k *stdrsa.PrivateKey) { k.D.Neg(k.D) }), "rsa: private key's private exponent D is not positive"},
		{mutated(func(k *stdrsa.PrivateKey) { k.Primes[0] = big.NewInt(65537) }),
			"rsa: primes of 17 and 1024 bits are too small (minimum 256)"},
		{second(rsa.NewPublicKey(&stdrsa.PublicKey{N: std.N, E: 1<<31 + 1})),
			"rsa: public exponent 2147483649 is too large (at most 2^31-1, as in crypto/rsa)"},
		{mutated(func(k *stdrsa.PrivateKey) { k.D.Set(k.N) }),
			"rsa: invalid private key: d is not below the modulus n"},
		{mutated(func(k *stdrsa.PrivateKey) { k.D.Lsh(k.N, 1) }),
			"rsa: invalid private key: d is not below the modulus n"},
		{second(rsa.NewPrivateKey(closePrimes)),
			"rsa: invalid private key: |p - q| < 2^412 (nlen/2 - 100): p and q are so close that Fermat's method factors n"},
		{second(rsa.NewPrivateKey(handKey(fermatP, fermatP, 65537))),
			"rsa: invalid private key: p == q (n is a square)"},
		{pemKey("EC PRIVATE KEY"),
			`rsa: unsupported PEM block type "EC PRIVATE KEY" (want "RSA PRIVATE KEY" or "PRIVATE KEY")`},
		{second(rsa.ParsePEMPrivateKey([]byte("not PEM"))), "rsa: no PEM block found"},
		{pemKey("CERTIFICATE"),
			`rsa: no private key PEM block found (want "RSA PRIVATE KEY" or "PRIVATE KEY"; found ["CERTIFICATE"])`},
		{pemKey("ENCRYPTED PRIVATE KEY"),
			`rsa: the "ENCRYPTED PRIVATE KEY" PEM block is encrypted; encrypted PEM keys are not supported (decrypt the key first)`},
		{second(rsa.ParsePEMPrivateKey(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte{0},
			Headers: map[string]string{"Proc-Type": "4,ENCRYPTED", "DEK-Info": "AES-128-CBC,000102030405060708090A0B0C0D0E0F"}}))),
			`rsa: the "RSA PRIVATE KEY" PEM block is encrypted; encrypted PEM keys are not supported (decrypt the key first)`},
	} {
		require.EqualError(t, c.err, c.want)
	}

	// A body that is not DER: crypto/x509's error, wrapped and named.
	for _, c := range []struct {
		typ, want string
		parse     func([]byte) (any, error)
	}{
		{"RSA PRIVATE KEY", "rsa: parsing a PKCS #1 private key: ", func(b []byte) (any, error) { return x509.ParsePKCS1PrivateKey(b) }},
		{"PRIVATE KEY", "rsa: parsing a PKCS #8 private key: ", x509.ParsePKCS8PrivateKey},
	} {
		_, x509Err := c.parse([]byte{0})
		require.Error(t, x509Err)
		err := pemKey(c.typ)
		require.EqualError(t, err, c.want+x509Err.Error())
		assert.ErrorIs(t, err, x509Err, "crypto/x509's error stays in the chain")
	}
}

// second returns the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }
