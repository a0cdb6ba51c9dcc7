// Package rsa is a readable reference of RSA (RFC 8017) on math/big, used only
// by tests to check vg's rsa module: the RSAEP/RSADP primitives (RSADP with
// the plain exponent d, no CRT, so it shares no code path with the module),
// EMSA-PKCS1-v1_5, EMSA-PSS, RSAES-OAEP and RSAES-PKCS1-v1_5, each written
// the way the RFC states it. Randomness (salt, seed, padding string) is an
// explicit argument, so results can be compared byte for byte. It is
// variable time and not for use with real keys.
package rsa

import (
	"bytes"
	"crypto"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"math/big"

	_ "crypto/sha1"
	_ "crypto/sha256"
	_ "crypto/sha3"
	_ "crypto/sha512"
)

// PublicKey is (n, e).
type PublicKey struct {
	// N is the modulus.
	N *big.Int
	// E is the public exponent.
	E int
}

// PrivateKey is the public key and d.
type PrivateKey struct {
	PublicKey
	// D is the private exponent.
	D *big.Int
}

// Size returns k, the length of n in bytes.
func (pub *PublicKey) Size() int { return (pub.N.BitLen() + 7) / 8 }

// ErrInvalid is the single error of every check in this package.
var ErrInvalid = errors.New("spec/rsa: invalid")

// I2OSP converts x to a big-endian string of xLen bytes (RFC 8017 4.1).
func I2OSP(x *big.Int, xLen int) ([]byte, error) {
	if x.Sign() < 0 || (x.BitLen()+7)/8 > xLen {
		return nil, ErrInvalid
	}
	return x.FillBytes(make([]byte, xLen)), nil
}

// OS2IP converts a big-endian string to an integer (4.2).
func OS2IP(b []byte) *big.Int { return new(big.Int).SetBytes(b) }

// RSAEP returns m^e mod n for 0 <= m < n (5.1.1).
func RSAEP(pub *PublicKey, m *big.Int) (*big.Int, error) {
	if m.Sign() < 0 || m.Cmp(pub.N) >= 0 {
		return nil, ErrInvalid
	}
	return new(big.Int).Exp(m, big.NewInt(int64(pub.E)), pub.N), nil
}

// RSADP returns c^d mod n for 0 <= c < n (5.1.2, first form of K).
func RSADP(priv *PrivateKey, c *big.Int) (*big.Int, error) {
	if c.Sign() < 0 || c.Cmp(priv.N) >= 0 {
		return nil, ErrInvalid
	}
	return new(big.Int).Exp(c, priv.D, priv.N), nil
}

// RSASP1 and RSAVP1 are RSADP and RSAEP under their signature names.
func RSASP1(priv *PrivateKey, m *big.Int) (*big.Int, error) { return RSADP(priv, m) }

// RSAVP1 is RSAEP for signatures (5.2.2).
func RSAVP1(pub *PublicKey, s *big.Int) (*big.Int, error) { return RSAEP(pub, s) }

// MGF1 returns maskLen bytes of MGF1 with hash h (B.2.1).
func MGF1(h crypto.Hash, seed []byte, maskLen int) []byte {
	var t []byte
	for counter := uint32(0); len(t) < maskLen; counter++ {
		d := h.New()
		d.Write(seed)
		d.Write([]byte{byte(counter >> 24), byte(counter >> 16), byte(counter >> 8), byte(counter)})
		t = d.Sum(t)
	}
	return t[:maskLen]
}

func xor(a, b []byte) []byte {
	out := make([]byte, len(a))
	for i := range a {
		out[i] = a[i] ^ b[i]
	}
	return out
}

func digest(h crypto.Hash, parts ...[]byte) []byte {
	d := h.New()
	for _, p := range parts {
		d.Write(p)
	}
	return d.Sum(nil)
}

// DigestInfo returns the DER DigestInfo of a digest made with h (9.2 step 2).
func DigestInfo(oid asn1.ObjectIdentifier, hashed []byte) []byte {
	der, err := asn1.Marshal(struct {
		Algorithm pkix.AlgorithmIdentifier
		Digest    []byte
	}{pkix.AlgorithmIdentifier{Algorithm: oid, Parameters: asn1.NullRawValue}, hashed})
	if err != nil {
		panic(err)
	}
	return der
}

// HashOIDs are the digest algorithm identifiers of RFC 8017 A.2.4 and NIST.
var HashOIDs = map[crypto.Hash]asn1.ObjectIdentifier{
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

// EMSAPKCS1v15 encodes a digest made with h into emLen bytes (9.2), or,
// with h == 0, the raw T = hashed.
func EMSAPKCS1v15(h crypto.Hash, hashed []byte, emLen int) ([]byte, error) {
	t := hashed
	if h != 0 {
		oid, ok := HashOIDs[h]
		if !ok || len(hashed) != h.Size() {
			return nil, ErrInvalid
		}
		t = DigestInfo(oid, hashed)
	}
	if emLen < len(t)+11 {
		return nil, ErrInvalid
	}
	ps := bytes.Repeat([]byte{0xff}, emLen-len(t)-3)
	return bytes.Join([][]byte{{0x00, 0x01}, ps, {0x00}, t}, nil), nil
}

// SignPKCS1v15 is RSASSA-PKCS1-V1_5-SIGN over a digest (8.2.1).
func SignPKCS1v15(priv *PrivateKey, h crypto.Hash, hashed []byte) ([]byte, error) {
	k := priv.Size()
	em, err := EMSAPKCS1v15(h, hashed, k)
	if err != nil {
		return nil, err
	}
	s, err := RSASP1(priv, OS2IP(em))
	if err != nil {
		return nil, err
	}
	return I2OSP(s, k)
}

// VerifyPKCS1v15 is RSASSA-PKCS1-V1_5-VERIFY over a digest (8.2.2).
func VerifyPKCS1v15(pub *PublicKey, h crypto.Hash, hashed, sig []byte) error {
	k := pub.Size()
	if len(sig) != k {
		return ErrInvalid
	}
	m, err := RSAVP1(pub, OS2IP(sig))
	if err != nil {
		return err
	}
	em, err := I2OSP(m, k)
	if err != nil {
		return err
	}
	want, err := EMSAPKCS1v15(h, hashed, k)
	if err != nil || !bytes.Equal(em, want) {
		return ErrInvalid
	}
	return nil
}

// EMSAPSSEncode is EMSA-PSS-ENCODE (9.1.1) of a digest mHash with the given
// salt, for emBits bits.
func EMSAPSSEncode(h, mgf crypto.Hash, mHash, salt []byte, emBits int) ([]byte, error) {
	hLen, sLen := h.Size(), len(salt)
	emLen := (emBits + 7) / 8
	if len(mHash) != hLen || emLen < hLen+sLen+2 {
		return nil, ErrInvalid
	}
	mPrime := bytes.Join([][]byte{make([]byte, 8), mHash, salt}, nil)
	H := digest(h, mPrime)
	ps := make([]byte, emLen-sLen-hLen-2)
	db := bytes.Join([][]byte{ps, {0x01}, salt}, nil)
	maskedDB := xor(db, MGF1(mgf, H, emLen-hLen-1))
	maskedDB[0] &= byte(0xff >> (8*emLen - emBits))
	return bytes.Join([][]byte{maskedDB, H, {0xbc}}, nil), nil
}

// EMSAPSSVerify is EMSA-PSS-VERIFY (9.1.2) with a known salt length.
func EMSAPSSVerify(h, mgf crypto.Hash, mHash, em []byte, emBits, sLen int) error {
	hLen := h.Size()
	emLen := (emBits + 7) / 8
	if len(mHash) != hLen || len(em) != emLen || emLen < hLen+sLen+2 {
		return ErrInvalid
	}
	if em[emLen-1] != 0xbc {
		return ErrInvalid
	}
	maskedDB, H := em[:emLen-hLen-1], em[emLen-hLen-1:emLen-1]
	topBits := 8*emLen - emBits
	if maskedDB[0]>>(8-topBits) != 0 && topBits > 0 {
		return ErrInvalid
	}
	db := xor(maskedDB, MGF1(mgf, H, emLen-hLen-1))
	db[0] &= byte(0xff >> topBits)
	psLen := emLen - hLen - sLen - 2
	for _, b := range db[:psLen] {
		if b != 0 {
			return ErrInvalid
		}
	}
	if db[psLen] != 0x01 {
		return ErrInvalid
	}
	salt := db[len(db)-sLen:]
	if !bytes.Equal(H, digest(h, make([]byte, 8), mHash, salt)) {
		return ErrInvalid
	}
	return nil
}

// SignPSS is RSASSA-PSS-SIGN (8.1.1) of a digest with an explicit salt.
func SignPSS(priv *PrivateKey, h, mgf crypto.Hash, mHash, salt []byte) ([]byte, error) {
	modBits := priv.N.BitLen()
	em, err := EMSAPSSEncode(h, mgf, mHash, salt, modBits-1)
	if err != nil {
		return nil, err
	}
	s, err := RSASP1(priv, OS2IP(em))
	if err != nil {
		return nil, err
	}
	return I2OSP(s, priv.Size())
}

// VerifyPSS is RSASSA-PSS-VERIFY (8.1.2) of a digest with salt length sLen.
func VerifyPSS(pub *PublicKey, h, mgf crypto.Hash, mHash, sig []byte, sLen int) error {
	k, modBits := pub.Size(), pub.N.BitLen()
	if len(sig) != k {
		return ErrInvalid
	}
	m, err := RSAVP1(pub, OS2IP(sig))
	if err != nil {
		return err
	}
	emLen := (modBits - 1 + 7) / 8
	em, err := I2OSP(m, emLen)
	if err != nil {
		return err
	}
	return EMSAPSSVerify(h, mgf, mHash, em, modBits-1, sLen)
}

// EncryptOAEP is RSAES-OAEP-ENCRYPT (7.1.1) with an explicit seed of hLen
// bytes.
func EncryptOAEP(pub *PublicKey, h, mgf crypto.Hash, msg, label, seed []byte) ([]byte, error) {
	k, hLen := pub.Size(), h.Size()
	if len(msg) > k-2*hLen-2 || len(seed) != hLen {
		return nil, ErrInvalid
	}
	lHash := digest(h, label)
	ps := make([]byte, k-len(msg)-2*hLen-2)
	db := bytes.Join([][]byte{lHash, ps, {0x01}, msg}, nil)
	maskedDB := xor(db, MGF1(mgf, seed, k-hLen-1))
	maskedSeed := xor(seed, MGF1(mgf, maskedDB, hLen))
	em := bytes.Join([][]byte{{0x00}, maskedSeed, maskedDB}, nil)
	c, err := RSAEP(pub, OS2IP(em))
	if err != nil {
		return nil, err
	}
	return I2OSP(c, k)
}

// DecryptOAEP is RSAES-OAEP-DECRYPT (7.1.2).
func DecryptOAEP(priv *PrivateKey, h, mgf crypto.Hash, ct, label []byte) ([]byte, error) {
	k, hLen := priv.Size(), h.Size()
	if len(ct) != k || k < 2*hLen+2 {
		return nil, ErrInvalid
	}
	m, err := RSADP(priv, OS2IP(ct))
	if err != nil {
		return nil, err
	}
	em, _ := I2OSP(m, k)
	lHash := digest(h, label)
	y, maskedSeed, maskedDB := em[0], em[1:1+hLen], em[1+hLen:]
	seed := xor(maskedSeed, MGF1(mgf, maskedDB, hLen))
	db := xor(maskedDB, MGF1(mgf, seed, k-hLen-1))
	if y != 0 || !bytes.Equal(db[:hLen], lHash) {
		return nil, ErrInvalid
	}
	rest := db[hLen:]
	i := bytes.IndexFunc(rest, func(r rune) bool { return r != 0 })
	if i < 0 || rest[i] != 0x01 {
		return nil, ErrInvalid
	}
	return rest[i+1:], nil
}

// EncryptPKCS1v15 is RSAES-PKCS1-V1_5-ENCRYPT (7.2.1) with an explicit
// padding string of non-zero bytes, k - len(msg) - 3 long.
func EncryptPKCS1v15(pub *PublicKey, msg, ps []byte) ([]byte, error) {
	k := pub.Size()
	if len(msg) > k-11 || len(ps) != k-len(msg)-3 || bytes.IndexByte(ps, 0) >= 0 {
		return nil, ErrInvalid
	}
	em := bytes.Join([][]byte{{0x00, 0x02}, ps, {0x00}, msg}, nil)
	c, err := RSAEP(pub, OS2IP(em))
	if err != nil {
		return nil, err
	}
	return I2OSP(c, k)
}

// DecryptPKCS1v15 is RSAES-PKCS1-V1_5-DECRYPT (7.2.2).
func DecryptPKCS1v15(priv *PrivateKey, ct []byte) ([]byte, error) {
	k := priv.Size()
	if len(ct) != k || k < 11 {
		return nil, ErrInvalid
	}
	m, err := RSADP(priv, OS2IP(ct))
	if err != nil {
		return nil, err
	}
	em, _ := I2OSP(m, k)
	if em[0] != 0 || em[1] != 2 {
		return nil, ErrInvalid
	}
	i := bytes.IndexByte(em[2:], 0)
	if i < 8 { // no separator (-1) or a padding string shorter than 8
		return nil, ErrInvalid
	}
	return em[2+i+1:], nil
}
