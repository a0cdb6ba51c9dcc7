package vectors

import (
	"bytes"
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"fmt"
	"io"
	mathrand "math/rand/v2"

	spec "github.com/vgcrypto/vg/conformance/spec/rsa"
	"github.com/vgcrypto/vg/rsa"
)

// fixedReader returns the same stream for the same seed, so vg and the
// reference draw the same salt, seed or padding.
func fixedReader(seed uint64) io.Reader {
	return mathrand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), 1})
}

// Agree checks one backend on key std against the math/big reference
// (spec/rsa, RSADP without CRT) and crypto/rsa, for msgs random messages:
// PKCS #1 v1.5 signatures byte for byte (SHA-256, SHA-384, SHA-1); PSS with
// the same salt byte for byte (and crypto/rsa verifying vg's randomized
// PSS); OAEP with the same seed byte for byte and both decryptions; PKCS #1
// v1.5 encryption both ways; and the raw private operation (hash 0). It
// returns the first disagreement.
func Agree(backend string, std *stdrsa.PrivateKey, msgs int, seed uint64) error {
	ref := &spec.PrivateKey{PublicKey: spec.PublicKey{N: std.N, E: std.E}, D: std.D}
	priv, err := rsa.NewPrivateKey(std, rsa.WithBackend(backend))
	if err != nil {
		return err
	}
	r := mathrand.New(mathrand.NewPCG(seed, uint64(std.N.BitLen())))
	for i := range msgs {
		msg := make([]byte, r.IntN(100))
		for j := range msg {
			msg[j] = byte(r.Uint32())
		}
		if err := agreeOne(std, ref, priv, msg, seed+uint64(i)); err != nil {
			return fmt.Errorf("%s, %d-bit key, message %d: %w", backend, std.N.BitLen(), i, err)
		}
	}
	return nil
}

func same(what string, got, want []byte, err1, err2 error) error {
	if err1 != nil || err2 != nil {
		return fmt.Errorf("%s: errors %v / %v", what, err1, err2)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s: outputs differ", what)
	}
	return nil
}

func agreeOne(std *stdrsa.PrivateKey, ref *spec.PrivateKey, priv *rsa.PrivateKey, msg []byte, seed uint64) error {
	pub := priv.PublicKey()
	for _, h := range []crypto.Hash{crypto.SHA256, crypto.SHA384, crypto.SHA1} {
		hashed := digest(h, msg)

		want, err1 := spec.SignPKCS1v15(ref, h, hashed)
		got, err2 := priv.Sign(nil, hashed, h)
		if err := same("PKCS1v15 sign vs spec "+h.String(), got, want, err1, err2); err != nil {
			return err
		}
		stdSig, err1 := stdrsa.SignPKCS1v15(nil, std, h, hashed)
		if err := same("PKCS1v15 sign vs crypto/rsa "+h.String(), got, stdSig, err1, nil); err != nil {
			return err
		}

		sLen := 20 + int(seed%16)
		if priv.Size() < h.Size()+sLen+2 {
			continue
		}
		p := rsa.PSSParams{Hash: h, MGFHash: crypto.SHA256, SaltLength: sLen}
		got, err2 = priv.SignPSSParams(fixedReader(seed), hashed, p)
		salt := make([]byte, sLen)
		io.ReadFull(fixedReader(seed), salt)
		want, err1 = spec.SignPSS(ref, h, crypto.SHA256, hashed, salt)
		if err := same("PSS sign vs spec "+h.String(), got, want, err1, err2); err != nil {
			return err
		}
		if err := pub.VerifyPSSParams(hashed, want, p); err != nil {
			return fmt.Errorf("PSS verify of the spec's signature: %w", err)
		}
		got, err2 = priv.Sign(rand.Reader, hashed, &stdrsa.PSSOptions{Hash: h})
		if err2 != nil {
			return err2
		}
		if err := stdrsa.VerifyPSS(&std.PublicKey, h, hashed, got, nil); err != nil {
			return fmt.Errorf("crypto/rsa rejects vg's PSS signature: %w", err)
		}
	}

	label := []byte("agreement")
	m := msg[:min(len(msg), priv.Size()-2*32-2)]
	got, err2 := pub.EncryptOAEP(fixedReader(seed), crypto.SHA256, crypto.SHA1, m, label)
	oseed := make([]byte, 32)
	io.ReadFull(fixedReader(seed), oseed)
	want, err1 := spec.EncryptOAEP(&ref.PublicKey, crypto.SHA256, crypto.SHA1, m, label, oseed)
	if err := same("OAEP encrypt vs spec", got, want, err1, err2); err != nil {
		return err
	}
	pt, err2 := priv.DecryptOAEP(crypto.SHA256, crypto.SHA1, want, label)
	if err := same("OAEP decrypt", pt, m, nil, err2); err != nil {
		return err
	}

	ps := make([]byte, priv.Size()-len(m)-3)
	for i := range ps {
		ps[i] = byte(i*7+int(seed))%255 + 1
	}
	ct, err1 := spec.EncryptPKCS1v15(&ref.PublicKey, m, ps)
	if err1 != nil {
		return err1
	}
	pt, err2 = priv.Decrypt(nil, ct, nil)
	if err := same("PKCS1v15 decrypt of the spec's ciphertext", pt, m, nil, err2); err != nil {
		return err
	}
	ct, err2 = pub.EncryptPKCS1v15(nil, m)
	if err2 != nil {
		return err2
	}
	pt, err1 = spec.DecryptPKCS1v15(ref, ct)
	if err := same("spec decrypt of vg's PKCS1v15 ciphertext", pt, m, err1, nil); err != nil {
		return err
	}
	pt, err1 = stdrsa.DecryptPKCS1v15(nil, std, ct)
	if err := same("crypto/rsa decrypt of vg's PKCS1v15 ciphertext", pt, m, err1, nil); err != nil {
		return err
	}

	raw := make([]byte, 20)
	io.ReadFull(fixedReader(seed+100), raw)
	got, err2 = priv.Sign(nil, raw, crypto.Hash(0))
	want, err1 = spec.SignPKCS1v15(ref, 0, raw)
	return same("raw private operation vs RSADP", got, want, err1, err2)
}
