package main

import (
	"crypto/rand"
	stdrsa "crypto/rsa"
	"errors"

	"github.com/vgcrypto/vg/conformance/spec/rsa/vectors"
	"github.com/vgcrypto/vg/conformance/wycheproof"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/rsa"
)

// The rsa section: every available backend runs every Wycheproof RSA file
// (signature verification, PKCS #1 v1.5 signing, PSS with and without key
// parameters, PKCS #1 v1.5 and OAEP decryption, three-prime rejection), then
// each backend agrees with the math/big reference and crypto/rsa on fresh
// 1024- and 2048-bit keys (vectors.Agree).
func init() { setRun("rsa", rsaRun) }

func rsaBackends() ([]string, error) {
	// See aesgcmBackends.
	if err := cpufeat.Err(); err != nil {
		return nil, err
	}
	var names []string
	for _, b := range rsa.Backends() {
		if b.Available {
			names = append(names, b.Name)
		}
	}
	if len(names) == 0 {
		return nil, errors.New("no backends")
	}
	return names, nil
}

func rsaRun(files []wycheproof.VectorFile) ([]row, error) {
	backends, err := rsaBackends()
	if err != nil {
		return nil, err
	}
	var keys []*stdrsa.PrivateKey
	for _, bits := range []int{1024, 2048} {
		k, err := stdrsa.GenerateKey(rand.Reader, bits)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	var rows []row
	for _, b := range backends {
		var agreeErr error
		for i, k := range keys {
			if agreeErr = vectors.Agree(b, k, 3, uint64(i)); agreeErr != nil {
				break
			}
		}
		agreement := "ok"
		if agreeErr != nil {
			agreement = "FAIL"
		}
		for _, vf := range files {
			res, err := vectors.RunFile(vf, b)
			if err != nil {
				rows = append(rows, row{backend: b, file: vf.Info().Name, err: err})
				continue
			}
			r := row{backend: b, file: res.File, pass: res.Pass, fail: res.Fail, skip: res.Skip, agreement: agreement}
			if len(res.Failures) > 0 {
				r.err = errors.New(res.Failures[0])
			}
			rows = append(rows, r)
		}
		if agreeErr != nil {
			rows = append(rows, row{backend: b, agreement: "FAIL", err: agreeErr})
		}
	}
	return rows, nil
}
