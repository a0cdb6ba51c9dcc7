package rsa_test

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"crypto"
	"crypto/md5"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/rsa"
)

// The paddings behave as crypto/rsa's: every case below runs through vg and
// through crypto/rsa at test time, and the outcomes must match: success or
// failure, and errors.Is against each of crypto/rsa's sentinel errors. Where
// crypto/rsa panics (a hash no package implements, SignPSS with hash 0),
// vg returns an error instead (DESIGN.md: bad input never panics except
// where the standard library's contract does); stdOutcome reports those.

// paddingOpts selects the backend of the padding tests: the padding code is
// the same Go for every backend (whose agreement the other tests check), so
// on the model (build tag vgsim), where every kernel call is simulated,
// they run on the generic backend.
func paddingOpts() []rsa.Option {
	if cpufeat.Simulated() {
		return []rsa.Option{rsa.WithBackend(cpufeat.GenericBackend)}
	}
	return nil
}

// stdSentinels are crypto/rsa's sentinel errors, which vg's errors wrap
// or are.
var stdSentinels = []error{stdrsa.ErrVerification, stdrsa.ErrMessageTooLong, stdrsa.ErrDecryption}

// stdOutcome runs f, a call into crypto/rsa, and returns its error, or
// panicked when it panicked.
func stdOutcome[T any](f func() (T, error)) (v T, err error, panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	v, err = f()
	return v, err, false
}

// requireSameOutcome checks vg's error against crypto/rsa's for one case.
func requireSameOutcome(t *testing.T, name string, vgErr, stdErr error, stdPanicked bool) {
	t.Helper()
	if stdPanicked {
		require.Error(t, vgErr, "%s: crypto/rsa panics; vg must return an error", name)
		return
	}
	require.Equal(t, stdErr == nil, vgErr == nil, "%s: crypto/rsa: %v; vg: %v", name, stdErr, vgErr)
	for _, s := range stdSentinels {
		require.Equal(t, errors.Is(stdErr, s), errors.Is(vgErr, s), "%s: errors.Is(err, %q): crypto/rsa: %v; vg: %v", name, s, stdErr, vgErr)
	}
}

// pssVectorKey is a key of pss-vect.txt and its signatures.
type pssVectorKey struct {
	key  *stdrsa.PrivateKey
	sigs []pssVectorSig
}

type pssVectorSig struct{ msg, salt, sig []byte }

// loadPSSVectors reads testdata/pss-vect.txt.bz2: RSA Laboratories'
// RSASSA-PSS test vectors of PKCS #1 v2.1 (pkcs-1v2-1-vec.zip), ten keys
// of 1024 to 2048 bits (eight of them 1025 to 1031 bits) with six SHA-1
// signatures each, salts of 20 bytes. The file is Go's, copied from
// $GOROOT/src/crypto/rsa/testdata/pss-vect.txt.bz2 (Go 1.26), and so is the
// way it is read (TestPSSGolden in crypto/rsa/pss_test.go): values are runs
// of hex lines ended by a blank line, "# ====" lines start a key (n, e, d,
// p, q, dP, dQ, qInv) and "# ----" lines a signature (message, salt,
// signature).
func loadPSSVectors(t *testing.T) []pssVectorKey {
	t.Helper()
	f, err := os.Open("testdata/pss-vect.txt.bz2")
	require.NoError(t, err)
	defer f.Close()
	const newKey, newSig = "KEY", "SIG"
	var values []string
	sc := bufio.NewScanner(bzip2.NewReader(f))
	partial, lastWasValue := "", true
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if partial != "" {
				values = append(values, strings.ReplaceAll(partial, " ", ""))
				partial, lastWasValue = "", true
			}
		case strings.HasPrefix(line, "# ======") && lastWasValue:
			values = append(values, newKey)
			lastWasValue = false
		case strings.HasPrefix(line, "# ------") && lastWasValue:
			values = append(values, newSig)
			lastWasValue = false
		case strings.HasPrefix(line, "#"):
		default:
			partial += line
		}
	}
	require.NoError(t, sc.Err())

	num := func(s string) *big.Int {
		n, ok := new(big.Int).SetString(s, 16)
		require.True(t, ok, s)
		return n
	}
	raw := func(s string) []byte {
		b, err := hex.DecodeString(s)
		require.NoError(t, err)
		return b
	}
	var keys []pssVectorKey
	for i := 0; i < len(values); {
		switch values[i] {
		case newKey:
			if i+8 >= len(values) || values[i+1] == newKey { // the header's marker
				i++
				continue
			}
			v := values[i+1 : i+9]
			k := &stdrsa.PrivateKey{
				PublicKey: stdrsa.PublicKey{N: num(v[0]), E: int(num(v[1]).Int64())},
				D:         num(v[2]),
				Primes:    []*big.Int{num(v[3]), num(v[4])},
				Precomputed: stdrsa.PrecomputedValues{
					Dp: num(v[5]), Dq: num(v[6]), Qinv: num(v[7]),
				},
			}
			keys = append(keys, pssVectorKey{key: k})
			i += 9
		case newSig:
			v := values[i+1 : i+4]
			last := &keys[len(keys)-1]
			last.sigs = append(last.sigs, pssVectorSig{raw(v[0]), raw(v[1]), raw(v[2])})
			i += 4
		default:
			t.Fatalf("pss-vect: unexpected value %q", values[i])
		}
	}
	require.Len(t, keys, 10)
	return keys
}

// TestPSSVectors checks every signature of pss-vect.txt: vg verifies it
// (salt length given, equal to the hash's, and detected), signs the same
// signature from the same salt, and crypto/rsa agrees on every key and
// signature at test time.
func TestPSSVectors(t *testing.T) {
	for i, v := range loadPSSVectors(t) {
		t.Run(fmt.Sprintf("key%d/%d", i+1, v.key.N.BitLen()), func(t *testing.T) {
			require.NoError(t, v.key.Validate())
			priv, err := rsa.NewPrivateKey(v.key, paddingOpts()...)
			require.NoError(t, err)
			pub := priv.PublicKey()
			for j, s := range v.sigs {
				d := sha1.Sum(s.msg)
				for _, salt := range []int{stdrsa.PSSSaltLengthEqualsHash, stdrsa.PSSSaltLengthAuto, len(s.salt)} {
					opts := &stdrsa.PSSOptions{SaltLength: salt}
					require.NoError(t, stdrsa.VerifyPSS(&v.key.PublicKey, crypto.SHA1, d[:], s.sig, opts), "crypto/rsa, signature %d", j+1)
					require.NoError(t, pub.VerifyPSS(crypto.SHA1, d[:], s.sig, opts), "signature %d, salt length %d", j+1, salt)
					require.NoError(t, rsa.VerifyPSS(&v.key.PublicKey, crypto.SHA1, d[:], s.sig, opts))
				}
				got, err := priv.Sign(bytes.NewReader(s.salt), d[:], &stdrsa.PSSOptions{SaltLength: len(s.salt), Hash: crypto.SHA1})
				require.NoError(t, err)
				require.Equal(t, s.sig, got, "signature %d", j+1)
				want, err := stdrsa.SignPSS(bytes.NewReader(s.salt), v.key, crypto.SHA1, d[:], &stdrsa.PSSOptions{SaltLength: len(s.salt)})
				require.NoError(t, err)
				require.Equal(t, want, got, "crypto/rsa signs it differently")
				bad := bytes.Clone(s.sig)
				bad[len(bad)-1] ^= 1
				requireSameOutcome(t, "flipped bit", pub.VerifyPSS(crypto.SHA1, d[:], bad, nil), stdrsa.VerifyPSS(&v.key.PublicKey, crypto.SHA1, d[:], bad, nil), false)
			}
		})
	}
}

// TestPSSOptionsMatchStdlib runs PSS signing and verification with every
// kind of options through vg and crypto/rsa: the salt lengths of the
// conventions (-1, 0) and others (-2, -3: invalid for crypto/rsa; 1, the
// hash's length, the longest that fits, one more, the modulus length),
// opts.Hash (which SignPSS honours and VerifyPSS ignores), digests and
// signatures of the wrong length or value. Keys of 1024, 1025 (EM one byte
// shorter than the modulus) and 2048 bits.
func TestPSSOptionsMatchStdlib(t *testing.T) {
	vectors := loadPSSVectors(t)
	for _, std := range []*stdrsa.PrivateKey{testKey(t, 1024), vectors[1].key, testKey(t, 2048)} {
		priv, err := rsa.NewPrivateKey(std, paddingOpts()...)
		require.NoError(t, err)
		pub := priv.PublicKey()
		k := std.Size()
		emLen := (std.N.BitLen() - 1 + 7) / 8
		for _, h := range []crypto.Hash{crypto.SHA1, crypto.SHA256, crypto.SHA512} {
			t.Run(fmt.Sprintf("%d/%s", std.N.BitLen(), h), func(t *testing.T) {
				hLen := h.Size()
				maxSalt := emLen - 2 - hLen
				hh := h.New()
				hh.Write([]byte("message"))
				d := hh.Sum(nil)
				other := bytes.Clone(d)
				other[0] ^= 1
				salts := []int{-3, -2, -1, 0, 1, hLen, maxSalt, maxSalt + 1, k}

				// Signing: each options value, right and wrong digest
				// lengths, the hash in opts or as SignPSS's argument.
				for _, salt := range salts {
					for _, digest := range [][]byte{d, d[:hLen-1]} {
						name := fmt.Sprintf("sign salt %d digest %d", salt, len(digest))
						opts := &stdrsa.PSSOptions{SaltLength: salt, Hash: h}
						sig, vgErr := priv.Sign(rand.Reader, digest, opts)
						stdSig, stdErr, panicked := stdOutcome(func() ([]byte, error) { return std.Sign(rand.Reader, digest, opts) })
						requireSameOutcome(t, name, vgErr, stdErr, panicked)
						_, vgErr = priv.SignPSS(rand.Reader, crypto.SHA224, digest, opts) // opts.Hash overrides
						requireSameOutcome(t, name+" SignPSS", vgErr, stdErr, panicked)
						if vgErr != nil {
							continue
						}
						// Each verifies the other's signature.
						verify := &stdrsa.PSSOptions{SaltLength: salt}
						require.NoError(t, stdrsa.VerifyPSS(&std.PublicKey, h, digest, sig, verify), name)
						require.NoError(t, pub.VerifyPSS(h, digest, stdSig, verify), name)
					}
				}
				_, vgErr := priv.SignPSS(rand.Reader, h, d, nil)
				_, stdErr, panicked := stdOutcome(func() ([]byte, error) { return stdrsa.SignPSS(rand.Reader, std, h, d, nil) })
				requireSameOutcome(t, "SignPSS nil options", vgErr, stdErr, panicked)

				// Verification: signatures with the salt lengths 0 (which
				// crypto/rsa cannot make; PSSParams can), 1, the hash's
				// and the longest, checked with every options value.
				var sigs [][]byte
				if sig, err := priv.SignPSSParams(rand.Reader, d, rsa.PSSParams{Hash: h, SaltLength: rsa.PSSSaltLengthZero}); err == nil {
					sigs = append(sigs, sig)
				}
				for _, salt := range []int{1, stdrsa.PSSSaltLengthEqualsHash, stdrsa.PSSSaltLengthAuto} {
					if sig, err := stdrsa.SignPSS(rand.Reader, std, h, d, &stdrsa.PSSOptions{SaltLength: salt}); err == nil {
						sigs = append(sigs, sig)
					}
				}
				require.NotEmpty(t, sigs)
				flipped := bytes.Clone(sigs[0])
				flipped[k/2] ^= 1
				inputs := []struct {
					name        string
					digest, sig []byte
				}{
					{"short digest", d[:hLen-1], sigs[0]},
					{"other digest", other, sigs[0]},
					{"short signature", d, sigs[0][1:]},
					{"long signature", d, append([]byte{0}, sigs[0]...)},
					{"signature n", d, std.N.FillBytes(make([]byte, k))},
					{"flipped bit", d, flipped},
				}
				for i, sig := range sigs {
					inputs = append(inputs, struct {
						name        string
						digest, sig []byte
					}{fmt.Sprintf("signature %d", i), d, sig})
				}
				for _, in := range inputs {
					for _, salt := range salts {
						for _, optsHash := range []crypto.Hash{0, h, crypto.SHA384} {
							name := fmt.Sprintf("verify %s salt %d opts.Hash %v", in.name, salt, optsHash)
							opts := &stdrsa.PSSOptions{SaltLength: salt, Hash: optsHash}
							stdErr := stdrsa.VerifyPSS(&std.PublicKey, h, in.digest, in.sig, opts)
							requireSameOutcome(t, name, pub.VerifyPSS(h, in.digest, in.sig, opts), stdErr, false)
							requireSameOutcome(t, name+" (package function)", rsa.VerifyPSS(&std.PublicKey, h, in.digest, in.sig, opts), stdErr, false)
						}
					}
					requireSameOutcome(t, "verify "+in.name+" nil options", pub.VerifyPSS(h, in.digest, in.sig, nil), stdrsa.VerifyPSS(&std.PublicKey, h, in.digest, in.sig, nil), false)
				}
			})
		}
	}
}

// TestPSSHashOverride is crypto/rsa's TestHashOverride (pss_test.go): the
// hash in the options overrides SignPSS's argument, and VerifyPSS ignores
// the options' hash, so a valid signature verifies whatever it says.
func TestPSSHashOverride(t *testing.T) {
	std := testKey(t, 2048)
	priv, err := rsa.NewPrivateKey(std, paddingOpts()...)
	require.NoError(t, err)
	digest := sha512.Sum512([]byte("message"))
	sig, err := priv.SignPSS(rand.Reader, crypto.SHA256, digest[:], &stdrsa.PSSOptions{Hash: crypto.SHA512})
	require.NoError(t, err)
	opts := &stdrsa.PSSOptions{Hash: crypto.SHA256}
	require.NoError(t, stdrsa.VerifyPSS(&std.PublicKey, crypto.SHA512, digest[:], sig, opts))
	require.NoError(t, priv.PublicKey().VerifyPSS(crypto.SHA512, digest[:], sig, opts))
	require.NoError(t, rsa.VerifyPSS(&std.PublicKey, crypto.SHA512, digest[:], sig, opts))
}

// TestPSSInvalidSaltLength is crypto/rsa's TestInvalidPSSSaltLength: a
// salt length of -2 (or below) is refused when signing, where vg used to
// sign with an empty salt, and when verifying.
func TestPSSInvalidSaltLength(t *testing.T) {
	std := testKey(t, 2048)
	priv, err := rsa.NewPrivateKey(std, paddingOpts()...)
	require.NoError(t, err)
	d := sha512.Sum512_256([]byte("message"))
	opts := &stdrsa.PSSOptions{SaltLength: -2, Hash: crypto.SHA512_256}
	_, stdErr := stdrsa.SignPSS(rand.Reader, std, crypto.SHA512_256, d[:], opts)
	require.EqualError(t, stdErr, "crypto/rsa: invalid PSS salt length")
	_, err = priv.SignPSS(rand.Reader, crypto.SHA512_256, d[:], opts)
	require.ErrorContains(t, err, "invalid PSS salt length -2")
	_, err = priv.Sign(rand.Reader, d[:], opts)
	require.ErrorContains(t, err, "invalid PSS salt length -2")

	sig, err := priv.SignPSSParams(rand.Reader, d[:], rsa.PSSParams{Hash: crypto.SHA512_256, SaltLength: rsa.PSSSaltLengthZero})
	require.NoError(t, err)
	require.Error(t, stdrsa.VerifyPSS(&std.PublicKey, crypto.SHA512_256, d[:], sig, opts))
	require.ErrorContains(t, priv.PublicKey().VerifyPSS(crypto.SHA512_256, d[:], sig, opts), "invalid PSS salt length -2")
	// The empty salt is detected, and accepted with PSSParams.
	require.NoError(t, stdrsa.VerifyPSS(&std.PublicKey, crypto.SHA512_256, d[:], sig, nil))
	require.NoError(t, priv.PublicKey().VerifyPSS(crypto.SHA512_256, d[:], sig, nil))
	require.NoError(t, priv.PublicKey().VerifyPSSParams(d[:], sig, rsa.PSSParams{Hash: crypto.SHA512_256, SaltLength: rsa.PSSSaltLengthZero}))
}

// TestPSSSaltTooLong: a salt that does not fit is crypto/rsa's
// ErrMessageTooLong (errors.Is), with vg's own explanation in the text.
func TestPSSSaltTooLong(t *testing.T) {
	std := testKey(t, 2048)
	priv, err := rsa.NewPrivateKey(std, paddingOpts()...)
	require.NoError(t, err)
	d := sha512.Sum512([]byte("message"))
	for _, opts := range []*stdrsa.PSSOptions{
		{SaltLength: 256 - 2 - 64 + 1, Hash: crypto.SHA512},
		{SaltLength: 10000, Hash: crypto.SHA512},
	} {
		_, stdErr := std.Sign(rand.Reader, d[:], opts)
		require.ErrorIs(t, stdErr, stdrsa.ErrMessageTooLong)
		_, err := priv.Sign(rand.Reader, d[:], opts)
		require.ErrorIs(t, err, stdrsa.ErrMessageTooLong)
		require.ErrorIs(t, err, rsa.ErrMessageTooLong)
		require.ErrorContains(t, err, "is too long for a 2048-bit modulus")
	}
}

// pkcs1v15Hashes are the hashes of crypto/rsa's PKCS #1 v1.5 DigestInfo
// prefixes (hashPrefixes in crypto/internal/fips140/rsa/pkcs1v15.go, Go
// 1.26), MD5+SHA1 (no prefix), and hashes it does not support.
var pkcs1v15Hashes = []crypto.Hash{
	crypto.MD5, crypto.SHA1, crypto.SHA224, crypto.SHA256, crypto.SHA384, crypto.SHA512,
	crypto.SHA512_224, crypto.SHA512_256, crypto.SHA3_224, crypto.SHA3_256, crypto.SHA3_384,
	crypto.SHA3_512, crypto.MD5SHA1, crypto.RIPEMD160,
	crypto.MD4, crypto.BLAKE2s_256, crypto.BLAKE2b_256, crypto.BLAKE2b_384, crypto.BLAKE2b_512,
}

// TestPKCS1v15HashesMatchStdlib signs and verifies with every hash crypto/rsa
// knows a PKCS #1 v1.5 DigestInfo for (MD5 and RIPEMD-160 among them, whose
// packages need not be linked: only the digest's length and the prefix
// matter), MD5+SHA1, hashes it does not support and hash 0: the same
// signatures, the same failures (an unsupported hash is
// ErrVerification when verifying), digests of the wrong length, and
// pre-formatted inputs up to and beyond the longest that fits.
func TestPKCS1v15HashesMatchStdlib(t *testing.T) {
	for _, std := range []*stdrsa.PrivateKey{testKey(t, 1024), testKey(t, 2048)} {
		priv, err := rsa.NewPrivateKey(std, paddingOpts()...)
		require.NoError(t, err)
		pub := priv.PublicKey()
		k := std.Size()
		t.Run(fmt.Sprint(std.N.BitLen()), func(t *testing.T) {
			type input struct {
				name   string
				h      crypto.Hash
				hashed []byte
			}
			var inputs []input
			for _, h := range pkcs1v15Hashes {
				d := make([]byte, h.Size())
				rand.Read(d)
				if h == crypto.MD5 {
					s := md5.Sum([]byte("message"))
					d = s[:]
				}
				inputs = append(inputs, input{h.String(), h, d}, input{h.String() + " short", h, d[:len(d)-1]})
			}
			for _, n := range []int{0, 1, k - 11, k - 10, k} {
				inputs = append(inputs, input{fmt.Sprintf("hash 0, %d bytes", n), 0, bytes.Repeat([]byte{0xa5}, n)})
			}
			for _, in := range inputs {
				got, vgErr := priv.Sign(nil, in.hashed, in.h)
				want, stdErr, panicked := stdOutcome(func() ([]byte, error) { return std.Sign(nil, in.hashed, in.h) })
				requireSameOutcome(t, "sign "+in.name, vgErr, stdErr, panicked)
				_, vgErr = priv.SignPKCS1v15(in.h, in.hashed)
				requireSameOutcome(t, "SignPKCS1v15 "+in.name, vgErr, stdErr, panicked)
				sig := want
				if stdErr == nil {
					require.Equal(t, want, got, in.name)
				} else {
					sig = make([]byte, k) // a signature of the right length
					rand.Read(sig[1:])
				}
				stdErr = stdrsa.VerifyPKCS1v15(&std.PublicKey, in.h, in.hashed, sig)
				requireSameOutcome(t, "verify "+in.name, pub.VerifyPKCS1v15(in.h, in.hashed, sig), stdErr, false)
				requireSameOutcome(t, "verify "+in.name+" (package function)", rsa.VerifyPKCS1v15(&std.PublicKey, in.h, in.hashed, sig), stdErr, false)
				short := sig[1:]
				requireSameOutcome(t, "verify short signature "+in.name, pub.VerifyPKCS1v15(in.h, in.hashed, short), stdrsa.VerifyPKCS1v15(&std.PublicKey, in.h, in.hashed, short), false)
			}
		})
	}
}

// TestEncryptionEdgesMatchStdlib compares the outcomes of encryption and
// decryption on the edges: messages up to and beyond the longest that
// fits, OAEP hashes too long for the key, ciphertexts empty, short (taken
// with leading zeros), too long, not below n, with a bad padding, label or
// hash, and session keys too long for the key.
func TestEncryptionEdgesMatchStdlib(t *testing.T) {
	for _, std := range []*stdrsa.PrivateKey{testKey(t, 1024), testKey(t, 2048)} {
		priv, err := rsa.NewPrivateKey(std, paddingOpts()...)
		require.NoError(t, err)
		pub := priv.PublicKey()
		k := std.Size()
		t.Run(fmt.Sprint(std.N.BitLen()), func(t *testing.T) {
			for _, n := range []int{0, k - 11, k - 10} {
				_, vgErr := pub.EncryptPKCS1v15(rand.Reader, make([]byte, n))
				_, stdErr, panicked := stdOutcome(func() ([]byte, error) { return stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, make([]byte, n)) })
				requireSameOutcome(t, fmt.Sprintf("EncryptPKCS1v15 %d bytes", n), vgErr, stdErr, panicked)
			}
			for _, h := range []crypto.Hash{crypto.SHA1, crypto.SHA512} {
				for _, n := range []int{0, k - 2*h.Size() - 2, k - 2*h.Size() - 1} {
					if n < 0 {
						continue
					}
					_, vgErr := pub.EncryptOAEP(rand.Reader, h, 0, make([]byte, n), nil)
					_, stdErr, panicked := stdOutcome(func() ([]byte, error) {
						return stdrsa.EncryptOAEP(h.New(), rand.Reader, &std.PublicKey, make([]byte, n), nil)
					})
					requireSameOutcome(t, fmt.Sprintf("EncryptOAEP %s %d bytes", h, n), vgErr, stdErr, panicked)
				}
			}

			ct15, err := stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, []byte("a 16-byte secret"))
			require.NoError(t, err)
			ctOAEP, err := stdrsa.EncryptOAEP(sha1.New(), rand.Reader, &std.PublicKey, []byte("message"), []byte("label"))
			require.NoError(t, err)
			// A ciphertext whose decryption starts with a zero byte, so
			// that the stripped form is shorter than k.
			var short []byte
			for short == nil {
				c, err := stdrsa.EncryptPKCS1v15(rand.Reader, &std.PublicKey, []byte("x"))
				require.NoError(t, err)
				if c[0] == 0 {
					short = c[1:]
				}
			}
			bad := bytes.Clone(ct15)
			bad[k/2] ^= 1
			for _, c := range []struct {
				name string
				ct   []byte
			}{
				{"valid", ct15}, {"OAEP", ctOAEP}, {"stripped leading zero", short}, {"empty", nil},
				{"one byte", []byte{1}}, {"k+1 bytes", append([]byte{0}, ct15...)},
				{"n", std.N.Bytes()}, {"all ones", bytes.Repeat([]byte{0xff}, k)}, {"flipped bit", bad},
			} {
				got, vgErr := priv.Decrypt(nil, c.ct, nil)
				want, stdErr, panicked := stdOutcome(func() ([]byte, error) { return std.Decrypt(nil, c.ct, nil) })
				requireSameOutcome(t, "DecryptPKCS1v15 "+c.name, vgErr, stdErr, panicked)
				require.Equal(t, want, got, c.name)
				for _, o := range []*stdrsa.OAEPOptions{
					{Hash: crypto.SHA1, Label: []byte("label")},
					{Hash: crypto.SHA1, Label: []byte("other")},
					{Hash: crypto.SHA256, Label: []byte("label")},
					{Hash: crypto.SHA1, MGFHash: crypto.SHA256, Label: []byte("label")},
					{Hash: crypto.SHA512},
				} {
					got, vgErr := priv.Decrypt(nil, c.ct, o)
					want, stdErr, panicked := stdOutcome(func() ([]byte, error) { return std.Decrypt(nil, c.ct, o) })
					requireSameOutcome(t, fmt.Sprintf("DecryptOAEP %s %+v", c.name, *o), vgErr, stdErr, panicked)
					require.Equal(t, want, got, c.name)
				}
				for _, n := range []int{16, k - 11, k - 10} {
					vgKey, stdKey := make([]byte, n), make([]byte, n)
					vgErr := priv.DecryptPKCS1v15SessionKey(c.ct, vgKey)
					stdErr, panicked := func() (err error, panicked bool) {
						defer func() { panicked = recover() != nil }()
						return stdrsa.DecryptPKCS1v15SessionKey(nil, std, c.ct, stdKey), false
					}()
					requireSameOutcome(t, fmt.Sprintf("DecryptPKCS1v15SessionKey %s %d", c.name, n), vgErr, stdErr, panicked)
					require.Equal(t, stdKey, vgKey, c.name)
				}
			}
		})
	}
}
