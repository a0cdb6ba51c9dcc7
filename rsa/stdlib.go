package rsa

import (
	"crypto"
	"crypto/rsa"
	"io"
	"math/big"
)

// stdlibBackend is the backend that runs crypto/rsa's operations, built
// where crypto/rsa's arithmetic has assembly and vg has none
// (rsa_stdlib.go): there vg is never slower than crypto/rsa. Its key is the
// generic one, on which NewPrivateKey validates the key as for every
// backend; each operation then checks its arguments with vg's code and
// hands them to crypto/rsa (the std* functions below), so errors for bad
// arguments are vg's and results are crypto/rsa's. What crypto/rsa cannot
// express runs on the generic code: PSS with an MGF1 hash other than the
// message hash, and PSS with a salt length of zero (crypto/rsa's zero means
// auto).
const stdlibBackend = "stdlib"

// stdPrivateKey returns a copy of k, precomputed, for the stdlib backend:
// vg's own copy, which Wipe can zero (wipeStd), unlike k.
func stdPrivateKey(k *rsa.PrivateKey) *rsa.PrivateKey {
	c := &rsa.PrivateKey{
		PublicKey: rsa.PublicKey{N: new(big.Int).Set(k.N), E: k.E},
		D:         new(big.Int).Set(k.D),
		Primes:    []*big.Int{new(big.Int).Set(k.Primes[0]), new(big.Int).Set(k.Primes[1])},
	}
	c.Precompute()
	return c
}

// wipeStd zeroes the words of every secret number of k. crypto/rsa's
// Precompute also keeps its own form of the key in an unexported field,
// which Wipe cannot reach: the garbage collector frees it unzeroed.
func wipeStd(k *rsa.PrivateKey) {
	for _, x := range append([]*big.Int{k.D, k.Precomputed.Dp, k.Precomputed.Dq, k.Precomputed.Qinv}, k.Primes...) {
		if x != nil {
			clear(x.Bits())
		}
	}
	for _, v := range k.Precomputed.CRTValues {
		for _, x := range []*big.Int{v.Exp, v.Coeff, v.R} {
			if x != nil {
				clear(x.Bits())
			}
		}
	}
}

// stdDecryptErr maps every failure of a crypto/rsa decryption to the one
// error vg's decryptions return: whatever failed stays unsaid.
func stdDecryptErr(out []byte, err error) ([]byte, error) {
	if err != nil {
		return nil, ErrDecryption
	}
	return out, nil
}

// stdVerifyErr maps a failed crypto/rsa verification to ErrVerification,
// as vg's own verifications say it.
func stdVerifyErr(err error) error {
	if err != nil {
		return ErrVerification
	}
	return nil
}

// stdSignPSS signs with crypto/rsa's SignPSS and an explicit salt length,
// the salt from random (crypto/rand when nil, as in vg's code).
func stdSignPSS(random io.Reader, k *rsa.PrivateKey, h crypto.Hash, digest []byte, sLen int) ([]byte, error) {
	return rsa.SignPSS(randOrDefault(random), k, h, digest, &rsa.PSSOptions{SaltLength: sLen, Hash: h})
}
