package cpufeat_test

import (
	"fmt"

	"github.com/vgcrypto/vg/cpufeat"
)

// Whether a backend name is declared for an algorithm, and what it needs:
// the names the modules' WithBackend options take.
func ExampleLookup() {
	for _, name := range []string{"vaes-avx2", "avx2", "generic"} {
		b, ok := cpufeat.Lookup(cpufeat.AESGCM, name)
		fmt.Printf("aesgcm %q declared: %v, requires: %s\n", name, ok, b.Requires)
	}
	// Output:
	// aesgcm "vaes-avx2" declared: true, requires: avx,avx2,vaes,vpclmulqdq
	// aesgcm "avx2" declared: false, requires: none
	// aesgcm "generic" declared: true, requires: none
}

// The declared backends of an algorithm, best first.
func ExampleBackends() {
	for _, b := range cpufeat.Backends(cpufeat.ChaCha20Poly1305) {
		fmt.Printf("%-8s %s\n", b.Name, b.Requires)
	}
	// Output:
	// avx512   avx,avx2,bmi2,avx512f,avx512bw,avx512vl
	// avx2     avx,avx2
	// ssse3    ssse3
	// stdlib   stdchacha20
	// generic  none
}

// What VG_CPU_FEATURES enables on a machine with a given set of features:
// never more than the machine has. A name brings what it implies (avx2
// brings avx), and a configuration name stands for its list. The baseline (sse2 on amd64, nothing
// in a purego build) stays enabled whatever the value; the example prints
// what is enabled beyond it.
func ExampleApplyOverride() {
	detected := cpufeat.Of(cpufeat.SSE2, cpufeat.SSSE3, cpufeat.AVX, cpufeat.AVX2)
	for _, value := range []string{"", "none", "ssse3", "avx2", "avx2-adx", "avx,avx2,avx512f", "avx3"} {
		enabled, err := cpufeat.ApplyOverride(value, detected)
		fmt.Printf("%q: %s (%v)\n", value, enabled.Without(cpufeat.Of(cpufeat.SSE2)), err)
	}
	// Output:
	// "": ssse3,avx,avx2 (<nil>)
	// "none": none (<nil>)
	// "ssse3": ssse3 (<nil>)
	// "avx2": avx,avx2 (<nil>)
	// "avx2-adx": avx,avx2 (<nil>)
	// "avx,avx2,avx512f": avx,avx2 (<nil>)
	// "avx3": none (cpufeat: VG_CPU_FEATURES="avx3": unknown feature name "avx3" (valid: all, none, sse2, ssse3, sse41, avx, avx2, bmi1, bmi2, adx, aes, pclmulqdq, vaes, vpclmulqdq, avx512f, avx512bw, avx512dq, avx512vl, avx512ifma, avx512vbmi, stdaes, stdchacha20, stdrsa; or a configuration: ssse3, aesni, aesni-avx, avx2-adx, vaes-avx2, avx512-noifma, stdlib))
}

// The backend a module chooses for a set of enabled features, among the
// ones it implements.
func ExampleSelect() {
	implemented := []string{"generic", "ssse3", "avx2"}
	for _, s := range []cpufeat.Set{
		cpufeat.Of(cpufeat.SSE2),
		cpufeat.Of(cpufeat.SSE2, cpufeat.SSSE3),
		cpufeat.Of(cpufeat.SSE2, cpufeat.SSSE3, cpufeat.AVX, cpufeat.AVX2, cpufeat.AVX512F),
	} {
		fmt.Printf("%s: %s\n", s, cpufeat.Select(cpufeat.ChaCha20Poly1305, implemented, s).Name)
	}
	// Output:
	// sse2: generic
	// sse2,ssse3: ssse3
	// sse2,ssse3,avx,avx2,avx512f: avx2
}

func ExampleParseFeature() {
	f, err := cpufeat.ParseFeature("avx2")
	fmt.Println(f, err)
	_, err = cpufeat.ParseFeature("AVX2")
	fmt.Println(err)
	// Output:
	// avx2 <nil>
	// cpufeat: unknown CPU feature "AVX2" (valid: sse2, ssse3, sse41, avx, avx2, bmi1, bmi2, adx, aes, pclmulqdq, vaes, vpclmulqdq, avx512f, avx512bw, avx512dq, avx512vl, avx512ifma, avx512vbmi, stdaes, stdchacha20, stdrsa)
}

func ExampleSet() {
	s := cpufeat.Of(cpufeat.AVX2, cpufeat.SSSE3)
	fmt.Println(s, s.Len(), s.Has(cpufeat.AVX2), s.HasAll(cpufeat.Of(cpufeat.AVX, cpufeat.AVX2)))
	fmt.Println(s.Union(cpufeat.Of(cpufeat.AVX)), s.Without(cpufeat.Of(cpufeat.AVX2)), cpufeat.Set(0))
	// Output:
	// ssse3,avx2 2 true false
	// ssse3,avx,avx2 ssse3 none
}

// An algorithm module registers the backends it compiled in and lets the
// registry choose at its constructors; the errors are the same in every
// module.
func ExampleNewRegistry() {
	reg := cpufeat.NewRegistry(cpufeat.ChaCha20Poly1305, []cpufeat.Registration[string]{
		{Name: "ssse3", Value: "the SSSE3 functions"},
		{Name: cpufeat.GenericBackend, Value: "the portable Go"},
	})
	fmt.Println(reg.Names())
	im, err := reg.Choose(cpufeat.GenericBackend)
	fmt.Println(im.Value, err)
	_, err = reg.Choose("avx3")
	fmt.Println(err)
	_, err = reg.Choose("avx2")
	fmt.Println(err)
	// Output:
	// [ssse3 generic]
	// the portable Go <nil>
	// chacha20poly1305: unknown backend "avx3" (valid: avx512, avx2, ssse3, stdlib, generic)
	// chacha20poly1305: backend "avx2" is not built in this build (built: ssse3, generic)
}

// The VG_CPU_FEATURES values the test matrix runs, and the backends each
// selects on a machine with every feature.
func ExampleConfigs() {
	for _, c := range cpufeat.Configs() {
		t := c.Targets()
		fmt.Printf("%-13s aesgcm=%s chacha20poly1305=%s rsa=%s\n", c.Name, t[cpufeat.AESGCM], t[cpufeat.ChaCha20Poly1305], t[cpufeat.RSA])
	}
	// Output:
	// none          aesgcm=generic chacha20poly1305=generic rsa=generic
	// ssse3         aesgcm=generic chacha20poly1305=ssse3 rsa=generic
	// aesni         aesgcm=aesni chacha20poly1305=ssse3 rsa=generic
	// aesni-avx     aesgcm=aesni-avx chacha20poly1305=ssse3 rsa=generic
	// avx2-adx      aesgcm=generic chacha20poly1305=avx2 rsa=adx
	// vaes-avx2     aesgcm=vaes-avx2 chacha20poly1305=avx2 rsa=adx
	// avx512-noifma aesgcm=vaes-avx512 chacha20poly1305=avx512 rsa=adx
	// stdlib        aesgcm=stdlib chacha20poly1305=stdlib rsa=stdlib
	// all           aesgcm=vaes-avx512 chacha20poly1305=avx512 rsa=ifma
}

// The features vg uses on this machine, and the backend each algorithm
// would choose here if its module implements every declared backend (a
// module's own Backends function says what it implements; `go run
// ./cmd/cpufeat` prints the whole report). The output depends on
// the machine and on VG_CPU_FEATURES, so this example is compiled, not run.
func ExampleEnabled() {
	if err := cpufeat.Err(); err != nil {
		fmt.Println(err) // an invalid VG_CPU_FEATURES
		return
	}
	fmt.Println("detected:", cpufeat.Detected())
	fmt.Println("enabled: ", cpufeat.Enabled())
	for _, alg := range cpufeat.Algorithms() {
		var names []string
		for _, b := range cpufeat.Backends(alg) {
			names = append(names, b.Name)
		}
		fmt.Println(alg, cpufeat.Select(alg, names, cpufeat.Enabled()).Name)
	}
}
