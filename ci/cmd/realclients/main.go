// Command realclients is the Go half of ci/realclients.sh, which runs the
// test suites of real programs (age, wireguard-go, quic-go) with vg swapped in
// for the AEADs they use. It has three subcommands:
//
//	realclients swap [-import old=new]... [-gcm file=n]... moddir pkgdir...
//	realclients count -label text results.json [rerun.json]
//	realclients compare [-rerun-list file] before.json after.json [rerun.json]
//
// swap edits, in place, the Go files of the packages pkgdir... (folders
// relative to moddir, the root of a copy of a client module):
//
//   - -import old=new rewrites the import path old to new in every Go file of
//     those packages (test files included, under every build tag); the
//     package name stays what the file used, so new must offer old's API.
//   - -gcm file=n rewrites, in that file, the n AES-GCM constructions
//     "X, err := aes.NewCipher(K)" + "if err != nil {...}" followed later by
//     cipher.NewGCM(X) or cipher.NewGCMWithRandomNonce(X) (X used nowhere
//     else, K an identifier or ident[:] not assigned after aes.NewCipher)
//     into a single aesgcm.New(K) or aesgcm.NewWithRandomNonce(K) from
//     github.com/vgcrypto/vg/aesgcm, dropping imports left unused.
//
// The edits are found on the syntax tree and made on the text at its
// positions, so the rest of each file stays byte for byte (then gofmt).
// It prints every edit as file:line: what, and fails (status 1) without
// writing anything when an -import matches no file, when the construction
// sites found in the non-test files differ from the -gcm list (a file with
// more, fewer, or unlisted sites), or when a site does not have the expected
// shape: the edits are pinned to the client versions the script downloads,
// and a new version must be reviewed, not rewritten blindly. After writing it
// parses the files again and fails if any old import path remains, or, with
// -gcm, any cipher.NewGCM/NewGCMWithRandomNonce call in a non-test file.
//
// count reads the output of go test -json and prints one line: label, then
// passed, failed and skipped tests (subtests included, as go test -json
// reports them), the packages, and the packages that failed without a failing
// test (a build error, a panic in init or TestMain). Given the output of a
// rerun of the tests that did not pass, it adds how many of them passed then.
//
// compare reads two go test -json outputs of the same tests, before (the
// client as published) and after (vg swapped in), and fails (status 1) listing
// every test that passed before and did not pass after (failed, skipped, or
// not run) and every package that failed after but not before. Tests that
// failed before are listed as a warning only: they say nothing about vg. With
// -rerun-list it writes the -run patterns that rerun the regressed tests; given
// the output of that rerun, it says for each regression whether it passed
// then (intermittent), which does not change the verdict.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
	realclients swap [-import old=new]... [-gcm file=n]... moddir pkgdir...
	realclients count -label text results.json [rerun.json]
	realclients compare [-rerun-list file] before.json after.json [rerun.json]`)
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	ok := true
	switch os.Args[1] {
	case "swap":
		ok, err = swapMain(os.Args[2:], os.Stdout)
	case "count":
		err = countMain(os.Args[2:], os.Stdout)
	case "compare":
		ok, err = compareMain(os.Args[2:], os.Stdout)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "realclients:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func swapMain(args []string, out io.Writer) (bool, error) {
	fs := flag.NewFlagSet("swap", flag.ContinueOnError)
	var imports, gcms listFlag
	fs.Var(&imports, "import", "rewrite import path `old=new` (repeatable)")
	fs.Var(&gcms, "gcm", "`file=n`: n AES-GCM construction sites in file (relative to moddir) to rewrite to aesgcm (repeatable)")
	if err := fs.Parse(args); err != nil {
		return false, err
	}
	if fs.NArg() < 2 {
		return false, fmt.Errorf("swap: want moddir and at least one pkgdir")
	}
	cfg := swapConfig{imports: map[string]string{}, gcm: map[string]int{}}
	for _, s := range imports {
		old, new, ok := strings.Cut(s, "=")
		if !ok || old == "" || new == "" {
			return false, fmt.Errorf("swap: -import %q: want old=new", s)
		}
		cfg.imports[old] = new
	}
	for _, s := range gcms {
		file, ns, ok := strings.Cut(s, "=")
		n, err := strconv.Atoi(ns)
		if !ok || err != nil || n < 1 {
			return false, fmt.Errorf("swap: -gcm %q: want file=n, n >= 1", s)
		}
		cfg.gcm[filepath.ToSlash(filepath.Clean(file))] = n
	}
	return swap(fs.Arg(0), fs.Args()[1:], cfg, out)
}

type swapConfig struct {
	imports map[string]string // old import path -> new
	gcm     map[string]int    // file (slash, relative to moddir) -> sites expected
}
