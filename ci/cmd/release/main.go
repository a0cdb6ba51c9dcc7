// Command release releases vg's public modules one at a time, checks what was
// released, and serves it as a module proxy.
//
//	release [-w]      plan the releases HEAD needs; -w makes them
//	release check     fail unless every release is sound and HEAD is released
//	release proxy DIR write every recorded release as a GOPROXY=file://DIR proxy
//	release tags      create the git tag of every recorded release that lacks one
//
// The released modules are the roots (aesgcm, chacha20poly1305, rsa, cpufeat,
// stackscratch) and every vg module they require. A
// release is one line of ci/releases.txt: module directory, version, commit
// and the module's content hash (go.sum's h1: of the module zip made from that
// commit). The tags (aesgcm/v0.1.0, ...) are made from that file, which is
// committed, so the releases travel with the history even when tags do not.
//
// Planning walks the released modules with the ones they require first. A
// module needs a release when it was never released, when its content at HEAD
// differs from its last release, or when its go.mod must require a sibling at
// a version being released. The step comes from golang.org/x/exp/apidiff
// between the last release and HEAD over the module's packages (every package
// another vg module can import, the shared internal ones included, since a
// user's build mixes versions): an incompatible change takes the major step
// (at v0, the minor one), added API the minor step, anything else a patch; a
// first release is v0.1.0. With -w, on a clean tree, release rewrites every
// go.mod in the tree to require the released modules at their new versions,
// commits that, records the releases with that commit, and commits the record.
//
// check fails when a recorded hash is not what its commit holds, when a
// released go.mod requires a vg module at a version never released, when a
// released module's content at HEAD differs from its last release, and when
// apidiff finds an incompatible change between two consecutive releases
// without a major step (or added API in a patch release).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// recordsFile is where the releases are recorded, relative to the checkout.
const recordsFile = "ci/releases.txt"

// roots are the module directories users import; what they require is
// released with them.
// cmd/cpufeat is not one: go run and go install of pkg@version refuse
// a module whose go.mod has replace directives, which the checkout needs.
var roots = []string{"aesgcm", "chacha20poly1305", "rsa", "cpufeat", "stackscratch"}

func main() {
	flag.Usage = func() {
		fmt.Fprint(os.Stderr, `usage:
	release [-w]       plan the releases HEAD needs; -w makes them
	release check      fail unless every release is sound and HEAD is released
	release proxy DIR  write every recorded release as a GOPROXY=file://DIR proxy
	release tags       create the git tags of recorded releases that lack one
`)
		flag.PrintDefaults()
	}
	write := flag.Bool("w", false, "make the planned releases: rewrite the go.mod files, commit, record, commit")
	flag.Parse()
	if err := run(*write, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(write bool, args []string) error {
	top, err := gitOut(".", "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	r, err := openRepo(strings.TrimSpace(top), roots)
	if err != nil {
		return err
	}
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	switch {
	case cmd == "" && len(args) == 0:
		return r.release(os.Stdout, write)
	case cmd == "check" && len(args) == 1 && !write:
		return r.check(os.Stdout)
	case cmd == "proxy" && len(args) == 2 && !write:
		return r.proxy(args[1])
	case cmd == "tags" && len(args) == 1 && !write:
		return r.tags(os.Stdout)
	}
	flag.Usage()
	os.Exit(2)
	return nil
}
