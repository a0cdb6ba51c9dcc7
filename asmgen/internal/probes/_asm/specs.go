package main

import (
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/asmgen/internal/probes/forms"
)

// parseForm splits "VPADDD.Z z, z, k, z" into the mnemonic and the kinds.
func parseForm(f string) (string, []string) {
	op, rest, _ := strings.Cut(f, " ")
	if rest == "" {
		return op, nil
	}
	return op, strings.Split(rest, ", ")
}

// committedSpecs returns a spec per form the committed assembly uses, with
// its immediates and a few more, in low registers; and a same-register
// variant of each form with two register operands of a class.
func committedSpecs(insts []forms.Inst) []*spec {
	imms := map[string]map[int64]bool{}
	var order []string
	for _, in := range insts {
		f := in.Form()
		if imms[f] == nil {
			imms[f] = map[int64]bool{}
			order = append(order, f)
		}
		for _, v := range in.Imms() {
			imms[f][v] = true
		}
	}
	sort.Strings(order)
	var specs []*spec
	for _, f := range order {
		op, kinds := parseForm(f)
		if strings.HasPrefix(op, "LEA") {
			specs = append(specs, leaSpecs(op, "committed")...)
			continue
		}
		var vals []int64
		if strings.Contains(f, "imm") {
			for _, v := range extraImms(op) {
				imms[f][v] = true
			}
			vals = sortedImms(imms[f])
		}
		s := &spec{op: op, kinds: kinds, regs: "low", origin: "committed", imms: vals}
		if op == "VZEROUPPER" {
			for v := 0; v < 16; v++ {
				s.vecs = append(s.vecs, v)
			}
			specs = append(specs, s, &spec{op: op, regs: "high", origin: "committed", vecs: []int{0, 7, 15, 16, 31}})
			continue
		}
		specs = append(specs, s)
		if sameable(kinds) {
			t := *s
			t.regs = "same-low"
			if len(t.imms) > 0 {
				t.imms = t.imms[:1]
			}
			specs = append(specs, &t)
		}
	}
	return specs
}

// leaSpecs are LEA's probes: addresses with and without an index, every
// scale, negative and large displacements, and the destination as base.
func leaSpecs(op, origin string) []*spec {
	mems := []operand.Mem{
		{Base: reg.RSI, Disp: 16},
		{Base: reg.RSI, Index: reg.RDI, Scale: 1, Disp: -8},
		{Base: reg.RSI, Index: reg.RDI, Scale: 2, Disp: 0x7fffffff},
		{Base: reg.RSI, Index: reg.RDI, Scale: 4, Disp: -0x80000000},
		{Base: reg.RSI, Index: reg.RDI, Scale: 8, Disp: 3},
		{Base: reg.RBX, Index: reg.RBX, Scale: 8, Disp: -1},
	}
	var specs []*spec
	for i := range mems {
		specs = append(specs, &spec{op: op, kinds: []string{"m", "r"}, regs: "low", origin: origin, lea: &mems[i]})
	}
	return specs
}

// extraImms are immediates probed besides the committed ones: the edges of
// each instruction's immediate.
func extraImms(op string) []int64 {
	base := strings.SplitN(op, ".", 2)[0]
	switch {
	case base == "MOVQ":
		return []int64{0, -1, 0x7fffffff, -0x80000000, 0x80000000, -0x8000000000000000, 0x123456789abcdef0}
	case base == "MOVL":
		return []int64{0, 0x7fffffff, 0x80000000, 0xffffffff}
	case isShift(base):
		if opWidth(base) == 8 {
			return []int64{0, 1, 31, 32, 63}
		}
		return []int64{0, 1, 15, 16, 31}
	case strings.HasSuffix(base, "L") && !strings.HasPrefix(base, "P") && !strings.HasPrefix(base, "V"):
		return []int64{0, 1, -1, 0x7fffffff, -0x80000000}
	case strings.HasSuffix(base, "Q") && !strings.HasPrefix(base, "P") && !strings.HasPrefix(base, "V") && base != "MULXQ":
		return []int64{0, 1, -1, 0x7f, -0x80, 0x7fffffff, -0x80000000}
	case base == "PSHUFD" || base == "VPSHUFD":
		return []int64{0x1b, 0xe4, 0xb1}
	case base == "PSLLDQ" || base == "PSRLDQ":
		// The Go assembler takes legacy SSE shift counts up to 127.
		return []int64{0, 1, 15, 16, 127}
	case base == "VPSLLDQ" || base == "VPSRLDQ":
		return []int64{0, 1, 15, 16, 255}
	case strings.HasPrefix(base, "PS"):
		// Element shifts by an immediate: counts past the width zero (or
		// sign-fill) every element.
		return []int64{0, 1, 31, 32, 63, 64, 127}
	case strings.HasPrefix(base, "VPS"):
		return []int64{0, 1, 31, 32, 63, 64, 255}
	case base == "PCLMULQDQ" || base == "VPCLMULQDQ":
		return []int64{0x00, 0x01, 0x10, 0x11}
	case base == "VPERM2I128":
		return []int64{0x02, 0x13, 0x08, 0x80, 0x88}
	case base == "VEXTRACTI128" || base == "VINSERTI128" || base == "VPEXTRQ" || base == "VPINSRQ":
		return []int64{0, 1}
	case base == "VPINSRD":
		return []int64{0, 1, 2, 3}
	}
	return nil
}

// evex describes one AVX-512 mnemonic of the coming backends and the
// variants to probe it in.
type evex struct {
	op string
	// shape is the operand kinds of the zmm form without a mask, with "v"
	// for the vector registers, e.g. "imm, v, v, v".
	shape string
	imms  []int64
	// mask: merge and zeroing write-mask variants; bcst: an embedded
	// broadcast variant; mem: a memory source variant; y, x: EVEX ymm and
	// xmm forms.
	mask, bcst, mem, y, x bool
}

// addedSpecs are the AVX-512, VAES, VPCLMULQDQ and BMI forms the coming
// backends will use, each in registers 16-31, with merge and zeroing masks
// and broadcasts where the form allows them, plus the same-register
// variants.
func addedSpecs() []*spec {
	rng := rand.New(rand.NewPCG(1, 2))
	rnd := func(n int) []int64 {
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(rng.IntN(256))
		}
		return v
	}
	all := func(v ...int64) []int64 { return v }
	evs := []evex{
		{op: "VAESENC", shape: "v, v, v", mem: true, y: true, x: true},
		{op: "VAESENCLAST", shape: "v, v, v", mem: true, y: true, x: true},
		{op: "VPCLMULQDQ", shape: "imm, v, v, v", imms: all(0x00, 0x01, 0x10, 0x11), mem: true, y: true, x: true},
		{op: "VPTERNLOGD", shape: "imm, v, v, v", imms: append(all(0x96, 0xe8, 0xca, 0x00, 0xff), rnd(3)...), mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPTERNLOGQ", shape: "imm, v, v, v", imms: append(all(0x96, 0xe8, 0xca), rnd(3)...), mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPROLD", shape: "imm, v, v", imms: all(0, 1, 7, 8, 16, 31, 32, 255), mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPROLQ", shape: "imm, v, v", imms: all(0, 1, 13, 32, 63, 64), mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPRORD", shape: "imm, v, v", imms: all(0, 1, 7, 12, 16, 31, 33), mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPRORQ", shape: "imm, v, v", imms: all(0, 1, 14, 32, 63, 65), mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPSHUFB", shape: "v, v, v", mask: true, mem: true, y: true, x: true},
		{op: "VPSHUFD", shape: "imm, v, v", imms: append(all(0x1b, 0x4e, 0xb1, 0x39), rnd(2)...), mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPADDD", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPADDQ", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPSUBQ", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPMULUDQ", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPMADD52LUQ", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPMADD52HUQ", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPSRLQ", shape: "imm, v, v", imms: all(0, 1, 31, 32, 52, 63, 64, 200), mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPSLLQ", shape: "imm, v, v", imms: all(0, 1, 12, 32, 63, 64), mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPSRAQ", shape: "imm, v, v", imms: all(0, 1, 32, 63, 64, 255), mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPSRLVQ", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPSLLVQ", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPSRLDQ", shape: "imm, v, v", imms: all(0, 1, 4, 8, 15, 16, 255), mem: true, y: true, x: true},
		{op: "VPSLLDQ", shape: "imm, v, v", imms: all(0, 1, 4, 8, 15, 16, 255), mem: true, y: true, x: true},
		{op: "VPALIGNR", shape: "imm, v, v, v", imms: all(0, 1, 8, 15, 16, 17, 31, 32), mask: true, mem: true, y: true, x: true},
		{op: "VPUNPCKLQDQ", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPUNPCKHQDQ", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VSHUFI64X2", shape: "imm, v, v, v", imms: append(all(0x00, 0x4e, 0xe4, 0x1b), rnd(2)...), mask: true, bcst: true, mem: true, y: true},
		{op: "VPERMQ", shape: "imm, v, v", imms: all(0x4e, 0x1b, 0xd8, 0x93), mask: true, bcst: true, mem: true, y: true},
		{op: "VPERMQ", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true},
		{op: "VPERMD", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true},
		{op: "VPERMI2Q", shape: "v, v, v", mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPERMB", shape: "v, v, v", mask: true, mem: true, y: true, x: true},
		{op: "VALIGNQ", shape: "imm, v, v, v", imms: all(0, 1, 3, 7, 9), mask: true, bcst: true, mem: true, y: true, x: true},
		{op: "VPBLENDMQ", shape: "v, v, k, v", bcst: true, mem: true, y: true, x: true},
	}
	var specs []*spec
	add := func(f string, imms []int64, regs string) {
		op, kinds := parseForm(f)
		specs = append(specs, &spec{op: op, kinds: kinds, imms: imms, regs: regs, origin: "added"})
	}
	first := func(v []int64) []int64 {
		if len(v) == 0 {
			return nil
		}
		return v[:1]
	}
	for _, e := range evs {
		shape := func(w string, masked bool) string {
			ks := strings.Split(e.shape, ", ")
			for i, k := range ks {
				if k == "v" {
					ks[i] = w
				}
			}
			if masked {
				n := len(ks)
				ks = append(ks[:n-1:n-1], "k", ks[n-1])
			}
			return strings.Join(ks, ", ")
		}
		memShape := func(s string) string {
			// The first vector operand (Go order) is the memory source.
			return strings.Replace(s, "z", "m", 1)
		}
		add(e.op+" "+shape("z", false), e.imms, "high")
		one := first(e.imms)
		if e.mask {
			add(e.op+" "+shape("z", true), one, "high")
			add(e.op+".Z "+shape("z", true), one, "high")
		}
		if e.mem {
			add(e.op+" "+memShape(shape("z", false)), one, "high")
		}
		if e.bcst {
			add(e.op+".BCST "+memShape(shape("z", false)), one, "high")
			if e.mask {
				add(e.op+".BCST.Z "+memShape(shape("z", true)), one, "high")
			}
		}
		if e.y {
			add(e.op+" "+shape("y", false), one, "high")
			if e.mask {
				add(e.op+" "+shape("y", true), one, "high")
			}
		}
		if e.x {
			add(e.op+" "+shape("x", false), one, "high")
			if e.mask {
				add(e.op+".Z "+shape("x", true), one, "high")
			}
		}
		add(e.op+" "+shape("z", false), one, "same-high")
	}

	// Moves, broadcasts, inserts and extracts.
	for _, f := range []string{
		"VBROADCASTI32X4 m, z", "VBROADCASTI32X4 m, k, z", "VBROADCASTI32X4.Z m, k, z", "VBROADCASTI32X4 m, y",
		"VPBROADCASTQ x, z", "VPBROADCASTQ m, z", "VPBROADCASTQ r, z", "VPBROADCASTQ x, k, z", "VPBROADCASTQ.Z r, k, z",
		"VPBROADCASTQ r, y", "VPBROADCASTQ x, x", "VPBROADCASTQ m, y",
		"VPBROADCASTD x, z", "VPBROADCASTD m, z", "VPBROADCASTD r, z", "VPBROADCASTD x, k, z", "VPBROADCASTD.Z m, k, z",
		"VPBROADCASTD r, y", "VPBROADCASTD r, x",
		"VINSERTI64X4 imm, y, z, z", "VINSERTI64X4 imm, m, z, z", "VINSERTI64X4 imm, y, z, k, z",
		"VEXTRACTI32X4 imm, z, x", "VEXTRACTI32X4 imm, z, m", "VEXTRACTI32X4 imm, z, k, x", "VEXTRACTI32X4.Z imm, z, k, x",
		"VEXTRACTI32X4 imm, z, k, m", "VEXTRACTI32X4 imm, y, x",
		"VMOVDQU8 m, k, z", "VMOVDQU8.Z m, k, z", "VMOVDQU8 z, k, m", "VMOVDQU8 z, k, z", "VMOVDQU8.Z z, k, z",
		"VMOVDQU8 m, k, y", "VMOVDQU8 y, k, m", "VMOVDQU8 m, z", "VMOVDQU8 z, m",
		"VMOVDQU64 m, k, z", "VMOVDQU64.Z m, k, z", "VMOVDQU64 z, k, m", "VMOVDQU64 z, k, z", "VMOVDQU64.Z z, k, z",
		"VMOVDQU64 m, z", "VMOVDQU64 z, m", "VMOVDQU64 z, z", "VMOVDQU64 y, k, m", "VMOVDQU64 x, x",
		"VPCMPEQB z, z, k", "VPCMPEQB z, z, k, k", "VPCMPEQB m, z, k", "VPCMPEQB y, y, k", "VPCMPEQB x, x, k",
		"KMOVQ r, k", "KMOVQ k, r", "KMOVQ k, k", "KMOVQ m, k", "KMOVQ k, m",
		"KMOVW r, k", "KMOVW k, r",
		"KORTESTQ k, k",
		"BZHIQ r, r, r", "BZHIQ r, m, r",
		"SHLXQ r, r, r", "SHLXQ r, m, r",
		"SHRXQ r, r, r", "SHRXQ r, m, r",
		"ANDNQ r, r, r", "ANDNQ m, r, r",
		"ROLL r8, r", "RORL r8, r",
	} {
		imms := []int64(nil)
		if strings.Contains(f, "imm") {
			imms = []int64{1}
		}
		add(f, imms, "high")
	}
	add("VINSERTI64X4 imm, y, z, z", []int64{0}, "high")
	add("VINSERTI64X4 imm, y, z, z", []int64{1}, "same-high")
	for _, v := range []int64{0, 2, 3} {
		add("VEXTRACTI32X4 imm, z, x", []int64{v}, "high")
	}
	add("VEXTRACTI32X4 imm, z, x", []int64{3}, "same-high")
	add("VPBROADCASTQ x, z", nil, "same-high")
	add("VMOVDQU64 z, z", nil, "same-high")
	add("VPCMPEQB z, z, k", nil, "same-high")
	add("KORTESTQ k, k", nil, "same-high")
	add("KMOVQ k, k", nil, "same-high")
	for _, f := range []string{"VPCMPUQ imm, z, z, k", "VPCMPUQ imm, z, z, k, k", "VPCMPUQ imm, m, z, k", "VPCMPUQ.BCST imm, m, z, k", "VPCMPUQ imm, y, y, k", "VPCMPUQ imm, x, x, k, k"} {
		imms := []int64{1}
		if f == "VPCMPUQ imm, z, z, k" {
			imms = []int64{0, 1, 2, 3, 4, 5, 6, 7}
		}
		add(f, imms, "high")
	}
	add("VPCMPUQ imm, z, z, k", []int64{5}, "same-high")
	for _, f := range []string{"BZHIQ r, r, r", "SHLXQ r, r, r", "SHRXQ r, r, r", "ANDNQ r, r, r", "ROLL r8, r", "RORL r8, r"} {
		add(f, nil, "same-low")
	}
	add("RORXQ imm, r, r", []int64{0, 1, 13, 32, 63, 64}, "low")
	add("RORXQ imm, m, r", []int64{17}, "low")
	add("RORXQ imm, r, r", []int64{7}, "same-low")
	add("ROLL imm, r", []int64{0, 1, 7, 16, 31, 32}, "low")
	add("RORL imm, r", []int64{0, 1, 7, 16, 31, 33}, "low")
	// GP forms the committed code does not use yet, for the harness's own
	// coverage of the flags and the condition codes.
	for _, c := range []string{"CC", "CS", "EQ", "NE", "HI", "LS", "LT", "GE", "GT", "LE", "MI", "PL", "OS", "OC", "PS", "PC"} {
		add("SET"+c+" r8", nil, "low")
		add("CMOVQ"+c+" r, r", nil, "low")
		add("J"+c+" label", nil, "low")
	}
	for _, f := range []string{"SHLQ r8, r", "SHRQ r8, r", "SARQ r8, r", "SHLL r8, r", "SARL r8, r", "SHRW r8, r", "SHLB r8, r",
		"ADCXQ r, r", "ADOXQ r, r", "MULQ m", "NEGQ m", "NOTQ r", "INCQ r", "DECL r", "ADCL r, r", "SBBL r, r",
		"MOVBLZX r, r", "MOVWLZX m, r", "MOVLQZX m, r"} {
		add(f, nil, "low")
	}
	add("SARQ imm, r", []int64{1, 7, 63}, "low")
	add("SHLL imm, r", []int64{1, 5, 31}, "low")
	add("SHRB imm, r", []int64{1, 3, 7, 9}, "low")
	add("SHLQ r8, r", nil, "same-low")
	add("ADCXQ r, r", nil, "same-low")
	add("ADOXQ r, r", nil, "same-low")
	add("MULQ r", nil, "same-low")

	// Masked moves whose mask disables the elements past the end of the
	// buffer: neither the hardware (fault suppression) nor the model may
	// touch them.
	for _, c := range []struct {
		f              string
		pastEnd, esize int
	}{
		{"VMOVDQU8 m, k, z", 40, 1}, {"VMOVDQU8.Z m, k, z", 17, 1}, {"VMOVDQU8 z, k, m", 40, 1}, {"VMOVDQU8 y, k, m", 9, 1},
		{"VMOVDQU64 m, k, z", 24, 8}, {"VMOVDQU64 z, k, m", 24, 8}, {"VMOVDQU64.Z m, k, y", 8, 8},
	} {
		op, kinds := parseForm(c.f)
		specs = append(specs, &spec{op: op, kinds: kinds, regs: "high", origin: "added", pastEnd: c.pastEnd, esize: c.esize})
	}
	return specs
}
