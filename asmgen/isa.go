package asmgen

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/cpufeat"
)

// BaselineISAs are the avo ISA names every amd64 CPU has; they are allowed in
// every backend.
var BaselineISAs = []string{"CMOV", "SSE", "SSE2"}

// featureISAs maps each cpufeat feature to the avo ISA names
// (ir.Instruction.ISA) it provides.
var featureISAs = map[cpufeat.Feature][]string{
	cpufeat.SSE2:       {"SSE2"},
	cpufeat.SSSE3:      {"SSE3", "SSSE3"}, // every SSSE3 CPU has SSE3
	cpufeat.SSE41:      {"SSE4.1"},
	cpufeat.AVX:        {"AVX"},
	cpufeat.AVX2:       {"AVX2"},
	cpufeat.BMI1:       {"BMI"},
	cpufeat.BMI2:       {"BMI2"},
	cpufeat.ADX:        {"ADX"},
	cpufeat.AES:        {"AES"},
	cpufeat.PCLMULQDQ:  {"PCLMULQDQ"},
	cpufeat.VAES:       {"VAES"},
	cpufeat.VPCLMULQDQ: {"VPCLMULQDQ"},
	cpufeat.AVX512F:    {"AVX512F"},
	cpufeat.AVX512BW:   {"AVX512BW"},
	cpufeat.AVX512DQ:   {"AVX512DQ"},
	cpufeat.AVX512VL:   {"AVX512VL"},
	cpufeat.AVX512IFMA: {"AVX512IFMA"},
	cpufeat.AVX512VBMI: {"AVX512VBMI"},
}

// FeatureISAs returns the avo ISA names feature f provides.
func FeatureISAs(f cpufeat.Feature) []string { return append([]string(nil), featureISAs[f]...) }

// AllowedISAs returns the set of avo ISA names an instruction may list in a
// backend requiring s: the baseline plus what each feature of s provides.
func AllowedISAs(s cpufeat.Set) map[string]bool {
	m := map[string]bool{}
	for _, isa := range BaselineISAs {
		m[isa] = true
	}
	for _, f := range s.Features() {
		for _, isa := range featureISAs[f] {
			m[isa] = true
		}
	}
	return m
}

// registerISAs returns the ISA names using register r needs beyond what avo
// reports: registers 16-31 and 512-bit registers need AVX512F (and AVX512VL
// below 512 bits), opmask registers AVX512F.
func registerISAs(r reg.Register) []string {
	p := reg.ToPhysical(r)
	if p == nil {
		return nil
	}
	switch p.Kind() {
	case reg.KindVector:
		var need []string
		if p.Size() == 64 || p.PhysicalIndex() >= 16 {
			need = append(need, "AVX512F")
		}
		if p.PhysicalIndex() >= 16 && p.Size() < 64 {
			need = append(need, "AVX512VL")
		}
		return need
	case reg.KindOpmask:
		return []string{"AVX512F"}
	}
	return nil
}

// instText returns the instruction as it is printed in the assembly.
func instText(i *ir.Instruction) string {
	ops := make([]string, len(i.Operands))
	for k, op := range i.Operands {
		ops[k] = op.Asm()
	}
	s := i.OpcodeWithSuffixes()
	if len(ops) > 0 {
		s += " " + strings.Join(ops, ", ")
	}
	return s
}

// checkISA is the arch gate: every instruction's ISA list, and the ISAs its
// registers imply, must be within the backend's features.
func (g *Generator) checkISA(fn *Func) []error {
	var errs []error
	allowed := g.isas
	for n, i := range fn.ir.Instructions() {
		var missing []string
		for _, isa := range i.ISA {
			if !allowed[isa] && !contains(missing, isa) {
				missing = append(missing, isa)
			}
		}
		if len(missing) > 0 {
			errs = append(errs, fmt.Errorf("asmgen: %s: instruction %d %q needs ISA %s, not in backend %s/%s (%s)",
				fn.name, n, instText(i), strings.Join(missing, "+"), g.backend.Algorithm, g.backend.Name, g.backend.Requires))
		}
		for _, op := range i.Operands {
			for _, r := range operand.Registers(op) {
				var miss []string
				for _, isa := range registerISAs(r) {
					if !allowed[isa] {
						miss = append(miss, isa)
					}
				}
				if len(miss) > 0 {
					errs = append(errs, fmt.Errorf("asmgen: %s: instruction %d %q uses register %s, which needs %s, not in backend %s/%s (%s)",
						fn.name, n, instText(i), r.Asm(), strings.Join(miss, "+"), g.backend.Algorithm, g.backend.Name, g.backend.Requires))
				}
			}
		}
	}
	return errs
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
