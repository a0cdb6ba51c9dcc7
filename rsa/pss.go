package rsa

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/subtle"
	"fmt"
	"hash"
	"io"
)

// PSS salt-length conventions, the same values as crypto/rsa's.
const (
	// PSSSaltLengthAuto: when signing, the longest salt that fits; when
	// verifying, detect the salt length from the signature.
	PSSSaltLengthAuto = rsa.PSSSaltLengthAuto
	// PSSSaltLengthEqualsHash: a salt as long as the hash.
	PSSSaltLengthEqualsHash = rsa.PSSSaltLengthEqualsHash
	// PSSSaltLengthZero: an empty salt, which crypto/rsa's convention (0
	// means auto) cannot express. Only PSSParams accepts it: in a
	// *crypto/rsa.PSSOptions, -2 is an invalid salt length, as in
	// crypto/rsa.
	PSSSaltLengthZero = -2
)

// PSSParams are the full RSASSA-PSS parameters of RFC 8017, including an MGF1
// hash that differs from the message hash (as X.509 RSASSA-PSS parameters
// may say). crypto/rsa's PSSOptions always uses the message hash for MGF1.
type PSSParams struct {
	// Hash is the message digest's hash function.
	Hash crypto.Hash
	// MGFHash is MGF1's hash function; 0 means Hash.
	MGFHash crypto.Hash
	// SaltLength is the salt length in bytes, or PSSSaltLengthAuto,
	// PSSSaltLengthEqualsHash or PSSSaltLengthZero.
	SaltLength int
}

// errSaltLength is the error for a negative salt length that is none of
// the conventions.
func errSaltLength(n int) error {
	return fmt.Errorf("rsa: invalid PSS salt length %d (want a length in bytes, PSSSaltLengthAuto (0), PSSSaltLengthEqualsHash (-1) or PSSSaltLengthZero (-2))", n)
}

// pssOptionsSaltLength returns the salt length of crypto/rsa's PSS options
// (nil: PSSSaltLengthAuto) for PSSParams, or an error for a negative one
// other than PSSSaltLengthEqualsHash: crypto/rsa's conventions, in which
// PSSSaltLengthZero does not exist.
func pssOptionsSaltLength(opts *rsa.PSSOptions) (int, error) {
	if opts == nil {
		return PSSSaltLengthAuto, nil
	}
	if n := opts.SaltLength; n < PSSSaltLengthEqualsHash {
		return 0, fmt.Errorf("rsa: invalid PSS salt length %d (want a length in bytes, PSSSaltLengthAuto (0) or PSSSaltLengthEqualsHash (-1))", n)
	}
	return opts.SaltLength, nil
}

// sentinelError is one of crypto/rsa's sentinel errors with a message that
// says more: errors.Is(err, sentinel) holds, as it does for crypto/rsa's
// error in the same case.
type sentinelError struct {
	msg      string
	sentinel error
}

func (e *sentinelError) Error() string { return e.msg }
func (e *sentinelError) Unwrap() error { return e.sentinel }

func randOrDefault(r io.Reader) io.Reader {
	if r == nil {
		return rand.Reader
	}
	return r
}

// mgf1XOR XORs MGF1(seed, len(out)) with hash h into out.
func mgf1XOR(out []byte, h hash.Hash, seed []byte) {
	var counter [4]byte
	var digest []byte
	done := 0
	for done < len(out) {
		h.Reset()
		h.Write(seed)
		h.Write(counter[:])
		digest = h.Sum(digest[:0])
		n := subtle.XORBytes(out[done:], out[done:], digest)
		done += n
		for i := 3; i >= 0; i-- {
			counter[i]++
			if counter[i] != 0 {
				break
			}
		}
	}
	wipeBytes(digest)
}

// pssHashes resolves the parameters' hash functions.
func (p PSSParams) hashes() (h, mgf crypto.Hash, err error) {
	h, mgf = p.Hash, p.MGFHash
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

// SignPSS signs digest (the output of hash) with RSASSA-PSS, MGF1 with the
// same hash, and a salt read from random (crypto/rand when nil). The rules
// are crypto/rsa's: opts nil or PSSSaltLengthAuto gives the longest salt
// that fits, PSSSaltLengthEqualsHash the hash length, another negative
// length is an error; a non-zero opts.Hash overrides hash. A salt too long
// for the key is an error that matches ErrMessageTooLong (errors.Is).
func (priv *PrivateKey) SignPSS(random io.Reader, hash crypto.Hash, digest []byte, opts *rsa.PSSOptions) ([]byte, error) {
	priv.secret()
	if opts != nil && opts.Hash != 0 {
		hash = opts.Hash
	}
	saltLength, err := pssOptionsSaltLength(opts)
	if err != nil {
		return nil, err
	}
	return priv.SignPSSParams(random, digest, PSSParams{Hash: hash, SaltLength: saltLength})
}

// SignPSSParams signs digest with RSASSA-PSS and the full parameters p. A
// salt too long for the key is an error that matches ErrMessageTooLong
// (errors.Is).
func (priv *PrivateKey) SignPSSParams(random io.Reader, digest []byte, p PSSParams) ([]byte, error) {
	sk := priv.secret()
	h, mgf, err := p.hashes()
	if err != nil {
		return nil, err
	}
	// crypto/rsa's order: the salt length, then the digest, then whether
	// they fit.
	k := priv.pub.k
	emBits := priv.pub.pub.N.BitLen() - 1
	emLen := (emBits + 7) / 8
	sLen := p.SaltLength
	switch sLen {
	case PSSSaltLengthAuto:
		sLen = emLen - 2 - h.Size()
		if sLen < 0 {
			return nil, ErrMessageTooLong
		}
	case PSSSaltLengthEqualsHash:
		sLen = h.Size()
	case PSSSaltLengthZero:
		sLen = 0
	default:
		if sLen < 0 {
			return nil, errSaltLength(sLen)
		}
	}
	if len(digest) != h.Size() {
		return nil, errDigestLength(h, len(digest))
	}
	if emLen < h.Size()+sLen+2 {
		return nil, &sentinelError{fmt.Sprintf("rsa: a PSS salt of %d bytes is too long for a %d-bit modulus with hash function %s (at most %d bytes fit)", sLen, priv.pub.pub.N.BitLen(), h, max(emLen-h.Size()-2, 0)), ErrMessageTooLong}
	}
	if sk.std != nil && mgf == h && sLen > 0 { // crypto/rsa's salt length 0 means auto
		return stdSignPSS(random, sk.std, h, digest, sLen)
	}
	salt := make([]byte, sLen)
	if _, err := io.ReadFull(randOrDefault(random), salt); err != nil {
		return nil, err
	}

	// EM = maskedDB || H || 0xbc, written into the last emLen bytes of a
	// k-byte buffer (emLen is k or k-1).
	em := make([]byte, k)
	defer wipeBytes(em)
	e := em[k-emLen:]
	hLen := h.Size()
	hh := h.New()
	var zeros [8]byte
	hh.Write(zeros[:])
	hh.Write(digest)
	hh.Write(salt)
	H := hh.Sum(nil)
	db := e[:emLen-hLen-1]
	db[emLen-sLen-hLen-2] = 1
	copy(db[emLen-sLen-hLen-1:], salt)
	mgf1XOR(db, mgf.New(), H)
	db[0] &= 0xff >> (8*emLen - emBits)
	copy(e[emLen-hLen-1:], H)
	e[emLen-1] = 0xbc

	sig := make([]byte, k)
	if err := priv.privateOp(sig, em); err != nil {
		return nil, err
	}
	return sig, nil
}

// VerifyPSS checks an RSASSA-PSS signature over digest, the output of hash,
// with MGF1 of the same hash, as crypto/rsa's VerifyPSS does:
// opts.SaltLength PSSSaltLengthAuto (or nil opts) detects the salt length,
// PSSSaltLengthEqualsHash expects the hash's length, another negative one
// is an error, and opts.Hash is ignored. It returns ErrVerification for a
// signature that does not verify.
func (pub *PublicKey) VerifyPSS(hash crypto.Hash, digest, sig []byte, opts *rsa.PSSOptions) error {
	pub.mustBeMade()
	saltLength, err := pssOptionsSaltLength(opts)
	if err != nil {
		return err
	}
	return pub.VerifyPSSParams(digest, sig, PSSParams{Hash: hash, SaltLength: saltLength})
}

// VerifyPSSParams checks an RSASSA-PSS signature over digest with the full
// parameters p. It returns ErrVerification for a signature that does not
// verify and another error for unusable parameters.
func (pub *PublicKey) VerifyPSSParams(digest, sig []byte, p PSSParams) error {
	pub.mustBeMade()
	h, mgf, err := p.hashes()
	if err != nil {
		return err
	}
	hLen := h.Size()
	sLen := p.SaltLength
	auto := sLen == PSSSaltLengthAuto
	switch {
	case sLen == PSSSaltLengthEqualsHash:
		sLen = hLen
	case sLen == PSSSaltLengthZero:
		sLen = 0
	case sLen < 0:
		return errSaltLength(sLen)
	}
	if len(digest) != hLen || len(sig) != pub.k {
		return ErrVerification
	}
	if pub.std && mgf == h && (auto || sLen > 0) { // crypto/rsa's salt length 0 means auto
		return stdVerifyErr(rsa.VerifyPSS(&pub.pub, h, digest, sig, &rsa.PSSOptions{SaltLength: sLen}))
	}
	k := pub.k
	emBits := pub.pub.N.BitLen() - 1
	emLen := (emBits + 7) / 8
	em := make([]byte, k)
	if err := pub.publicOpVarTime(em, sig); err != nil {
		return ErrVerification
	}
	// When emLen == k-1 the leading byte must be zero.
	if emLen < k && em[0] != 0 {
		return ErrVerification
	}
	e := em[k-emLen:]
	if emLen < hLen+sLen+2 || e[emLen-1] != 0xbc {
		return ErrVerification
	}
	db := e[:emLen-hLen-1]
	H := e[emLen-hLen-1 : emLen-1]
	mask := byte(0xff >> (8*emLen - emBits))
	if db[0]&^mask != 0 {
		return ErrVerification
	}
	mgf1XOR(db, mgf.New(), H)
	db[0] &= mask
	if auto {
		ps := 0
		for ps < len(db) && db[ps] == 0 {
			ps++
		}
		if ps == len(db) || db[ps] != 1 {
			return ErrVerification
		}
		sLen = len(db) - ps - 1
	}
	psLen := emLen - hLen - sLen - 2
	for _, b := range db[:psLen] {
		if b != 0 {
			return ErrVerification
		}
	}
	if db[psLen] != 1 {
		return ErrVerification
	}
	hh := h.New()
	var zeros [8]byte
	hh.Write(zeros[:])
	hh.Write(digest)
	hh.Write(db[len(db)-sLen:])
	if subtle.ConstantTimeCompare(hh.Sum(nil), H) != 1 {
		return ErrVerification
	}
	return nil
}
