package rsa_test

import (
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"fmt"
	"os"

	"github.com/vgcrypto/vg/rsa"
)

func Example() {
	pemData, err := os.ReadFile("testdata/rsa2048.pem")
	if err != nil {
		panic(err)
	}
	priv, err := rsa.ParsePEMPrivateKey(pemData)
	if err != nil {
		panic(err)
	}

	digest := sha256.Sum256([]byte("message"))
	sig, err := priv.Sign(rand.Reader, digest[:], &stdrsa.PSSOptions{Hash: crypto.SHA256})
	if err != nil {
		panic(err)
	}
	// Anyone can verify with crypto/rsa, or with a prepared vg public key.
	pub := priv.Public().(*stdrsa.PublicKey)
	fmt.Println(stdrsa.VerifyPSS(pub, crypto.SHA256, digest[:], sig, nil) == nil)
	fmt.Println(priv.PublicKey().VerifyPSS(crypto.SHA256, digest[:], sig, nil) == nil)
	// Output:
	// true
	// true
}

func ExamplePrivateKey_Decrypt() {
	pemData, _ := os.ReadFile("testdata/rsa2048.pem")
	priv, err := rsa.ParsePEMPrivateKey(pemData)
	if err != nil {
		panic(err)
	}
	ct, err := stdrsa.EncryptOAEP(sha256.New(), rand.Reader, priv.Public().(*stdrsa.PublicKey), []byte("secret"), nil)
	if err != nil {
		panic(err)
	}
	pt, err := priv.Decrypt(nil, ct, &stdrsa.OAEPOptions{Hash: crypto.SHA256})
	fmt.Println(string(pt), err)
	// Output: secret <nil>
}

func ExampleBackends() {
	for _, b := range rsa.Backends() {
		if b.Name == "generic" {
			fmt.Println(b.Name, b.Requires, b.Available)
		}
	}
	// Output: generic none true
}

func ExampleWithBackend() {
	pemData, _ := os.ReadFile("testdata/rsa1024.pem")
	priv, err := rsa.ParsePEMPrivateKey(pemData, rsa.WithBackend("generic"))
	if err != nil {
		panic(err)
	}
	fmt.Println(priv.Backend())
	// Output: generic
}
