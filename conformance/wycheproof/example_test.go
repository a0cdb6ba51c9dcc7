package wycheproof_test

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"

	"github.com/vgcrypto/vg/conformance/wycheproof"
)

// ExampleLoadAEAD runs the valid 96-bit-nonce AES-GCM vectors against
// crypto/cipher.
func ExampleLoadAEAD() {
	f, err := wycheproof.LoadAEAD("aes_gcm_test.json")
	if err != nil {
		fmt.Println(err) // says how to fetch the pinned vectors
		return
	}
	pass := 0
	for _, g := range f.TestGroups {
		if g.IVSize != 96 {
			continue
		}
		for _, tc := range g.Tests {
			if !tc.Result.Valid() {
				continue
			}
			block, err := aes.NewCipher(tc.Key)
			if err != nil {
				panic(err)
			}
			aead, err := cipher.NewGCM(block)
			if err != nil {
				panic(err)
			}
			got := aead.Seal(nil, tc.IV, tc.Msg, tc.AAD)
			if string(got) == string(append(tc.CT, tc.Tag...)) {
				pass++
			}
		}
	}
	fmt.Println(f.Algorithm, f.Count(), "tests;", pass, "valid 96-bit-nonce vectors pass")
	// Output: AES-GCM 316 tests; 116 valid 96-bit-nonce vectors pass
}
