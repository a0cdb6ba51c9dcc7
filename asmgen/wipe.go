package asmgen

import (
	"fmt"
	"sort"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"
	"github.com/vgcrypto/vg/cpufeat"
)

// writtenRegisters returns the physical indexes of the vector and opmask
// registers that fn's (allocated) instructions write.
func writtenRegisters(fn *ir.Function) (vec, k []int) {
	vs, ks := map[int]bool{}, map[int]bool{}
	for _, i := range fn.Instructions() {
		for _, r := range i.OutputRegisters() {
			p := reg.ToPhysical(r)
			if p == nil {
				continue
			}
			switch p.Kind() {
			case reg.KindVector:
				vs[int(p.PhysicalIndex())] = true
			case reg.KindOpmask:
				ks[int(p.PhysicalIndex())] = true
			}
		}
	}
	for v := range vs {
		vec = append(vec, v)
	}
	for v := range ks {
		k = append(k, v)
	}
	sort.Ints(vec)
	sort.Ints(k)
	return vec, k
}

// WipeStoreWidth returns the width in bytes of the zero stores asmgen wipes
// stack scratch with in a backend requiring s: 64 where AVX-512 is allowed,
// 32 with AVX, else 16.
func WipeStoreWidth(s cpufeat.Set) int {
	switch {
	case s.Has(cpufeat.AVX512F):
		return 64
	case s.Has(cpufeat.AVX):
		return 32
	}
	return 16
}

func vecReg(idx, size int) reg.Register {
	var s reg.Spec
	switch size {
	case 16:
		s = reg.S128
	case 32:
		s = reg.S256
	default:
		s = reg.S512
	}
	return reg.LookupPhysical(reg.KindVector, reg.Index(idx), s)
}

// wipeSequence returns the instructions that zero the vector registers vec
// and opmask registers k and then store zeros over [0, scratch) of the stack.
func (g *Generator) wipeSequence(vec, k []int, scratch int) ([]*ir.Instruction, error) {
	req := g.backend.Requires
	avx := req.Has(cpufeat.AVX)
	var out []*ir.Instruction
	add := func(i *ir.Instruction, err error) error {
		if err != nil {
			return err
		}
		out = append(out, i)
		return nil
	}
	zero := append([]int(nil), vec...)
	if scratch > 0 && (len(zero) == 0 || zero[0] != 0) {
		zero = append([]int{0}, zero...)
	}
	for _, v := range zero {
		var err error
		switch {
		case v >= 16:
			z := vecReg(v, 64)
			err = add(x86.VPXORQ(z, z, z))
		case avx:
			x := vecReg(v, 16)
			err = add(x86.VPXOR(x, x, x)) // VEX: zeroes the whole register
		default:
			x := vecReg(v, 16)
			err = add(x86.PXOR(x, x))
		}
		if err != nil {
			return nil, err
		}
	}
	for _, v := range k {
		r := reg.LookupPhysical(reg.KindOpmask, reg.Index(v), reg.S64)
		if err := add(x86.KXORW(r, r, r)); err != nil {
			return nil, err
		}
	}
	width := WipeStoreWidth(req)
	for off := 0; off < scratch; {
		m := operand.NewStackAddr(off)
		var err error
		switch {
		case width >= 64 && scratch-off >= 64:
			err = add(x86.VMOVDQU64(vecReg(0, 64), m))
			off += 64
		case width >= 32 && scratch-off >= 32:
			err = add(x86.VMOVDQU(vecReg(0, 32), m))
			off += 32
		case avx:
			err = add(x86.VMOVDQU(vecReg(0, 16), m))
			off += 16
		default:
			err = add(x86.MOVOU(vecReg(0, 16), m))
			off += 16
		}
		if err != nil {
			return nil, err
		}
	}
	if avx {
		if err := add(x86.VZEROUPPER()); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// expandWipe inserts the wipe after every wipe marker of fn (one precedes each
// RET emitted by Func.Ret). It runs after register allocation, when the
// written registers are known.
func (g *Generator) expandWipe(fn *Func) error {
	if fn.cfg.noSecrets {
		return nil
	}
	vec, k := writtenRegisters(fn.ir)
	var nodes []ir.Node
	for _, n := range fn.ir.Nodes {
		nodes = append(nodes, n)
		c, ok := n.(*ir.Comment)
		if !ok || len(c.Lines) != 1 || c.Lines[0] != wipeMarker {
			continue
		}
		seq, err := g.wipeSequence(vec, k, fn.cfg.scratch)
		if err != nil {
			return fmt.Errorf("asmgen: %s: building wipe: %w", fn.name, err)
		}
		for _, i := range seq {
			nodes = append(nodes, i)
		}
	}
	fn.ir.Nodes = nodes
	return nil
}
