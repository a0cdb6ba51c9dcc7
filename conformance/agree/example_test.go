package agree_test

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"

	"github.com/vgcrypto/vg/conformance/agree"
)

// ExampleCheck compares two ways of building AES-GCM; a backend of vg would be
// one more Impl, with its SealGather and NewEncryptor when it has them.
func ExampleCheck() {
	newGCM := func(key []byte, nonceSize int) (cipher.AEAD, error) {
		b, err := aes.NewCipher(key)
		if err != nil {
			return nil, err
		}
		return cipher.NewGCMWithNonceSize(b, nonceSize)
	}
	newGCM12 := func(key []byte, _ int) (cipher.AEAD, error) {
		b, err := aes.NewCipher(key)
		if err != nil {
			return nil, err
		}
		return cipher.NewGCM(b)
	}
	report, err := agree.Check(agree.Config{KeySizes: []int{16, 32}, MaxLen: 64, Seed: 1, Short: true},
		agree.Impl{Name: "with-nonce-size", New: newGCM},
		agree.Impl{Name: "standard", New: newGCM12})
	if err != nil {
		fmt.Println(err) // a *agree.Disagreement names the input
		return
	}
	fmt.Println(report.Impls, "agree")
	// Output: [with-nonce-size standard] agree
}
