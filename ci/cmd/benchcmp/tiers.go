package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/vgcrypto/vg/aesgcm"
	"github.com/vgcrypto/vg/chacha20poly1305"
	"github.com/vgcrypto/vg/cpufeat"
	"github.com/vgcrypto/vg/rsa"
)

// A tier is an instruction set a class of CPUs has, which -tier holds vg and
// the peers to on a machine that has more: vg through VG_CPU_FEATURES, the
// peers (BoringSSL, AWS-LC and OpenSSL all read it) through OPENSSL_ia32cap.
// It emulates the class's instruction set, not its cores' timings.
type tier struct {
	Name  string // the -tier value
	Class string // the CPUs that have this instruction set
	// VG is the VG_CPU_FEATURES value: what vg may use. The machine must
	// have all of it.
	VG string
	// Cap is the OPENSSL_ia32cap value. Its second word is
	// CPUID(7,0).EBX | CPUID(7,0).ECX<<32, and "~" clears the bits given;
	// the empty first word leaves CPUID(1) as detected.
	Cap string
}

// CPUID(7,0) bits of the second OPENSSL_ia32cap word: EBX in the low half,
// ECX in the high half.
const (
	capAVX512F         = 1 << 16
	capAVX512DQ        = 1 << 17
	capAVX512IFMA      = 1 << 21
	capAVX512PF        = 1 << 26
	capAVX512ER        = 1 << 27
	capAVX512CD        = 1 << 28
	capAVX512BW        = 1 << 30
	capAVX512VL        = 1 << 31
	capAVX512VBMI      = 1 << (32 + 1)
	capAVX512VBMI2     = 1 << (32 + 6)
	capGFNI            = 1 << (32 + 8)
	capVAES            = 1 << (32 + 9)
	capVPCLMULQDQ      = 1 << (32 + 10)
	capAVX512VNNI      = 1 << (32 + 11)
	capAVX512BITALG    = 1 << (32 + 12)
	capAVX512VPOPCNTDQ = 1 << (32 + 14)

	// capAVX512 is every AVX-512 bit of the word.
	capAVX512 = capAVX512F | capAVX512DQ | capAVX512IFMA | capAVX512PF | capAVX512ER | capAVX512CD | capAVX512BW | capAVX512VL |
		capAVX512VBMI | capAVX512VBMI2 | capAVX512VNNI | capAVX512BITALG | capAVX512VPOPCNTDQ
)

// clearCap is the OPENSSL_ia32cap value that clears bits of the second word.
func clearCap(bits uint64) string { return fmt.Sprintf(":~0x%016x", bits) }

// tiers lists the tiers from the most capable down. "native" is the machine
// as it is, nothing held back.
var tiers = []tier{
	{Name: "native", Class: "the machine's own"},
	{
		Name:  "cascadelake",
		Class: "AVX-512 without VAES, VPCLMULQDQ or IFMA (Intel Skylake-SP, Cascade Lake)",
		VG:    "ssse3,sse41,avx,avx2,bmi1,bmi2,adx,aes,pclmulqdq,avx512f,avx512bw,avx512dq,avx512vl",
		Cap:   clearCap(capAVX512IFMA | capAVX512PF | capAVX512ER | capAVX512VBMI | capAVX512VBMI2 | capGFNI | capVAES | capVPCLMULQDQ | capAVX512BITALG | capAVX512VPOPCNTDQ),
	},
	{
		Name:  "zen3",
		Class: "AVX2 with VAES and VPCLMULQDQ on ymm, ADX, no AVX-512 (AMD Zen 3, Intel Alder Lake)",
		VG:    "ssse3,sse41,avx,avx2,bmi1,bmi2,adx,aes,pclmulqdq,vaes,vpclmulqdq",
		Cap:   clearCap(capAVX512 | capGFNI),
	},
	{
		Name:  "skylake",
		Class: "AVX2 with AES-NI, PCLMULQDQ and ADX, no VAES or AVX-512 (Intel Broadwell to Coffee Lake, AMD Zen 1 and 2)",
		VG:    "ssse3,sse41,avx,avx2,bmi1,bmi2,adx,aes,pclmulqdq",
		Cap:   clearCap(capAVX512 | capGFNI | capVAES | capVPCLMULQDQ),
	},
}

// lookupTier returns the tier named name.
func lookupTier(name string) (tier, error) {
	var names []string
	for _, t := range tiers {
		if t.Name == name {
			return t, nil
		}
		names = append(names, t.Name)
	}
	return tier{}, fmt.Errorf("-tier %q: unknown tier (the tiers: %s; -tier list describes them)", name, strings.Join(names, ", "))
}

// env returns the environment variables that hold vg and the peers to t.
func (t tier) env() []string {
	if t.VG == "" {
		return nil
	}
	return []string{cpufeat.EnvVar + "=" + t.VG, "OPENSSL_ia32cap=" + t.Cap}
}

// features returns the features vg may use at t on a machine with detected.
func (t tier) features(detected cpufeat.Set) (cpufeat.Set, error) {
	if t.VG == "" {
		return detected, nil
	}
	return cpufeat.ApplyOverride(t.VG, detected)
}

// missing returns the features of t that detected lacks.
func (t tier) missing(detected cpufeat.Set) cpufeat.Set {
	want, err := cpufeat.ApplyOverride(t.VG, cpufeat.Set(^uint64(0)))
	if err != nil || t.VG == "" {
		return 0
	}
	return want.Without(detected)
}

// picks returns vg's default backend of each algorithm at t on a machine
// with detected ("aesgcm=aesni-avx chacha20poly1305=avx512 rsa=adx"): the
// choice cpufeat makes for that feature set among the backends compiled
// into this build, which are those of the benchmarks' build.
func (t tier) picks(detected cpufeat.Set) (string, error) {
	s, err := t.features(detected)
	if err != nil {
		return "", err
	}
	built := map[cpufeat.Algorithm][]cpufeat.BackendInfo{
		cpufeat.AESGCM:           aesgcm.Backends(),
		cpufeat.ChaCha20Poly1305: chacha20poly1305.Backends(),
		cpufeat.RSA:              rsa.Backends(),
	}
	var parts []string
	for _, alg := range cpufeat.Algorithms() {
		var names []string
		for _, b := range built[alg] {
			names = append(names, b.Name)
		}
		parts = append(parts, fmt.Sprintf("%s=%s", alg, cpufeat.Select(alg, names, s).Name))
	}
	return strings.Join(parts, " "), nil
}

// tierLine is the provenance line of a run held to t: the tier, what it
// emulates, vg's default backends there and the environment that holds
// vg and the peers to it.
func (t tier) line(detected cpufeat.Set) (string, error) {
	picks, err := t.picks(detected)
	if err != nil {
		return "", err
	}
	s := fmt.Sprintf("%s, %s; vg: %s", t.Name, t.Class, picks)
	if env := t.env(); env != nil {
		s += "; " + strings.Join(env, " ") + " (the instruction set, not the timings, of such CPUs)"
	}
	return s, nil
}

// writeTiers prints the tiers, which of them this machine can run and
// vg's default backends at each (-tier list).
func writeTiers(w io.Writer, detected cpufeat.Set) error {
	for _, t := range tiers {
		fmt.Fprintf(w, "%s: %s\n", t.Name, t.Class)
		if m := t.missing(detected); m != 0 {
			fmt.Fprintf(w, "\tnot on this machine: it lacks %s\n", m)
			continue
		}
		picks, err := t.picks(detected)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\tvg: %s\n", picks)
		for _, kv := range t.env() {
			fmt.Fprintf(w, "\t%s\n", kv)
		}
	}
	return nil
}
