// Package wycheproof loads the Wycheproof test vectors vg is checked against,
// from one pinned version of github.com/C2SP/wycheproof.
//
// The vectors are not a Go dependency: the repository's go.mod declares its
// path in lower case (github.com/c2sp/wycheproof), so it cannot be required.
// [Dir] finds the module through the Go module cache instead, running
//
//	go mod download -json github.com/C2SP/wycheproof@v0.0.0-20250901140545-b51abcfb8daf
//
// which downloads it through the module proxy the first time (verified against
// the checksum database, and against [Sum] here). For machines without a
// proxy, VG_WYCHEPROOF_DIR names a directory holding testvectors_v1/ (a
// checkout of the pinned commit); it is trusted as is. When the vectors cannot
// be found, every loader returns an error that says how to fetch them: tests
// fail on it, they never skip.
//
// The files of testvectors_v1 are decoded into typed structs ([AEADFile],
// [RSASigFile], [RSASigGenFile], [RSAPSSFile], [RSADecryptFile]) strictly: a
// field, schema or group type vg does not model is an error, as is a file
// whose numberOfTests disagrees with the tests it holds.
package wycheproof

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// The pinned version of the vectors.
const (
	// Module is the module path, spelled as the proxy serves it.
	Module = "github.com/C2SP/wycheproof"
	// Version is the pinned pseudo-version (commit b51abcfb8daf).
	Version = "v0.0.0-20250901140545-b51abcfb8daf"
	// Commit is the full commit hash of Version.
	Commit = "b51abcfb8dafa5316791e57cf48512a2147d9671"
	// Sum is the module's go.sum hash at Version; a download whose hash
	// differs is rejected.
	Sum = "h1:5BKKVVVj676FUWirLcouEEL6GCYR9X0opkMlEUck8FY="
	// DirEnv overrides the module cache: a directory holding testvectors_v1/.
	DirEnv = "VG_WYCHEPROOF_DIR"
	// VectorsDir is the sub-directory of the repository vg reads.
	VectorsDir = "testvectors_v1"
)

// FetchCommand is the command that fetches the pinned vectors into the module
// cache.
const FetchCommand = "go mod download -json " + Module + "@" + Version

// Globs of the files each algorithm needs, relative to testvectors_v1/ (as
// [Files] takes them).
const (
	GlobAESGCM             = "aes_gcm_test.json"
	GlobChaCha20Poly1305   = "chacha20_poly1305_test.json"
	GlobXChaCha20Poly1305  = "xchacha20_poly1305_test.json"
	GlobRSASignature       = "rsa_signature_*_test.json"
	GlobRSASigGen          = "rsa_pkcs1_*_sig_gen_test.json"
	GlobRSAPSS             = "rsa_pss_*_test.json"
	GlobRSAPKCS1Decrypt    = "rsa_pkcs1_[0-9][0-9][0-9][0-9]_test.json"
	GlobRSAOAEP            = "rsa_oaep_*_test.json"
	GlobRSAThreePrimesOAEP = "rsa_three_primes_oaep_*_test.json"
)

// RSAGlobs returns the globs of every RSA file vg uses.
func RSAGlobs() []string {
	return []string{GlobRSASignature, GlobRSASigGen, GlobRSAPSS, GlobRSAPKCS1Decrypt, GlobRSAOAEP, GlobRSAThreePrimesOAEP}
}

var dirOnce = sync.OnceValues(func() (string, error) {
	return resolveDir(os.Getenv(DirEnv), nil)
})

// Dir returns the root of the pinned Wycheproof repository (the directory
// holding testvectors_v1/). It is resolved once per process: from
// VG_WYCHEPROOF_DIR when set, else by running [FetchCommand].
func Dir() (string, error) { return dirOnce() }

// resolveDir does Dir's work. override is VG_WYCHEPROOF_DIR; env, when not
// nil, replaces the go command's environment (tests use it to simulate an
// unreachable proxy).
func resolveDir(override string, env []string) (string, error) {
	if override != "" {
		if err := checkVectorsDir(override); err != nil {
			return "", fetchError(fmt.Errorf("%s=%q: %w", DirEnv, override, err))
		}
		return override, nil
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", fetchError(fmt.Errorf("the go command is not on PATH: %w", err))
	}
	cmd := exec.Command(goBin, "mod", "download", "-json", Module+"@"+Version)
	// Run outside any module or workspace: the download does not depend on
	// the caller's go.mod, and must not modify it.
	cmd.Dir = os.TempDir()
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(slices.Clip(env), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var info struct {
		Dir   string
		Sum   string
		Error string
	}
	if err := json.Unmarshal(out, &info); err != nil {
		return "", fetchError(fmt.Errorf("go mod download: %v (output %q, stderr %q)", errors.Join(runErr, err), truncate(string(out)), strings.TrimSpace(stderr.String())))
	}
	if info.Error != "" {
		return "", fetchError(errors.New(info.Error))
	}
	if runErr != nil {
		return "", fetchError(fmt.Errorf("go mod download: %v: %s", runErr, strings.TrimSpace(stderr.String())))
	}
	if info.Sum != Sum {
		return "", fetchError(fmt.Errorf("the module cache holds %s@%s with hash %s, want %s", Module, Version, info.Sum, Sum))
	}
	if err := checkVectorsDir(info.Dir); err != nil {
		return "", fetchError(err)
	}
	return info.Dir, nil
}

func checkVectorsDir(dir string) error {
	st, err := os.Stat(filepath.Join(dir, VectorsDir))
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", filepath.Join(dir, VectorsDir))
	}
	return nil
}

func fetchError(cause error) error {
	return fmt.Errorf("wycheproof: cannot locate the pinned vectors %s@%s: %w\n"+
		"fetch them (needs the module proxy) with:\n\t%s\n"+
		"or set %s to a directory holding %s/ from a checkout of commit %s",
		Module, Version, cause, FetchCommand, DirEnv, VectorsDir, Commit)
}

// Files returns the base names of the files in testvectors_v1/ matching glob
// (a [path.Match] pattern), sorted. A glob that matches nothing is an error.
func Files(glob string) ([]string, error) {
	if strings.ContainsRune(glob, '/') {
		return nil, fmt.Errorf("wycheproof: glob %q must name files in %s/, without a directory", glob, VectorsDir)
	}
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	paths, err := filepath.Glob(filepath.Join(dir, VectorsDir, glob))
	if err != nil {
		return nil, fmt.Errorf("wycheproof: glob %q: %w", glob, err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("wycheproof: no file in %s matches %q", filepath.Join(dir, VectorsDir), glob)
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	sort.Strings(names)
	return names, nil
}

// validator is implemented by the typed files: checkSchema runs before
// decoding (so that a file of another schema is reported as such, not as an
// unknown field), validate after.
type validator interface {
	checkSchema(schema string) error
	validate() error
}

// Load decodes testvectors_v1/name into v strictly: a JSON field v does not
// have is an error. When v is one of the package's file types (*AEADFile,
// ...), it also sets v's Name and checks the schema, the group types, the
// test count, unique tcIds and the flags.
func Load(name string, v any) error {
	data, err := read(name)
	if err != nil {
		return err
	}
	return decode(name, data, v)
}

func read(name string) ([]byte, error) {
	if name != filepath.Base(name) || name == "." || name == ".." {
		return nil, fmt.Errorf("wycheproof: %q is not a file name in %s/", name, VectorsDir)
	}
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, VectorsDir, name))
	if err != nil {
		return nil, fmt.Errorf("wycheproof: %w", err)
	}
	return data, nil
}

func decode(name string, data []byte, v any) error {
	val, typed := v.(validator)
	if typed {
		schema, err := peekSchema(name, data)
		if err != nil {
			return err
		}
		if err := val.checkSchema(schema); err != nil {
			return fmt.Errorf("wycheproof: %s: %w", name, err)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("wycheproof: %s: %w", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("wycheproof: %s: data after the top-level value", name)
	}
	if f, ok := v.(interface{ Info() *File }); ok {
		f.Info().Name = name
	}
	if typed {
		return val.validate()
	}
	return nil
}

func peekSchema(name string, data []byte) (string, error) {
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", fmt.Errorf("wycheproof: %s: %w", name, err)
	}
	return head.Schema, nil
}

// loadTyped loads name into a new Vectors[G].
func loadTyped[G Group](name string) (*Vectors[G], error) {
	v := new(Vectors[G])
	if err := Load(name, v); err != nil {
		return nil, err
	}
	return v, nil
}

// LoadAEAD loads an AEAD file, e.g. "aes_gcm_test.json".
func LoadAEAD(name string) (*AEADFile, error) { return loadTyped[AEADGroup](name) }

// LoadRSASig loads a PKCS #1 v1.5 signature-verification file
// (rsa_signature_*).
func LoadRSASig(name string) (*RSASigFile, error) { return loadTyped[RSASigGroup](name) }

// LoadRSASigGen loads a PKCS #1 v1.5 signature-generation file
// (rsa_pkcs1_*_sig_gen_*).
func LoadRSASigGen(name string) (*RSASigGenFile, error) { return loadTyped[RSASigGenGroup](name) }

// LoadRSAPSS loads an RSA-PSS verification file (rsa_pss_*, with or without
// _params).
func LoadRSAPSS(name string) (*RSAPSSFile, error) { return loadTyped[RSAPSSGroup](name) }

// LoadRSADecrypt loads a PKCS #1 v1.5 (rsa_pkcs1_{2048,3072,4096}_test.json)
// or OAEP (rsa_oaep_*, rsa_three_primes_oaep_*) decryption file.
func LoadRSADecrypt(name string) (*RSADecryptFile, error) { return loadTyped[RSADecryptGroup](name) }

// VectorFile is any loaded file: [*AEADFile], [*RSASigFile],
// [*RSASigGenFile], [*RSAPSSFile] or [*RSADecryptFile].
type VectorFile interface {
	// Info returns the fields every file has.
	Info() *File
	// Count returns the number of tests in the file.
	Count() int
}

// LoadFile loads any file of a modelled schema, choosing the type from the
// file's "schema" field. A schema vg does not model is an error.
func LoadFile(name string) (VectorFile, error) {
	data, err := read(name)
	if err != nil {
		return nil, err
	}
	schema, err := peekSchema(name, data)
	if err != nil {
		return nil, err
	}
	var v VectorFile
	switch {
	case hasSchema[AEADGroup](schema):
		v = new(AEADFile)
	case hasSchema[RSASigGroup](schema):
		v = new(RSASigFile)
	case hasSchema[RSASigGenGroup](schema):
		v = new(RSASigGenFile)
	case hasSchema[RSAPSSGroup](schema):
		v = new(RSAPSSFile)
	case hasSchema[RSADecryptGroup](schema):
		v = new(RSADecryptFile)
	default:
		return nil, fmt.Errorf("wycheproof: %s: schema %q is not modelled", name, schema)
	}
	if err := decode(name, data, v); err != nil {
		return nil, err
	}
	return v, nil
}

func hasSchema[G Group](schema string) bool {
	var zero G
	_, ok := zero.schemas()[schema]
	return ok
}
