package main

import (
	"crypto/cipher"
	"errors"
	"fmt"

	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/conformance/agree"
	"github.com/vgcrypto/vg/cpufeat"
	xchacha "golang.org/x/crypto/chacha20poly1305"
)

// The chacha20poly1305 and xchacha20poly1305 sections: every available
// backend runs chacha20_poly1305_test.json (New) or
// xchacha20_poly1305_test.json (NewX), then the backends (with SealGather
// and the Encryptor) agree with each other and with
// golang.org/x/crypto/chacha20poly1305.
func init() {
	setRun("chacha20poly1305", aeadRun(func() ([]aeadUnderTest, error) { return chachaBackends(false) },
		agree.Config{KeySizes: []int{chacha20poly1305.KeySize}, NonceSizes: []int{chacha20poly1305.NonceSize}}))
	setRun("xchacha20poly1305", aeadRun(func() ([]aeadUnderTest, error) { return chachaBackends(true) },
		agree.Config{KeySizes: []int{chacha20poly1305.KeySize}, NonceSizes: []int{chacha20poly1305.NonceSizeX}}))
}

// chachaStream adapts the append-style *chacha20poly1305.Encryptor to
// agree.Encryptor.
type chachaStream struct {
	e   *chacha20poly1305.Encryptor
	out []byte
}

func (s *chachaStream) Write(p []byte) (int, error) {
	s.out = s.e.Encrypt(s.out, p)
	return len(p), nil
}

func (s *chachaStream) Finish(dst []byte) []byte { return s.e.Finish(append(dst, s.out...)) }

// errParams rejects a Wycheproof test whose nonce or tag length the
// construction does not have: Seal and Open would panic on such a nonce, as
// crypto/cipher's contract says, so the test cannot run through them.
var errParams = errors.New("parameters not supported by the construction")

// chachaBackends lists the implementations of one construction (x: the
// XChaCha20 one): each available backend, then x/crypto as the independent
// oracle of the agreement.
func chachaBackends(x bool) ([]aeadUnderTest, error) {
	// See aesgcmBackends.
	if err := cpufeat.Err(); err != nil {
		return nil, err
	}
	newFunc := chacha20poly1305.Prepare
	if x {
		newFunc = chacha20poly1305.PrepareX
	}
	var bs []aeadUnderTest
	for _, b := range chacha20poly1305.Backends() {
		if !b.Available {
			continue
		}
		name := b.Name
		mk := func(key []byte) (cipher.AEAD, error) { return newFunc(key, chacha20poly1305.WithBackend(name)) }
		bs = append(bs, aeadUnderTest{
			impl: agree.Impl{
				Name: name,
				New:  func(key []byte, _ int) (cipher.AEAD, error) { return mk(key) },
				NewEncryptor: func(a cipher.AEAD, nonce, ad []byte) (agree.Encryptor, error) {
					c, ok := a.(*chacha20poly1305.AEAD)
					if !ok {
						return nil, fmt.Errorf("not a *chacha20poly1305.AEAD: %T", a)
					}
					return &chachaStream{e: c.NewEncryptor(nonce, ad)}, nil
				},
			},
			vectors: chachaVectors(mk),
		})
	}
	ref := func(key []byte) (cipher.AEAD, error) {
		if x {
			return xchacha.NewX(key)
		}
		return xchacha.New(key)
	}
	bs = append(bs, aeadUnderTest{
		impl:    agree.Impl{Name: "x/crypto", New: func(key []byte, _ int) (cipher.AEAD, error) { return ref(key) }},
		vectors: chachaVectors(ref),
	})
	return bs, nil
}

// chachaVectors adapts a constructor to the Wycheproof runner: a nonce or
// tag size the construction does not have is a rejection.
func chachaVectors(mk func([]byte) (cipher.AEAD, error)) func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
	return func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
		a, err := mk(key)
		if err != nil {
			return nil, err
		}
		if nonceSize != a.NonceSize() || tagSize != a.Overhead() {
			return nil, fmt.Errorf("%w: %d-byte nonce, %d-byte tag", errParams, nonceSize, tagSize)
		}
		return a, nil
	}
}
