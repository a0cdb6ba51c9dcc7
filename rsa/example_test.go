package rsa_test

import (
	"crypto"
	"crypto/rand"
	stdrsa "crypto/rsa"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"

	"github.com/vgcrypto/vg/rsa"
)

func Example() {
	// A key from crypto/rsa (generated here; usually loaded), prepared once
	// for the constant-time private-key operations.
	std, err := stdrsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	priv, err := rsa.NewPrivateKey(std)
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
	std, err := stdrsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	priv, err := rsa.NewPrivateKey(std)
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

func ExamplePrivateKey_Wipe() {
	std, err := stdrsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	priv, err := rsa.NewPrivateKey(std)
	if err != nil {
		panic(err)
	}
	digest := sha256.Sum256([]byte("message"))
	sig, err := priv.Sign(rand.Reader, digest[:], crypto.SHA256)
	if err != nil {
		panic(err)
	}

	// The key is no longer needed: zero its secrets. Every copy of priv is
	// wiped with it; its public key is not secret and still verifies.
	copied := *priv
	priv.Wipe()
	fmt.Println(priv.PublicKey().VerifyPKCS1v15(crypto.SHA256, digest[:], sig))
	defer func() { fmt.Println(recover()) }()
	copied.Sign(rand.Reader, digest[:], crypto.SHA256)
	// Output:
	// <nil>
	// rsa: use of a wiped key
}

func ExampleParsePEMPrivateKey() {
	// A PKCS #8 PEM key, as openssl genpkey or x509.MarshalPKCS8PrivateKey
	// write it ("RSA PRIVATE KEY", PKCS #1, works too).
	std, err := stdrsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(std)
	if err != nil {
		panic(err)
	}
	pemData := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})

	priv, err := rsa.ParsePEMPrivateKey(pemData)
	if err != nil {
		panic(err)
	}
	fmt.Println(priv.Size()*8, priv.Public().(*stdrsa.PublicKey).Equal(&std.PublicKey))
	// Output: 2048 true
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
	std, err := stdrsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	priv, err := rsa.NewPrivateKey(std, rsa.WithBackend("generic"))
	if err != nil {
		panic(err)
	}
	fmt.Println(priv.Backend())
	// Output: generic
}

// A vg key as the key of a crypto/tls server certificate: crypto/tls signs
// the handshake (PSS, PKCS #1 v1.5, or MD5+SHA1 in TLS 1.0 and 1.1) and
// decrypts RSA key exchanges through it. This example is compiled, not run:
// it listens on a port.
func Example_tlsServer() {
	std, err := stdrsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	priv, err := rsa.NewPrivateKey(std)
	if err != nil {
		panic(err)
	}
	var certDER []byte // the certificate for priv.Public(), from a CA or x509.CreateCertificate(..., priv)
	config := &tls.Config{Certificates: []tls.Certificate{{
		Certificate: [][]byte{certDER},
		PrivateKey:  priv,
	}}}
	ln, err := tls.Listen("tcp", ":8443", config)
	if err != nil {
		panic(err)
	}
	defer ln.Close()
}
