package rsa

import (
	"crypto"
	"crypto/rsa"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
)

// oaepHashes resolves OAEP's hash functions (MGF1 defaults to the label
// hash).
func oaepHashes(h, mgf crypto.Hash) (crypto.Hash, crypto.Hash, error) {
	if mgf == 0 {
		mgf = h
	}
	if err := checkHash(h); err != nil {
		return 0, 0, err
	}
	if err := checkHash(mgf); err != nil {
		return 0, 0, err
	}
	return h, mgf, nil
}

// EncryptOAEP encrypts msg with RSAES-OAEP: label hash hash, MGF1 with
// mgfHash (0: the same as hash), seed from random (crypto/rand when nil).
// msg may be at most Size() - 2*hash.Size() - 2 bytes.
func (pub *PublicKey) EncryptOAEP(random io.Reader, hash, mgfHash crypto.Hash, msg, label []byte) ([]byte, error) {
	pub.mustBeMade()
	h, mgf, err := oaepHashes(hash, mgfHash)
	if err != nil {
		return nil, err
	}
	k, hLen := pub.k, h.Size()
	if len(msg) > k-2*hLen-2 {
		return nil, ErrMessageTooLong
	}
	if pub.std && mgf == h {
		return rsa.EncryptOAEP(h.New(), randOrDefault(random), &pub.pub, msg, label)
	}
	em := make([]byte, k)
	defer wipeBytes(em)
	seed := em[1 : 1+hLen]
	db := em[1+hLen:]
	lh := h.New()
	lh.Write(label)
	lh.Sum(db[:0])
	db[len(db)-len(msg)-1] = 1
	copy(db[len(db)-len(msg):], msg)
	if _, err := io.ReadFull(randOrDefault(random), seed); err != nil {
		return nil, err
	}
	mgf1XOR(db, mgf.New(), seed)
	mgf1XOR(seed, mgf.New(), db)
	out := make([]byte, k)
	if err := pub.publicOpVarTime(out, em); err != nil {
		return nil, err
	}
	return out, nil
}

// DecryptOAEP decrypts ciphertext with RSAES-OAEP (label hash hash, MGF1
// with mgfHash, 0 meaning hash). The padding is checked without
// secret-dependent branches; every failure is the same ErrDecryption. As in
// crypto/rsa, a ciphertext shorter than the modulus is taken with leading
// zeros and a longer one is rejected.
func (priv *PrivateKey) DecryptOAEP(hash, mgfHash crypto.Hash, ciphertext, label []byte) ([]byte, error) {
	sk := priv.secret()
	h, mgf, err := oaepHashes(hash, mgfHash)
	if err != nil {
		return nil, err
	}
	if sk.std != nil {
		return stdDecryptErr(sk.std.Decrypt(nil, ciphertext, &rsa.OAEPOptions{Hash: h, MGFHash: mgf, Label: label}))
	}
	k, hLen := priv.pub.k, h.Size()
	ciphertext, ok := leftPad(ciphertext, k)
	if !ok || k < 2*hLen+2 {
		return nil, ErrDecryption
	}
	em := make([]byte, k)
	defer wipeBytes(em)
	if err := priv.privateOp(em, ciphertext); err != nil {
		if err == ErrFault {
			return nil, err
		}
		return nil, ErrDecryption
	}
	lh := h.New()
	lh.Write(label)
	lHash := lh.Sum(nil)

	first0 := subtle.ConstantTimeByteEq(em[0], 0)
	seed := em[1 : 1+hLen]
	db := em[1+hLen:]
	mgf1XOR(seed, mgf.New(), db)
	mgf1XOR(db, mgf.New(), seed)
	lHashOK := subtle.ConstantTimeCompare(lHash, db[:hLen])

	// After lHash: zeros, then 0x01, then the message. looking is 1 until
	// the 0x01; invalid becomes 1 on a byte that is neither 0 nor 1 before
	// it.
	looking, index, invalid := 1, 0, 0
	rest := db[hLen:]
	for i := range rest {
		eq0 := subtle.ConstantTimeByteEq(rest[i], 0)
		eq1 := subtle.ConstantTimeByteEq(rest[i], 1)
		index = subtle.ConstantTimeSelect(looking&eq1, i, index)
		looking = subtle.ConstantTimeSelect(eq1, 0, looking)
		invalid = subtle.ConstantTimeSelect(looking&^eq0&1, 1, invalid)
	}
	valid := first0 & lHashOK &^ invalid &^ looking & 1
	declassify(&valid) // the verdict is public
	if valid != 1 {
		return nil, ErrDecryption
	}
	declassify(&index) // so is the length of a valid message
	return append([]byte(nil), rest[index+1:]...), nil
}

// Sign implements crypto.Signer. With opts a *rsa.PSSOptions it signs with
// RSASSA-PSS (see SignPSS); otherwise with RSASSA-PKCS1-v1_5 over
// opts.HashFunc() (0 for an already formatted input). random supplies the
// PSS salt (crypto/rand when nil).
func (priv *PrivateKey) Sign(random io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	priv.secret()
	if pss, ok := opts.(*rsa.PSSOptions); ok {
		return priv.SignPSS(random, pss.Hash, digest, pss)
	}
	if opts == nil {
		return nil, errors.New("rsa: Sign needs SignerOpts, and opts is nil (want a crypto.Hash, or a *rsa.PSSOptions for PSS)")
	}
	return priv.SignPKCS1v15(opts.HashFunc(), digest)
}

// Decrypt implements crypto.Decrypter. opts nil or *rsa.PKCS1v15DecryptOptions
// selects RSAES-PKCS1-v1_5 (with SessionKeyLen > 0: a random key of that
// length, read from random, replaced by the decrypted one only when the
// ciphertext is valid, as in crypto/rsa); *rsa.OAEPOptions selects OAEP.
func (priv *PrivateKey) Decrypt(random io.Reader, ciphertext []byte, opts crypto.DecrypterOpts) ([]byte, error) {
	priv.secret()
	switch o := opts.(type) {
	case nil:
		return priv.DecryptPKCS1v15(ciphertext)
	case *rsa.OAEPOptions:
		return priv.DecryptOAEP(o.Hash, o.MGFHash, ciphertext, o.Label)
	case *rsa.PKCS1v15DecryptOptions:
		if o.SessionKeyLen > 0 {
			key := make([]byte, o.SessionKeyLen)
			if _, err := io.ReadFull(randOrDefault(random), key); err != nil {
				return nil, err
			}
			if err := priv.DecryptPKCS1v15SessionKey(ciphertext, key); err != nil {
				return nil, err
			}
			return key, nil
		}
		return priv.DecryptPKCS1v15(ciphertext)
	default:
		return nil, fmt.Errorf("rsa: Decrypt options of type %T are not supported (want nil, *rsa.PKCS1v15DecryptOptions or *rsa.OAEPOptions)", opts)
	}
}

// VerifyPKCS1v15 checks an RSASSA-PKCS1-v1_5 signature with pub, preparing
// the key for this one call (use NewPublicKey to verify many).
func VerifyPKCS1v15(pub *rsa.PublicKey, hash crypto.Hash, hashed, sig []byte) error {
	p, err := NewPublicKey(pub)
	if err != nil {
		return err
	}
	return p.VerifyPKCS1v15(hash, hashed, sig)
}

// VerifyPSS checks an RSASSA-PSS signature with pub, preparing the key for
// this one call (use NewPublicKey to verify many).
func VerifyPSS(pub *rsa.PublicKey, hash crypto.Hash, digest, sig []byte, opts *rsa.PSSOptions) error {
	p, err := NewPublicKey(pub)
	if err != nil {
		return err
	}
	return p.VerifyPSS(hash, digest, sig, opts)
}

// EncryptOAEP encrypts msg for pub with RSAES-OAEP (MGF1 with the same
// hash), preparing the key for this one call.
func EncryptOAEP(random io.Reader, pub *rsa.PublicKey, hash crypto.Hash, msg, label []byte) ([]byte, error) {
	p, err := NewPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return p.EncryptOAEP(random, hash, 0, msg, label)
}

// EncryptPKCS1v15 encrypts msg for pub with RSAES-PKCS1-v1_5, preparing the
// key for this one call.
func EncryptPKCS1v15(random io.Reader, pub *rsa.PublicKey, msg []byte) ([]byte, error) {
	p, err := NewPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return p.EncryptPKCS1v15(random, msg)
}
