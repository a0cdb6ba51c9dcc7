package rsa

import (
	"crypto"
	"crypto/subtle"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"io"

	// The hashes Sign and Verify accept are linked in, so crypto.Hash
	// values for them are available.
	_ "crypto/sha1"
	_ "crypto/sha256"
	_ "crypto/sha3"
	_ "crypto/sha512"
)

// digestInfoOIDs are the hash algorithm identifiers of RFC 8017 (A.2.4) and
// NIST's hash OID arc, for the DigestInfo of PKCS #1 v1.5 signatures.
var digestInfoOIDs = map[crypto.Hash]asn1.ObjectIdentifier{
	crypto.SHA1:       {1, 3, 14, 3, 2, 26},
	crypto.SHA224:     {2, 16, 840, 1, 101, 3, 4, 2, 4},
	crypto.SHA256:     {2, 16, 840, 1, 101, 3, 4, 2, 1},
	crypto.SHA384:     {2, 16, 840, 1, 101, 3, 4, 2, 2},
	crypto.SHA512:     {2, 16, 840, 1, 101, 3, 4, 2, 3},
	crypto.SHA512_224: {2, 16, 840, 1, 101, 3, 4, 2, 5},
	crypto.SHA512_256: {2, 16, 840, 1, 101, 3, 4, 2, 6},
	crypto.SHA3_224:   {2, 16, 840, 1, 101, 3, 4, 2, 7},
	crypto.SHA3_256:   {2, 16, 840, 1, 101, 3, 4, 2, 8},
	crypto.SHA3_384:   {2, 16, 840, 1, 101, 3, 4, 2, 9},
	crypto.SHA3_512:   {2, 16, 840, 1, 101, 3, 4, 2, 10},
}

// digestInfoPrefixes holds, per hash, the DER bytes of a DigestInfo up to
// the digest itself: SEQUENCE { AlgorithmIdentifier { oid, NULL },
// OCTET STRING (hLen bytes) } without its last hLen bytes.
var digestInfoPrefixes = func() map[crypto.Hash][]byte {
	m := make(map[crypto.Hash][]byte)
	for h, oid := range digestInfoOIDs {
		der, err := asn1.Marshal(struct {
			Algorithm pkix.AlgorithmIdentifier
			Digest    []byte
		}{pkix.AlgorithmIdentifier{Algorithm: oid, Parameters: asn1.NullRawValue}, make([]byte, h.Size())})
		if err != nil {
			panic(err)
		}
		m[h] = der[:len(der)-h.Size()]
	}
	return m
}()

// pkcs1v15Prefix returns the DigestInfo prefix for hash and checks the
// digest length; hash 0 means the input is already formatted (no prefix).
// crypto.MD5SHA1, the 36-byte digest of TLS 1.0 and 1.1, has no DigestInfo
// either, as in crypto/rsa.
func pkcs1v15Prefix(hash crypto.Hash, hashed []byte) ([]byte, error) {
	if hash == 0 {
		return nil, nil
	}
	if hash == crypto.MD5SHA1 {
		if len(hashed) != hash.Size() {
			return nil, errDigestLength(hash, len(hashed))
		}
		return nil, nil
	}
	prefix, ok := digestInfoPrefixes[hash]
	if !ok {
		return nil, fmt.Errorf("rsa: PKCS #1 v1.5 signatures with hash function %s are not supported", hashName(hash))
	}
	if err := checkHash(hash); err != nil {
		return nil, err
	}
	if len(hashed) != hash.Size() {
		return nil, errDigestLength(hash, len(hashed))
	}
	return prefix, nil
}

// pkcs1v15SignEncode returns EM = 0x00 0x01 0xff.. 0x00 || prefix || hashed.
func pkcs1v15SignEncode(k int, hash crypto.Hash, hashed []byte) ([]byte, error) {
	prefix, err := pkcs1v15Prefix(hash, hashed)
	if err != nil {
		return nil, err
	}
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
// deterministic. With crypto.MD5SHA1 (TLS 1.0 and 1.1) hashed is the 36-byte
// MD5 || SHA-1 digest, signed without a DigestInfo, as in crypto/rsa.
func (priv *PrivateKey) SignPKCS1v15(hash crypto.Hash, hashed []byte) ([]byte, error) {
	priv.mustBeMade()
	em, err := pkcs1v15SignEncode(priv.pub.k, hash, hashed)
	if err != nil {
		return nil, err
	}
	sig := make([]byte, priv.pub.k)
	if err := priv.privateOp(sig, em); err != nil {
		return nil, err
	}
	return sig, nil
}

// VerifyPKCS1v15 checks an RSASSA-PKCS1-v1_5 signature over hashed (hash 0:
// an already formatted input). It returns nil or an error, ErrVerification
// for a signature that does not verify.
func (pub *PublicKey) VerifyPKCS1v15(hash crypto.Hash, hashed, sig []byte) error {
	pub.mustBeMade()
	want, err := pkcs1v15SignEncode(pub.k, hash, hashed)
	if err != nil {
		return err
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
	priv.mustBeMade()
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
	priv.mustBeMade()
	k := priv.pub.k
	if k-(len(key)+3+8) < 0 {
		return ErrDecryption
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
