//go:build valgrind && amd64 && gc && !purego && !vgsim

package cpufeat

// valgrindRequest is valgrind's client request (valgrind_amd64.s): it
// returns 0 natively.
//
//go:noescape
func valgrindRequest(req *[6]uintptr) uintptr

// adcxAdox returns a+b+1 through ADCX (with CF set) and c+d+1 through ADOX
// (with OF set), the two carry chains of rsa's adx kernels, for
// TestCTGrindDecodesADX.
func adcxAdox(a, b, c, d uint64) (x, y uint64)

// reqRunningOnValgrind is RUNNING_ON_VALGRIND's request code (valgrind.h).
const reqRunningOnValgrind = 0x1001

// underValgrind reports whether the program runs under valgrind.
func underValgrind() bool {
	req := [6]uintptr{reqRunningOnValgrind}
	return valgrindRequest(&req) != 0
}

// valgrindDecodes returns, under valgrind, the features its CPU decodes but
// its CPUID hides, so that the build ci/cmd/ctgrind makes (build tag
// valgrind) runs every backend valgrind can run: ADX. Valgrind's amd64
// front end (VEX) translates ADCX and ADOX, and memcheck tracks the
// definedness of both carry chains, but the CPUID valgrind reports never
// sets the ADX bit (checked with valgrind 3.19: TestCTGrindDecodesADX), so
// rsa's adx backend would not be chosen there. Natively, and without the
// build tag, it returns nothing.
func valgrindDecodes() Set {
	if !underValgrind() {
		return 0
	}
	return Of(ADX)
}
