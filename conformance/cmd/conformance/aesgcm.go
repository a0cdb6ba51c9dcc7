package main

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"

	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/conformance/agree"
	"github.com/vgcrypto/vg/cpufeat"
)

// The aesgcm section: every available backend runs aes_gcm_test.json, then
// the backends agree with each other and with crypto/cipher's GCM.
func init() {
	setRun("aesgcm", aeadRun(aesgcmBackends, agree.Config{KeySizes: []int{16, 24, 32}, NonceSizes: []int{12, 16}}))
}

// aesgcmStream adapts the append-style *aesgcm.Encryptor to agree.Encryptor.
type aesgcmStream struct {
	e   *aesgcm.Encryptor
	out []byte
}

func (s *aesgcmStream) Write(p []byte) (int, error) {
	s.out = s.e.Encrypt(s.out, p)
	return len(p), nil
}

func (s *aesgcmStream) Finish(dst []byte) []byte { return s.e.Finish(append(dst, s.out...)) }

func aesgcmBackends() ([]aeadUnderTest, error) {
	// Under a mistyped VG_CPU_FEATURES the constructors follow its valid
	// names; the runner fails instead, so that it never reports on other
	// backends than the ones asked for.
	if err := cpufeat.Err(); err != nil {
		return nil, err
	}
	var bs []aeadUnderTest
	for _, b := range aesgcm.Backends() {
		if !b.Available {
			continue
		}
		name := b.Name
		bs = append(bs, aeadUnderTest{
			impl: agree.Impl{
				Name: name,
				New: func(key []byte, nonceSize int) (cipher.AEAD, error) {
					return aesgcm.Prepare(key, aesgcm.WithBackend(name), aesgcm.WithNonceSize(nonceSize))
				},
				NewEncryptor: func(a cipher.AEAD, nonce, ad []byte) (agree.Encryptor, error) {
					g, ok := a.(*aesgcm.AEAD)
					if !ok {
						return nil, fmt.Errorf("not an *aesgcm.AEAD: %T", a)
					}
					return &aesgcmStream{e: g.NewEncryptor(nonce, ad)}, nil
				},
			},
			vectors: func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
				return aesgcm.Prepare(key, aesgcm.WithBackend(name), aesgcm.WithNonceSize(nonceSize), aesgcm.WithTagSize(tagSize))
			},
		})
	}
	// crypto/cipher joins the agreement as an independent oracle.
	bs = append(bs, aeadUnderTest{
		impl: agree.Impl{Name: "crypto/cipher", New: func(key []byte, nonceSize int) (cipher.AEAD, error) {
			b, err := aes.NewCipher(key)
			if err != nil {
				return nil, err
			}
			return cipher.NewGCMWithNonceSize(b, nonceSize)
		}},
		vectors: func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
			b, err := aes.NewCipher(key)
			if err != nil {
				return nil, err
			}
			if nonceSize != 12 {
				return cipher.NewGCMWithNonceSize(b, nonceSize)
			}
			return cipher.NewGCMWithTagSize(b, tagSize)
		},
	})
	return bs, nil
}
