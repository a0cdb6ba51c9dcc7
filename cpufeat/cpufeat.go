// Package cpufeat detects the CPU and operating-system features that vg's
// backends need, applies the VG_CPU_FEATURES override, and declares, once, which
// features each backend of each algorithm requires and which named
// configurations the test matrix runs.
//
// # Features
//
// A [Feature] has a stable lower-case name (sse2, ssse3, avx2, vaes, ...).
// [Detected] is what the CPU has and the operating system has enabled (the XCR0
// register says whether the YMM, opmask and ZMM state is saved). Detection uses
// golang.org/x/sys/cpu, plus its own CPUID and XGETBV for what x/sys/cpu does
// not report: plain VAES and VPCLMULQDQ, which it sets only when AVX-512 is
// present. With the build tag vgsim the generated assembly runs on the x86sim
// model instead of the CPU ([Simulated]), and [Detected] is every amd64
// feature. Off amd64, [Detected] says whether the standard library's
// assembly, which the default backends there run, is in constant-time
// instructions on this CPU ([StdAES], [StdChaCha20]).
//
// # The override
//
// VG_CPU_FEATURES restricts what vg uses; it never enables a feature that
// [Detected] lacks:
//
//   - unset or empty: everything detected;
//   - "all": everything detected;
//   - "none": nothing beyond the amd64 baseline (sse2; nothing off amd64),
//     so every algorithm uses its portable backend;
//   - otherwise a comma-separated list of feature names, each with the
//     features it implies ([Implied]: avx2 brings avx, adx brings bmi2), and
//     configuration names ([Configs]: aesni, avx2-adx, ... as the cpufeat
//     command prints them), intersected with [Detected]. Spaces around names
//     are ignored.
//
// A name cpufeat does not know makes the override invalid. The variable is read
// once, when the package is initialised. An invalid override never breaks a
// program and never widens anything: [Enabled] then reports what the valid
// names in it allow (the baseline when there are none), [Err] returns an error
// naming the bad word and the valid names, and the first vg constructor that
// chooses a backend (aesgcm.New, chacha20poly1305.New, rsa.NewPrivateKey, ...)
// says so once on standard error and goes on with [Enabled]. Constructors
// given a valid key do not fail because of the variable: programs that ignore
// a constructor's error when the key length is right keep working. Tests and
// tools that must not run under a mistyped override check [Err].
//
// # Backends and configurations
//
// [Backends] lists, per algorithm, the backends in order of preference with the
// features each requires. Each algorithm module registers the backends it
// builds in a [Registry], one [Registration] each (its name, the function
// that prepares a key for it, its one-line Doc), which lists them
// ([BackendInfo], exported by each module as its Backend type) and chooses
// among them at the module's constructors with the same errors in every
// module, and the assembly generators check their instructions against the
// same declaration, so the two cannot disagree. [Configs] lists the
// VG_CPU_FEATURES values the test matrix runs; each backend is the one
// selected in at least one of them.
package cpufeat

import (
	"fmt"
	"math/bits"
	"os"
	"sort"
	"strings"
)

// Feature is one CPU feature vg may use.
type Feature uint8

// The features vg knows. Their names (see [Feature.String]) are the words
// VG_CPU_FEATURES accepts.
const (
	SSE2 Feature = iota
	SSSE3
	SSE41
	AVX
	AVX2
	BMI1
	BMI2
	ADX
	AES
	PCLMULQDQ
	VAES
	VPCLMULQDQ
	AVX512F
	AVX512BW
	AVX512DQ
	AVX512VL
	AVX512IFMA
	AVX512VBMI

	// The features of the other GOARCHes, where vg's default backends run
	// the Go standard library's assembly (or golang.org/x/crypto's) under
	// vg's API. Each says that code runs in constant time on this CPU.

	// StdAES: crypto/aes and crypto/cipher's GCM run on the CPU's AES and
	// carry-less multiply instructions: arm64 with AES and PMULL, ppc64 and
	// ppc64le (POWER8, Go's minimum), s390x with the CPACF AES, AES-CTR and
	// GHASH functions. Without them the standard library falls back to
	// table lookups, which are not constant time.
	StdAES
	// StdChaCha20: golang.org/x/crypto's ChaCha20 has assembly for this
	// CPU: arm64, loong64, ppc64 and ppc64le, s390x with the vector
	// facility.
	StdChaCha20
	// StdRSA: crypto/rsa's constant-time arithmetic (crypto's bigmod) has
	// assembly for this GOARCH: arm64, ppc64, ppc64le and s390x.
	StdRSA
	numFeatures
)

var featureNames = [numFeatures]string{
	SSE2:       "sse2",
	SSSE3:      "ssse3",
	SSE41:      "sse41",
	AVX:        "avx",
	AVX2:       "avx2",
	BMI1:       "bmi1",
	BMI2:       "bmi2",
	ADX:        "adx",
	AES:        "aes",
	PCLMULQDQ:  "pclmulqdq",
	VAES:       "vaes",
	VPCLMULQDQ: "vpclmulqdq",
	AVX512F:    "avx512f",
	AVX512BW:   "avx512bw",
	AVX512DQ:   "avx512dq",
	AVX512VL:   "avx512vl",
	AVX512IFMA: "avx512ifma",
	AVX512VBMI: "avx512vbmi",

	StdAES:      "stdaes",
	StdChaCha20: "stdchacha20",
	StdRSA:      "stdrsa",
}

// AMD64 reports whether f is an amd64 feature (the others are detected on
// other GOARCHes, and no generated assembly uses them).
func (f Feature) AMD64() bool { return f <= AVX512VBMI }

// String returns the feature's stable lower-case name.
func (f Feature) String() string {
	if f < numFeatures {
		return featureNames[f]
	}
	return fmt.Sprintf("Feature(%d)", uint8(f))
}

// AllFeatures returns every feature cpufeat knows, in declaration order.
func AllFeatures() []Feature {
	fs := make([]Feature, numFeatures)
	for i := range fs {
		fs[i] = Feature(i)
	}
	return fs
}

// ParseFeature returns the feature with the given name.
func ParseFeature(name string) (Feature, error) {
	for i, n := range featureNames {
		if n == name {
			return Feature(i), nil
		}
	}
	return 0, fmt.Errorf("cpufeat: unknown CPU feature %q (valid: %s)", name, strings.Join(featureNames[:], ", "))
}

// Set is a set of features.
type Set uint64

// Of returns the set holding fs.
func Of(fs ...Feature) Set {
	var s Set
	for _, f := range fs {
		s |= 1 << f
	}
	return s
}

// Has reports whether f is in s.
func (s Set) Has(f Feature) bool { return s&(1<<f) != 0 }

// HasAll reports whether every feature of t is in s.
func (s Set) HasAll(t Set) bool { return s&t == t }

// Union returns s ∪ t.
func (s Set) Union(t Set) Set { return s | t }

// Intersect returns s ∩ t.
func (s Set) Intersect(t Set) Set { return s & t }

// Without returns s minus the features of t.
func (s Set) Without(t Set) Set { return s &^ t }

// Len returns the number of features in s.
func (s Set) Len() int { return bits.OnesCount64(uint64(s)) }

// Features returns the features of s in declaration order.
func (s Set) Features() []Feature {
	var fs []Feature
	for f := Feature(0); f < numFeatures; f++ {
		if s.Has(f) {
			fs = append(fs, f)
		}
	}
	return fs
}

// String returns the comma-separated names of s's features, the form
// VG_CPU_FEATURES accepts; the empty set is "none".
func (s Set) String() string {
	fs := s.Features()
	if len(fs) == 0 {
		return "none"
	}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.String()
	}
	return strings.Join(names, ",")
}

// EnvVar is the name of the override variable.
const EnvVar = "VG_CPU_FEATURES"

// ApplyOverride returns the features enabled when the override variable holds
// value on a machine with the detected features, following the rules in the
// package documentation. On an invalid value it returns what the valid words
// allow (with the baseline, ∩ detected) and an error naming every unknown
// word. The result is always a subset of detected.
func ApplyOverride(value string, detected Set) (Set, error) {
	value = strings.TrimSpace(value)
	switch value {
	case "", "all":
		return detected, nil
	case "none":
		return baseline & detected, nil
	}
	want, bad := parseWords(value)
	if len(bad) > 0 {
		return (want | baseline) & detected, fmt.Errorf("cpufeat: %s=%q: unknown feature name %s (valid: all, none, %s; or a configuration: %s)",
			EnvVar, value, strings.Join(bad, ", "), strings.Join(featureNames[:], ", "), strings.Join(listConfigNames(), ", "))
	}
	return (want | baseline) & detected, nil
}

// parseWords returns the features a comma-separated list of feature and
// configuration names asks for, each feature with what it implies, and
// the quoted words it does not know.
func parseWords(value string) (Set, []string) {
	var want Set
	var bad []string
	for _, word := range strings.Split(value, ",") {
		word = strings.TrimSpace(word)
		if f, err := ParseFeature(word); err == nil {
			want |= Implied(f)
			continue
		}
		if c, ok := listConfig(word); ok {
			s, _ := parseWords(c.Value)
			want |= s
			continue
		}
		bad = append(bad, fmt.Sprintf("%q", word))
	}
	return want, bad
}

// Implied returns f with the features it brings into an override: those
// every declared backend that requires f also requires, again for each of
// them, so that a name alone enables a backend that uses it (avx2 brings
// avx; adx brings bmi2; vaes brings avx, avx2 and vpclmulqdq). A feature no
// backend requires brings nothing.
func Implied(f Feature) Set {
	s := Of(f)
	for grown := true; grown; {
		grown = false
		for _, g := range s.Features() {
			common, used := allFeatures, false
			for _, b := range backends {
				if b.Requires.Has(g) {
					common &= b.Requires
					used = true
				}
			}
			if add := common &^ s; used && add != 0 {
				s |= add
				grown = true
			}
		}
	}
	return s
}

// listConfig returns the configuration named name whose value is a list of
// names (all and none are values of their own, not list words).
func listConfig(name string) (Config, bool) {
	for _, c := range configs {
		if c.Name == name && c.Value != "all" && c.Value != "none" {
			return c, true
		}
	}
	return Config{}, false
}

// listConfigNames returns the names listConfig accepts.
func listConfigNames() []string {
	var names []string
	for _, c := range configs {
		if _, ok := listConfig(c.Name); ok {
			names = append(names, c.Name)
		}
	}
	return names
}

var (
	detected    Set
	enabled     Set
	enabledErr  error
	preferYMM   bool
	override    string // the value of VG_CPU_FEATURES at initialisation
	overrideSet bool   // whether VG_CPU_FEATURES was set then, even to ""
)

// PreferYMM reports whether this CPU lowers its clock for sustained
// 512-bit work: Intel Skylake-SP, Cascade Lake, Cooper Lake, Ice Lake and
// Tiger Lake (family 6, models 85, 106, 108, 125, 126, 140, 141), the list
// BoringSSL keeps off its 512-bit AES-GCM. There a module's default choice
// skips the backends marked ZMM, whose speed-up
// there is small or negative, and the whole process's other code would pay
// the lower clock; WithBackend still selects them. AMD Zen 4 and Zen 5 run
// zmm at full clock. Under vgsim it is false: the model has no clock.
func PreferYMM() bool { return preferYMM }

func init() {
	detected = detect()
	preferYMM = downclocksZMM()
	override, overrideSet = os.LookupEnv(EnvVar)
	enabled, enabledErr = ApplyOverride(override, detected)
}

// Detected returns the features the CPU has and the operating system enabled.
// Under the build tag vgsim (see [Simulated]) it returns every feature: the
// model's.
func Detected() Set { return detected }

// Simulated reports whether vg was built with the build tag vgsim on amd64:
// every generated assembly function then runs on x86sim, the executable
// model of the generated assembly, which checks each call for secret
// branches, addresses and stores, out-of-bounds accesses and secrets left in
// registers or on the stack, and [Detected] reports the features the model
// implements (all of them), not the CPU's.
func Simulated() bool { return simulated }

// Enabled returns the features vg may use: [Detected] restricted by the
// override. When the override is invalid it is what its valid names allow
// (the baseline when there are none), and [Err] says why.
func Enabled() Set { return enabled }

// Err returns the error of an invalid VG_CPU_FEATURES value, or nil.
func Err() error { return enabledErr }

// Override returns the value VG_CPU_FEATURES had when the package was
// initialised, the one [Enabled] follows, and whether it was set at all (an
// empty value is set, and means the same as unset).
func Override() (value string, set bool) { return override, overrideSet }

// Algorithm names an algorithm that has backends.
type Algorithm string

// The algorithms with backends.
const (
	AESGCM           Algorithm = "aesgcm"
	ChaCha20Poly1305 Algorithm = "chacha20poly1305"
	RSA              Algorithm = "rsa"
)

// Algorithms returns every algorithm with backends.
func Algorithms() []Algorithm { return []Algorithm{AESGCM, ChaCha20Poly1305, RSA} }

// Backend declares one backend of an algorithm: its stable name and the
// features it requires.
type Backend struct {
	// Algorithm is the algorithm the backend implements.
	Algorithm Algorithm
	// Name is the backend's stable name ("generic", "avx2", ...), the same
	// in every report and in each module's WithBackend option.
	Name string
	// Requires is the set of CPU features the backend needs.
	Requires Set
	// ZMM marks a backend whose loops run on 512-bit registers: not the
	// default choice on CPUs that lower their clock for them (see
	// [PreferYMM]), where a module picks the next backend unless
	// WithBackend names it.
	ZMM bool
	// GOARCHes lists the GOARCHes whose builds (without the build tag
	// purego) have the backend; nil for the portable one, which every
	// build has.
	GOARCHes []string
	// Doc describes a backend that the amd64 build lacks, for the tables
	// generated from that build (its module's registration, where it is
	// built, carries the same text); empty for the others, whose
	// registrations describe them.
	Doc string
}

// The GOARCHes of the backends: vg's assembly is for amd64; the standard
// library's (crypto/cipher's GCM, golang.org/x/crypto's ChaCha20) is used
// where it has assembly and vg has none.
var (
	amd64Only   = []string{"amd64"}
	stdAESGCM   = []string{"arm64", "ppc64", "ppc64le", "s390x"}
	stdChaCha20 = []string{"arm64", "loong64", "ppc64", "ppc64le", "s390x"}
	stdRSA      = stdAESGCM
)

// GenericBackend is the name of every algorithm's portable backend, which
// requires nothing.
const GenericBackend = "generic"

// backends is the one declaration of every backend's requirements, best first
// within each algorithm.
var backends = []Backend{
	{AESGCM, "vaes-avx512", Of(AES, PCLMULQDQ, AVX, AVX2, AVX512F, AVX512BW, AVX512VL, VAES, VPCLMULQDQ, BMI2), true, amd64Only, ""},
	{AESGCM, "vaes-avx2", Of(AVX, AVX2, VAES, VPCLMULQDQ), false, amd64Only, ""},
	{AESGCM, "aesni-avx", Of(SSSE3, AES, PCLMULQDQ, AVX), false, amd64Only, ""},
	{AESGCM, "aesni", Of(SSSE3, AES, PCLMULQDQ), false, amd64Only, ""},
	{AESGCM, "stdlib", Of(StdAES), false, stdAESGCM,
		"crypto/cipher's GCM over crypto/aes: the standard library's assembly on the CPU's AES and carry-less multiply instructions; the Encryptor on the generic code"},
	{AESGCM, GenericBackend, 0, false, nil, ""},

	{ChaCha20Poly1305, "avx512", Of(AVX, AVX2, AVX512F, AVX512BW, AVX512VL, BMI2), true, amd64Only, ""},
	{ChaCha20Poly1305, "avx2", Of(AVX, AVX2), false, amd64Only, ""},
	{ChaCha20Poly1305, "ssse3", Of(SSSE3), false, amd64Only, ""},
	{ChaCha20Poly1305, "stdlib", Of(StdChaCha20), false, stdChaCha20,
		"golang.org/x/crypto's chacha20poly1305 (the standard library vendors it): its ChaCha20 assembly for this CPU; the Encryptor on the generic kernels"},
	{ChaCha20Poly1305, GenericBackend, 0, false, nil, ""},

	{RSA, "ifma", Of(AVX, AVX2, AVX512F, AVX512VL, AVX512IFMA, BMI2, ADX), false, amd64Only, ""},
	{RSA, "adx", Of(BMI2, ADX), false, amd64Only, ""},
	{RSA, "stdlib", Of(StdRSA), false, stdRSA,
		"crypto/rsa's private and public operations (its constant-time bigmod, with assembly for this GOARCH) after vg's checks of the key and the arguments; PSS with an MGF1 hash of its own on generic"},
	{RSA, GenericBackend, 0, false, nil, ""},
}

// Backends returns the declared backends of alg, best first. An algorithm
// module implements a subset of them and lists that subset itself.
func Backends(alg Algorithm) []Backend {
	var bs []Backend
	for _, b := range backends {
		if b.Algorithm == alg {
			bs = append(bs, b)
		}
	}
	return bs
}

// Lookup returns the declaration of alg's backend called name.
func Lookup(alg Algorithm, name string) (Backend, bool) {
	for _, b := range backends {
		if b.Algorithm == alg && b.Name == name {
			return b, true
		}
	}
	return Backend{}, false
}

// MustLookup is like [Lookup] but panics when the backend is not declared. It
// is for package-level tables whose names are constants.
func MustLookup(alg Algorithm, name string) Backend {
	b, ok := Lookup(alg, name)
	if !ok {
		panic("cpufeat: no backend " + string(alg) + "/" + name)
	}
	return b
}

// Available reports whether b can run with the features in s.
func (b Backend) Available(s Set) bool { return s.HasAll(b.Requires) }

// defaultFor reports whether b may be a default choice with the features
// in s: available, and not a ZMM backend where preferYMM holds.
func (b Backend) defaultFor(s Set, preferYMM bool) bool {
	return b.Available(s) && !(b.ZMM && preferYMM)
}

// slowZMMModel reports whether the Intel family 6 model m lowers its clock
// for 512-bit work (see PreferYMM).
func slowZMMModel(m uint32) bool {
	switch m {
	case 85, 106, 108, 125, 126, 140, 141:
		return true
	}
	return false
}

// Select returns the best of alg's backends among implemented (names of the
// backends the caller has, in any order) whose requirements are within s,
// passing over the ZMM backends where [PreferYMM] is true. The generic
// backend is always available, so Select returns it when nothing better
// fits.
func Select(alg Algorithm, implemented []string, s Set) Backend {
	return selectBackend(alg, implemented, s, preferYMM)
}

// selectBackend is Select with the zmm policy given: the one definition of
// the default choice, which Registry.Choose makes too.
func selectBackend(alg Algorithm, implemented []string, s Set, preferYMM bool) Backend {
	for _, b := range Backends(alg) {
		if b.defaultFor(s, preferYMM) && contains(implemented, b.Name) {
			return b
		}
	}
	return MustLookup(alg, GenericBackend)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Config is a named VG_CPU_FEATURES value that the test matrix runs.
type Config struct {
	// Name is a short label for reports.
	Name string
	// Value is what VG_CPU_FEATURES is set to.
	Value string
}

// Set returns the features this configuration enables on a machine with the
// detected features d.
func (c Config) Set(d Set) Set {
	s, err := ApplyOverride(c.Value, d)
	if err != nil {
		panic(err) // the table below is fixed and tested
	}
	return s
}

var configs = []Config{
	{"none", "none"},
	{"ssse3", "ssse3"},
	{"aesni", "ssse3,aes,pclmulqdq"},
	{"aesni-avx", "ssse3,aes,pclmulqdq,avx"},
	{"avx2-adx", "avx,avx2,bmi2,adx"},
	{"vaes-avx2", "ssse3,sse41,aes,pclmulqdq,avx,avx2,bmi1,bmi2,adx,vaes,vpclmulqdq"},
	{"avx512-noifma", "ssse3,sse41,aes,pclmulqdq,avx,avx2,bmi1,bmi2,adx,vaes,vpclmulqdq,avx512f,avx512bw,avx512dq,avx512vl,avx512vbmi"},
	{"stdlib", "stdaes,stdchacha20,stdrsa"},
	{"all", "all"},
}

// Configs returns the named configurations the test matrix runs, from the
// most restricted to everything.
func Configs() []Config { return append([]Config(nil), configs...) }

// Targets returns, for configuration c on a machine with every feature, the
// declared backend of each algorithm that c selects, keyed by algorithm.
func (c Config) Targets() map[Algorithm]string {
	s := c.Set(allFeatures)
	m := make(map[Algorithm]string)
	for _, alg := range Algorithms() {
		var names []string
		for _, b := range Backends(alg) {
			names = append(names, b.Name)
		}
		m[alg] = Select(alg, names, s).Name
	}
	return m
}

const allFeatures = Set(1<<numFeatures - 1)

// amd64Features are the amd64 features, every one the x86sim model
// implements.
const amd64Features = Set(1<<(AVX512VBMI+1) - 1)

// familyModel decodes the family and model of CPUID leaf 1's EAX, with the
// extended fields as Intel and AMD define them: the extended family added
// for family 15, the extended model prefixed for families 6 and 15 and up.
func familyModel(eax uint32) (family, model uint32) {
	family = (eax >> 8) & 0xf
	model = (eax >> 4) & 0xf
	if family == 0xf {
		family += (eax >> 20) & 0xff
	}
	if family == 6 || family >= 0xf {
		model |= (eax >> 12) & 0xf0
	}
	return family, model
}

// Describe returns a multi-line, human-readable report of the CPU (its
// vendor, family and model, and whether PreferYMM holds), the detected and
// enabled features, the override, and the configurations.
func Describe() string {
	var b strings.Builder
	if name := cpuName(); name != "" {
		ymm := "no"
		if PreferYMM() {
			ymm = "yes: this Intel model lowers its clock for sustained 512-bit work, so the default choices skip the zmm backends"
		}
		fmt.Fprintf(&b, "cpu: %s; PreferYMM: %s\n", name, ymm)
	}
	fmt.Fprintf(&b, "detected: %s\n", Detected())
	if Simulated() {
		b.WriteString("          (the x86sim model's features, build tag vgsim: the generated assembly runs on the model, not on this CPU)\n")
	}
	fmt.Fprintf(&b, "%s=%q\n", EnvVar, override)
	if Err() != nil {
		fmt.Fprintf(&b, "override error: %v\n", Err())
	}
	fmt.Fprintf(&b, "enabled:  %s\n", Enabled())
	missing := Enabled().Without(Detected())
	if missing != 0 {
		fmt.Fprintf(&b, "BUG: enabled but not detected: %s\n", missing)
	}
	fmt.Fprintf(&b, "configurations (%s=value; selected backends with every feature present):\n", EnvVar)
	for _, c := range configs {
		t := c.Targets()
		algs := make([]string, 0, len(t))
		for a := range t {
			algs = append(algs, string(a))
		}
		sort.Strings(algs)
		var parts []string
		for _, a := range algs {
			parts = append(parts, a+"="+t[Algorithm(a)])
		}
		fmt.Fprintf(&b, "  %-14s %-s\n      %s\n", c.Name, c.Value, strings.Join(parts, " "))
	}
	return b.String()
}
