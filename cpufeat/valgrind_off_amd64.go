//go:build !valgrind && amd64 && gc && !purego && !vgsim

package cpufeat

// valgrindDecodes returns nothing: without the build tag valgrind,
// detection is the CPU's (see valgrind_amd64.go).
func valgrindDecodes() Set { return 0 }
