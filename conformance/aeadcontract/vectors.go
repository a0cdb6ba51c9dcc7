package aeadcontract

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"fmt"
	"testing"

	"github.com/vgcrypto/vg/conformance/wycheproof"
)

// NewVectorAEAD returns the AEAD for a Wycheproof test: key, nonce size and
// tag size in bytes. An error wrapping [errors.ErrUnsupported] means the
// implementation does not offer these parameters by design, and the test is
// skipped; any other error is a rejection.
type NewVectorAEAD func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error)

// VectorResult counts the outcomes of a file's tests.
type VectorResult struct {
	// Pass, Fail and Skip count the tests with each outcome; a test is
	// skipped when the constructor reports its parameters unsupported (an
	// error wrapping errors.ErrUnsupported).
	Pass, Fail, Skip int
	// Failures describes the failed tests, one line each.
	Failures []string
}

// RunVectors runs every test of an AEAD vector file. A valid test passes when
// Seal gives CT || Tag and Open gives Msg back; an invalid test passes when
// the constructor rejects its parameters or Open rejects it; an acceptable
// test passes when Open rejects it or returns Msg. A panic is a failure.
func RunVectors(f *wycheproof.AEADFile, newAEAD NewVectorAEAD) VectorResult {
	var r VectorResult
	for _, g := range f.TestGroups {
		for i := range g.Tests {
			tc := &g.Tests[i]
			skip, err := runVector(newAEAD, g.TagSize/8, tc)
			switch {
			case skip:
				r.Skip++
			case err != nil:
				r.Fail++
				r.Failures = append(r.Failures, fmt.Sprintf("%s %s: %v", f.Name, tc, err))
			default:
				r.Pass++
			}
		}
	}
	return r
}

// TestVectors runs [RunVectors], logs the counts and fails t on every failed
// test.
func TestVectors(t testing.TB, f *wycheproof.AEADFile, newAEAD NewVectorAEAD) VectorResult {
	t.Helper()
	r := RunVectors(f, newAEAD)
	for _, msg := range r.Failures {
		t.Error(msg)
	}
	t.Logf("%s: %d pass, %d fail, %d skip", f.Name, r.Pass, r.Fail, r.Skip)
	return r
}

func runVector(newAEAD NewVectorAEAD, tagSize int, tc *wycheproof.AEADTest) (skip bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	a, err := newAEAD(tc.Key, len(tc.IV), tagSize)
	if errors.Is(err, errors.ErrUnsupported) {
		return true, nil
	}
	if err != nil {
		if tc.Result.Valid() {
			return false, fmt.Errorf("constructor rejected a valid test: %w", err)
		}
		return false, nil
	}
	ct := append(bytes.Clone(tc.CT), tc.Tag...)
	if tc.Result.Valid() {
		if got := a.Seal(nil, tc.IV, tc.Msg, tc.AAD); !bytes.Equal(got, ct) {
			return false, fmt.Errorf("Seal = %s, want %s", short(got), short(ct))
		}
	}
	pt, openErr := a.Open(nil, tc.IV, ct, tc.AAD)
	switch {
	case tc.Result.Valid() && openErr != nil:
		return false, fmt.Errorf("Open rejected a valid test: %w", openErr)
	case tc.Result.Invalid() && openErr == nil:
		return false, errors.New("Open accepted an invalid test")
	case openErr == nil && !bytes.Equal(pt, tc.Msg):
		return false, fmt.Errorf("Open = %s, want %s", short(pt), short(tc.Msg))
	}
	return false, nil
}
