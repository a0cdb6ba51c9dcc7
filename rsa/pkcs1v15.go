package rsa

import (
	"crypto"
	"crypto/rsa"
	"crypto/subtle"
	"fmt"
	"io"

	// The hashes of PSS and OAEP (which need their implementations, unlike
	// PKCS #1 v1.5 signatures) are linked in, so crypto.Hash values for
	// them are available.
	_ "crypto/sha1"
	_ "crypto/sha256"
	_ "crypto/sha3"
	_ "crypto/sha512"
)

// digestInfoPrefixes holds, per hash, the DER bytes of a PKCS #1 v1.5
// DigestInfo up to the digest itself: SEQUENCE { AlgorithmIdentifier,
// OCTET STRING (hLen bytes) } without its last hLen bytes. The table is
// crypto/rsa's (hashPrefixes in crypto/internal/fips140/rsa/pkcs1v15.go, Go
// 1.26), byte for byte, so that the same hashes are supported with the same
// encodings: the RFC 8017 ones (MD5, SHA-1, SHA-2), SHA-3, RIPEMD-160 (ISO
// 10118-3's OID, no parameters), and MD5+SHA1 without a prefix (the
// 36-byte digest of TLS 1.0 and 1.1). Only the digest's length and this
// prefix are used: the hash's package need not be linked into the program.
var digestInfoPrefixes = map[crypto.Hash][]byte{
	crypto.MD5:        {0x30, 0x20, 0x30, 0x0c, 0x06, 0x08, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x05, 0x05, 0x00, 0x04, 0x10},
	crypto.SHA1:       {0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14},
	crypto.SHA224:     {0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04, 0x05, 0x00, 0x04, 0x1c},
	crypto.SHA256:     {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20},
	crypto.SHA384:     {0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30},
	crypto.SHA512:     {0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40},
	crypto.SHA512_224: {0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x05, 0x05, 0x00, 0x04, 0x1c},
	crypto.SHA512_256: {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x06, 0x05, 0x00, 0x04, 0x20},
	crypto.SHA3_224:   {0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x07, 0x05, 0x00, 0x04, 0x1c},
	crypto.SHA3_256:   {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x08, 0x05, 0x00, 0x04, 0x20},
	crypto.SHA3_384:   {0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x09, 0x05, 0x00, 0x04, 0x30},
	crypto.SHA3_512:   {0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x0a, 0x05, 0x00, 0x04, 0x40},
	crypto.MD5SHA1:    {},
	crypto.RIPEMD160:  {0x30, 0x20, 0x30, 0x08, 0x06, 0x06, 0x28, 0xcf, 0x06, 0x03, 0x00, 0x31, 0x04, 0x14},
}

// pkcs1v15Prefix returns the DigestInfo prefix for hash and checks the
// digest length, in crypto/rsa's order (the length first); hash 0 means the
// input is already formatted (no prefix). A hash crypto.Hash has no name
// for is refused here, where crypto/rsa panics (in crypto.Hash.Size).
func pkcs1v15Prefix(hash crypto.Hash, hashed []byte) ([]byte, error) {
	if hash == 0 {
		return nil, nil
	}
	if !knownHash(hash) {
		return nil, errUnsupportedPKCS1v15(hash)
	}
	if len(hashed) != hash.Size() {
		return nil, errDigestLength(hash, len(hashed))
	}
	prefix, ok := digestInfoPrefixes[hash]
	if !ok {
		return nil, errUnsupportedPKCS1v15(hash)
	}
	return prefix, nil
}

func errUnsupportedPKCS1v15(hash crypto.Hash) error {
	return fmt.Errorf("rsa: PKCS #1 v1.5 signatures with hash function %s are not supported", hashName(hash))
}

// pkcs1v15SignEncode returns EM = 0x00 0x01 0xff.. 0x00 || prefix || hashed.
func pkcs1v15SignEncode(k int, prefix, hashed []byte) ([]byte, error) {
	tLen := len(prefix) + len(hashed)
	if k < tLen+11 {
		return nil, ErrMessageTooLong
	}
	em := make([]byte, k)
	em[1] = 1
	for i := 2; i < k-tLen-1; i++ {
		em[i] = 0xff
	}
	copy(em[k-tLen:], prefix)
	copy(em[k-len(hashed):], hashed)
	return em, nil
}

// SignPKCS1v15 signs hashed (the digest of the message with hash, or, with
// hash 0, an already formatted input) with RSASSA-PKCS1-v1_5. It is
// deterministic. The hashes are crypto/rsa's: MD5, SHA-1, SHA-2, SHA-3,
// RIPEMD-160, and crypto.MD5SHA1 (TLS 1.0 and 1.1), whose hashed is the
// 36-byte MD5 || SHA-1 digest, signed without a DigestInfo. An input too
// long for the key is ErrMessageTooLong.
func (priv *PrivateKey) SignPKCS1v15(hash crypto.Hash, hashed []byte) ([]byte, error) {
	sk := priv.secret()
	prefix, err := pkcs1v15Prefix(hash, hashed)
	if err != nil {
		return nil, err
	}
	em, err := pkcs1v15SignEncode(priv.pub.k, prefix, hashed)
	if err != nil {
		return nil, err
	}
	if sk.std != nil {
		return rsa.SignPKCS1v15(nil, sk.std, hash, hashed)
	}
	sig := make([]byte, priv.pub.k)
	if err := priv.privateOp(sig, em); err != nil {
		return nil, err
	}
	return sig, nil
}

// VerifyPKCS1v15 checks an RSASSA-PKCS1-v1_5 signature over hashed (hash 0:
// an already formatted input), with the hashes of SignPKCS1v15. As in
// crypto/rsa, a digest whose length is not the hash's is an error, and
// everything else that fails is ErrVerification (errors.Is): a signature
// that does not verify, an input too long for the key, and a hash without
// a DigestInfo (whose error also says so).
func (pub *PublicKey) VerifyPKCS1v15(hash crypto.Hash, hashed, sig []byte) error {
	pub.mustBeMade()
	if hash != 0 && knownHash(hash) && len(hashed) != hash.Size() {
		return errDigestLength(hash, len(hashed))
	}
	prefix, err := pkcs1v15Prefix(hash, hashed)
	if err != nil {
		return &sentinelError{err.Error(), ErrVerification}
	}
	want, err := pkcs1v15SignEncode(pub.k, prefix, hashed)
	if err != nil {
		return ErrVerification
	}
	if pub.std {
		return stdVerifyErr(rsa.VerifyPKCS1v15(&pub.pub, hash, hashed, sig))
	}
	if len(sig) != pub.k {
		return ErrVerification
	}
	em := make([]byte, pub.k)
	if err := pub.publicOpVarTime(em, sig); err != nil {
		return ErrVerification
	}
	if subtle.ConstantTimeCompare(em, want) != 1 {
		return ErrVerification
	}
	return nil
}

// EncryptPKCS1v15 encrypts msg with RSAES-PKCS1-v1_5, reading the padding
// from random (crypto/rand when nil). msg may be at most Size()-11 bytes.
// New protocols should use OAEP.
func (pub *PublicKey) EncryptPKCS1v15(random io.Reader, msg []byte) ([]byte, error) {
	pub.mustBeMade()
	random = randOrDefault(random)
	k := pub.k
	if len(msg) > k-11 {
		return nil, ErrMessageTooLong
	}
	if pub.std {
		return rsa.EncryptPKCS1v15(random, &pub.pub, msg)
	}
	em := make([]byte, k)
	defer wipeBytes(em)
	em[1] = 2
	ps := em[2 : k-len(msg)-1]
	if err := nonZeroRandomBytes(ps, random); err != nil {
		return nil, err
	}
	copy(em[k-len(msg):], msg)
	out := make([]byte, k)
	if err := pub.publicOpVarTime(out, em); err != nil {
		return nil, err
	}
	return out, nil
}

// nonZeroRandomBytes fills b with random non-zero bytes.
func nonZeroRandomBytes(b []byte, random io.Reader) error {
	if _, err := io.ReadFull(random, b); err != nil {
		return err
	}
	for i := range b {
		for b[i] == 0 {
			if _, err := io.ReadFull(random, b[i:i+1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// leftPad returns ciphertext as k bytes: itself, or a copy with leading
// zeros when it is shorter (a valid ciphertext whose leading zero bytes were
// stripped, which crypto/rsa accepts too). ok is false when it is longer
// than k. Only public lengths decide anything here.
func leftPad(ciphertext []byte, k int) (padded []byte, ok bool) {
	switch {
	case len(ciphertext) > k:
		return nil, false
	case len(ciphertext) == k:
		return ciphertext, true
	}
	padded = make([]byte, k)
	copy(padded[k-len(ciphertext):], ciphertext)
	return padded, true
}

// decryptPKCS1v15 decrypts ciphertext (at most k bytes; a shorter one is
// taken with leading zeros, as in crypto/rsa) and checks the RSAES-PKCS1-v1_5
// padding without secret-dependent branches. It returns the whole encoded
// message, valid (1 or 0) and the index where the message starts.
func (priv *PrivateKey) decryptPKCS1v15(ciphertext []byte) (em []byte, valid, index int, err error) {
	k := priv.pub.k
	ciphertext, ok := leftPad(ciphertext, k)
	if !ok {
		return nil, 0, 0, ErrDecryption
	}
	em = make([]byte, k)
	if err := priv.privateOp(em, ciphertext); err != nil {
		if err == ErrFault {
			return nil, 0, 0, err
		}
		return nil, 0, 0, ErrDecryption
	}
	first0 := subtle.ConstantTimeByteEq(em[0], 0)
	second2 := subtle.ConstantTimeByteEq(em[1], 2)
	// looking is 1 until the first zero byte after the type byte.
	looking := 1
	for i := 2; i < k; i++ {
		z := subtle.ConstantTimeByteEq(em[i], 0)
		index = subtle.ConstantTimeSelect(looking&z, i, index)
		looking = subtle.ConstantTimeSelect(z, 0, looking)
	}
	// At least 8 padding bytes: the zero is at index 10 or later.
	validPS := subtle.ConstantTimeLessOrEq(10, index)
	valid = first0 & second2 & (looking ^ 1) & validPS
	index = subtle.ConstantTimeSelect(valid, index+1, 0)
	return em, valid, index, nil
}

// DecryptPKCS1v15 decrypts ciphertext with RSAES-PKCS1-v1_5. It returns
// ErrDecryption for an invalid ciphertext; whether the padding was valid is
// only revealed by that return, as in crypto/rsa. Protocols that must not
// reveal it (TLS RSA key exchange) use DecryptPKCS1v15SessionKey. As in
// crypto/rsa, a ciphertext shorter than the modulus is taken with leading
// zeros and a longer one is rejected.
func (priv *PrivateKey) DecryptPKCS1v15(ciphertext []byte) ([]byte, error) {
	if sk := priv.secret(); sk.std != nil {
		return stdDecryptErr(rsa.DecryptPKCS1v15(nil, sk.std, ciphertext))
	}
	em, valid, index, err := priv.decryptPKCS1v15(ciphertext)
	if err != nil {
		return nil, err
	}
	defer wipeBytes(em)
	declassify(&valid) // the verdict is public
	if valid == 0 {
		return nil, ErrDecryption
	}
	declassify(&index) // so is the length of a valid message
	return append([]byte(nil), em[index:]...), nil
}

// DecryptPKCS1v15SessionKey decrypts a session key of len(key) bytes in
// constant time, like crypto/rsa's function of the same name: key is
// overwritten with the decrypted key only when the padding is valid and the
// message has exactly len(key) bytes, and left unchanged otherwise, without
// an error. key should hold random bytes beforehand. It returns an error
// only for a ciphertext longer than the modulus or a key too long for the
// modulus.
func (priv *PrivateKey) DecryptPKCS1v15SessionKey(ciphertext, key []byte) error {
	sk := priv.secret()
	k := priv.pub.k
	if k-(len(key)+3+8) < 0 {
		return ErrDecryption
	}
	if sk.std != nil {
		if rsa.DecryptPKCS1v15SessionKey(nil, sk.std, ciphertext, key) != nil {
			return ErrDecryption
		}
		return nil
	}
	em, valid, index, err := priv.decryptPKCS1v15(ciphertext)
	if err != nil {
		return err
	}
	defer wipeBytes(em)
	valid &= subtle.ConstantTimeEq(int32(k-index), int32(len(key)))
	subtle.ConstantTimeCopy(valid, key, em[k-len(key):])
	return nil
}
