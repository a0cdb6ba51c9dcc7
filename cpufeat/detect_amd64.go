//go:build amd64 && gc && !purego && !vgsim

package cpufeat

import (
	"encoding/binary"
	"fmt"

	"golang.org/x/sys/cpu"
)

// baseline is what every amd64 CPU has; "none" keeps it.
const baseline = Set(1 << SSE2)

// simulated is false: the assembly runs on this CPU (see detect_vgsim_amd64.go).
const simulated = false

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// XCR0 bits: which register state the operating system saves.
const (
	xcr0SSE    = 1 << 1
	xcr0AVX    = 1 << 2
	xcr0Opmask = 1 << 5
	xcr0ZMMHi  = 1 << 6
	xcr0Hi16   = 1 << 7
)

// CPUID.(EAX=7,ECX=0):ECX bits that x/sys/cpu reports only with AVX-512.
const (
	cpuid7ECXVAES       = 1 << 9
	cpuid7ECXVPCLMULQDQ = 1 << 10
)

// detect reads x/sys/cpu and adds plain VAES and VPCLMULQDQ from CPUID leaf 7,
// gated on the OS saving YMM state, and under valgrind (build tag valgrind)
// what its CPU decodes but its CPUID hides (valgrindDecodes).
func detect() Set {
	x := cpu.X86
	s := baseline
	add := func(ok bool, f Feature) {
		if ok {
			s |= Of(f)
		}
	}
	add(x.HasSSSE3, SSSE3)
	add(x.HasSSE41, SSE41)
	add(x.HasAVX, AVX) // x/sys/cpu checks OSXSAVE and XCR0 for AVX
	add(x.HasAVX2, AVX2)
	add(x.HasBMI1, BMI1)
	add(x.HasBMI2, BMI2)
	add(x.HasADX, ADX)
	add(x.HasAES, AES)
	add(x.HasPCLMULQDQ, PCLMULQDQ)
	// x/sys/cpu sets HasAVX512* only when the OS saves opmask and ZMM state.
	add(x.HasAVX512F, AVX512F)
	add(x.HasAVX512BW, AVX512BW)
	add(x.HasAVX512DQ, AVX512DQ)
	add(x.HasAVX512VL, AVX512VL)
	add(x.HasAVX512IFMA, AVX512IFMA)
	add(x.HasAVX512VBMI, AVX512VBMI)

	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf >= 7 && x.HasAVX {
		_, _, ecx7, _ := cpuid(7, 0)
		xcr0, _ := xgetbv()
		ymm := xcr0&(xcr0SSE|xcr0AVX) == xcr0SSE|xcr0AVX
		add(ymm && ecx7&cpuid7ECXVAES != 0, VAES)
		add(ymm && ecx7&cpuid7ECXVPCLMULQDQ != 0, VPCLMULQDQ)
	}
	return s | valgrindDecodes()
}

// identity returns the CPU's vendor string (CPUID leaf 0) and its family
// and model (leaf 1, familyModel).
func identity() (vendor string, family, model uint32) {
	_, ebx, ecx, edx := cpuid(0, 0)
	var v [12]byte
	binary.LittleEndian.PutUint32(v[0:], ebx)
	binary.LittleEndian.PutUint32(v[4:], edx)
	binary.LittleEndian.PutUint32(v[8:], ecx)
	eax, _, _, _ := cpuid(1, 0)
	family, model = familyModel(eax)
	return string(v[:]), family, model
}

// cpuName is the CPU's vendor, family and model, for Describe.
func cpuName() string {
	vendor, family, model := identity()
	return fmt.Sprintf("%s, family %d, model %d", vendor, family, model)
}

// downclocksZMM reports whether the CPU is one of the Intel models that
// lower their clock for 512-bit work (see PreferYMM): vendor GenuineIntel,
// family 6, and the model from CPUID leaf 1.
func downclocksZMM() bool {
	vendor, family, model := identity()
	return vendor == "GenuineIntel" && family == 6 && slowZMMModel(model)
}

// osSavesZMM reports whether XCR0 enables the opmask and ZMM state; tests use
// it to check x/sys/cpu's AVX-512 gating against our own reading.
func osSavesZMM() bool {
	if !cpu.X86.HasAVX {
		return false
	}
	xcr0, _ := xgetbv()
	const want = xcr0SSE | xcr0AVX | xcr0Opmask | xcr0ZMMHi | xcr0Hi16
	return xcr0&want == want
}
