package asmgen

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/vgcrypto/vg/cpufeat"
)

// regState orders what the wipe check knows about a register: known zero <
// untouched since entry (clean, contents unknown) < dirty (written by the
// function).
type regState uint8

const (
	rsZero regState = iota
	rsUntouched
	rsDirty
)

type wstate struct {
	vec    [32]regState
	k      [8]regState
	gpZero uint16 // general-purpose registers known to hold zero
	gpStk  uint16 // general-purpose registers that may hold an address in the frame
	// gpAny: general-purpose registers that may hold a copy of SP or an
	// address LEAQ computed outside the frame: stores through them may
	// write any byte below SP or in the frame.
	gpAny uint16
	// stack holds the dirty bytes of [lo, frame) of the stackLayout,
	// indexed from lo: below SP and the frame.
	stack []bool
	lo    int
}

func (s *wstate) clone() *wstate {
	c := *s
	c.stack = append([]bool(nil), s.stack...)
	return &c
}

func (s *wstate) join(o *wstate) bool {
	changed := false
	for i := range s.vec {
		if o.vec[i] > s.vec[i] {
			s.vec[i], changed = o.vec[i], true
		}
	}
	for i := range s.k {
		if o.k[i] > s.k[i] {
			s.k[i], changed = o.k[i], true
		}
	}
	if z := s.gpZero & o.gpZero; z != s.gpZero {
		s.gpZero, changed = z, true
	}
	if z := s.gpStk | o.gpStk; z != s.gpStk {
		s.gpStk, changed = z, true
	}
	if z := s.gpAny | o.gpAny; z != s.gpAny {
		s.gpAny, changed = z, true
	}
	for i := range s.stack {
		if o.stack[i] && !s.stack[i] {
			s.stack[i], changed = true, true
		}
	}
	return changed
}

// isZeroIdiom reports whether i zeroes its destination register: an opcode of
// zeroIdioms whose register operands are all the same register.
func isZeroIdiom(i *ir.Instruction) bool {
	if !zeroIdioms[i.Opcode] || len(i.Operands) < 2 {
		return false
	}
	for _, op := range i.Operands {
		if !sameRegister(op, i.Operands[0]) {
			return false
		}
	}
	return true
}

// knownZero reports whether the value op holds is known to be zero.
func (s *wstate) knownZero(op operand.Op) bool {
	switch op := op.(type) {
	case operand.Constant:
		return isZeroConst(op)
	case reg.Register:
		p := reg.ToPhysical(op)
		if p == nil {
			return false
		}
		switch p.Kind() {
		case reg.KindGP:
			return s.gpZero&(1<<p.PhysicalIndex()) != 0
		case reg.KindVector:
			return s.vec[p.PhysicalIndex()] == rsZero
		case reg.KindOpmask:
			return s.k[p.PhysicalIndex()] == rsZero
		}
	}
	return false
}

// holdsStackAddr reports whether r may hold an address in the stack frame.
func (s *wstate) holdsStackAddr(r reg.Register) bool {
	return s.gpBit(s.gpStk, r) || s.holdsAnyStackAddr(r)
}

// holdsAnyStackAddr reports whether r may hold a copy of SP or an address
// outside the frame.
func (s *wstate) holdsAnyStackAddr(r reg.Register) bool {
	return isSP(r) || s.gpBit(s.gpAny, r)
}

func (s *wstate) gpBit(set uint16, r reg.Register) bool {
	if r == nil {
		return false
	}
	p := reg.ToPhysical(r)
	return p != nil && p.Kind() == reg.KindGP && set&(1<<p.PhysicalIndex()) != 0
}

func isZeroConst(c operand.Constant) bool {
	switch v := c.(type) {
	case operand.U8:
		return v == 0
	case operand.U16:
		return v == 0
	case operand.U32:
		return v == 0
	case operand.U64:
		return v == 0
	case operand.I8:
		return v == 0
	case operand.I16:
		return v == 0
	case operand.I32:
		return v == 0
	case operand.I64:
		return v == 0
	}
	return false
}

// wipeStep applies instruction i to s, in a function whose frame is frame
// bytes.
func (g *Generator) wipeStep(s *wstate, i *ir.Instruction, frame int) {
	if i.Opcode == "VZEROALL" {
		for r := 0; r < 16; r++ {
			s.vec[r] = rsZero
		}
		return
	}
	w := wipeWrite{
		zeroIdiom: isZeroIdiom(i),
		isMove:    strings.HasPrefix(i.Opcode, "MOV") || strings.HasPrefix(i.Opcode, "VMOV"),
		avx:       g.backend.Requires.Has(cpufeat.AVX),
	}
	w.stackAddr, w.anyAddr = s.addressKinds(i, frame)
	for _, op := range i.Outputs {
		switch op := op.(type) {
		case reg.Register:
			if p := reg.ToPhysical(op); p != nil {
				s.writeReg(i, p, w)
			}
		case operand.Mem:
			s.writeMem(i, op, w.isMove)
		}
	}
}

// wipeWrite is what wipeStep knows of an instruction's writes: whether it
// is a zeroing idiom, a move, in an AVX backend, and whether it computes an
// address in the frame (stackAddr) or one that may reach below SP
// (anyAddr).
type wipeWrite struct {
	zeroIdiom, isMove, avx bool
	stackAddr, anyAddr     bool
}

// addressKinds reports whether instruction i computes a stack address
// (LEAQ x(SP), or arithmetic on a register holding one): an address inside
// the frame (LEAQ x(SP), 0 <= x < frame) is taken to stay there
// (stackAddr); a copy of SP or an address outside the frame may reach
// below SP (anyAddr).
func (s *wstate) addressKinds(i *ir.Instruction, frame int) (stackAddr, anyAddr bool) {
	for _, in := range i.Inputs {
		switch in := in.(type) {
		case operand.Mem:
			if !opTable[i.Opcode].addrOnly {
				continue
			}
			if isSP(in.Base) && in.Index == nil && in.Disp >= 0 && in.Disp < frame {
				stackAddr = true
			} else if isSP(in.Base) || in.Base == reg.FramePointer || s.holdsAnyStackAddr(in.Base) || s.holdsAnyStackAddr(in.Index) {
				anyAddr = true
			} else if s.holdsStackAddr(in.Base) || s.holdsStackAddr(in.Index) {
				stackAddr = true
			}
		case reg.Register:
			if s.holdsAnyStackAddr(in) {
				anyAddr = true
			} else if s.holdsStackAddr(in) {
				stackAddr = true
			}
		}
	}
	return stackAddr, anyAddr
}

// writeReg records instruction i's write of register p.
func (s *wstate) writeReg(i *ir.Instruction, p reg.Physical, w wipeWrite) {
	idx := p.PhysicalIndex()
	switch p.Kind() {
	case reg.KindGP:
		zero := w.zeroIdiom || (w.isMove && len(i.Inputs) == 1 && s.knownZero(i.Inputs[0]) && p.Size() >= 4)
		if zero {
			s.gpZero |= 1 << idx
		} else {
			s.gpZero &^= 1 << idx
		}
		s.gpStk &^= 1 << idx
		s.gpAny &^= 1 << idx
		switch {
		case w.zeroIdiom:
		case w.anyAddr:
			s.gpAny |= 1 << idx
		case w.stackAddr:
			s.gpStk |= 1 << idx
		}
	case reg.KindVector:
		switch {
		case w.zeroIdiom && !strings.HasPrefix(i.Opcode, "V") && w.avx && s.vec[idx] == rsDirty:
			// Legacy SSE zeroing keeps the upper lanes, which an AVX
			// backend may have written.
		case w.zeroIdiom:
			s.vec[idx] = rsZero
		default:
			s.vec[idx] = rsDirty
		}
	case reg.KindOpmask:
		if w.zeroIdiom {
			s.k[idx] = rsZero
		} else {
			s.k[idx] = rsDirty
		}
	}
}

// writeMem records instruction i's write of op, if op is on the stack:
// the bytes written are dirty, or clean when a move stores a known zero.
func (s *wstate) writeMem(i *ir.Instruction, op operand.Mem, isMove bool) {
	viaReg := s.holdsStackAddr(op.Base) || s.holdsStackAddr(op.Index)
	if !isSP(op.Base) && !viaReg {
		return // the heap, the argument frame
	}
	zero := isMove
	for _, in := range i.Inputs {
		if _, isMem := in.(operand.Mem); isMem || !s.knownZero(in) {
			zero = false
		}
	}
	width, exact := accessWidth(i, opTable[i.Opcode])
	if bitOffsetReg(i) != nil {
		exact = false
	}
	if !isSP(op.Base) || op.Index != nil || !exact {
		if zero {
			return
		}
		lo := 0 // through a pointer into the frame
		if isSP(op.Base) || s.holdsAnyStackAddr(op.Base) || s.holdsAnyStackAddr(op.Index) {
			lo = s.lo
		}
		for b := lo - s.lo; b < len(s.stack); b++ {
			s.stack[b] = true
		}
		return
	}
	for b := max(op.Disp, s.lo); b < op.Disp+width && b-s.lo < len(s.stack); b++ {
		s.stack[b-s.lo] = !zero
	}
}

// checkWipe is the wipe-present check: on every path to every RET of a
// function with secrets, every vector and opmask register the function wrote
// is zeroed again and every stack byte it wrote is overwritten with zeros,
// the spill slots ([Spills]) apart.
func (g *Generator) checkWipe(fn *Func) []error {
	if fn.cfg.noSecrets {
		return nil
	}
	is := fn.ir.Instructions()
	bs := basicBlocks(is)
	if len(bs) == 0 {
		return nil
	}
	l := layoutOf(fn)
	entry := &wstate{gpZero: 0, stack: make([]bool, l.frame-l.lo), lo: l.lo}
	for r := range entry.vec {
		entry.vec[r] = rsUntouched
	}
	for r := range entry.k {
		entry.k[r] = rsUntouched
	}
	in := make([]*wstate, len(bs))
	in[0] = entry
	for changed := true; changed; {
		changed = false
		for b := range bs {
			if in[b] == nil {
				continue
			}
			s := in[b].clone()
			for n := bs[b].start; n < bs[b].end; n++ {
				g.wipeStep(s, is[n], l.frame)
			}
			for _, succ := range bs[b].succ {
				if in[succ] == nil {
					in[succ] = s.clone()
					changed = true
				} else if in[succ].join(s) {
					changed = true
				}
			}
		}
	}
	var errs []error
	for b := range bs {
		if in[b] == nil {
			continue
		}
		s := in[b].clone()
		for n := bs[b].start; n < bs[b].end; n++ {
			i := is[n]
			if i.Opcode == "RET" {
				// The spill slots hold no secret (the taint check
				// sees to it) and are not wiped.
				for _, sp := range fn.spills {
					for b := sp.mem.Disp; b < sp.mem.Disp+8 && b-s.lo < len(s.stack); b++ {
						s.stack[b-s.lo] = false
					}
				}
				if msg := s.dirtyReport(); msg != "" {
					errs = append(errs, fmt.Errorf("asmgen: %s: instruction %d %q returns without wiping: %s (end the function with Func.Ret)",
						fn.name, n, instText(i), msg))
				}
			}
			g.wipeStep(s, i, l.frame)
		}
	}
	return errs
}

func (s *wstate) dirtyReport() string {
	var parts []string
	var regs []string
	for r, st := range s.vec {
		if st == rsDirty {
			regs = append(regs, fmt.Sprintf("X%d", r))
		}
	}
	for r, st := range s.k {
		if st == rsDirty {
			regs = append(regs, fmt.Sprintf("K%d", r))
		}
	}
	if len(regs) > 0 {
		parts = append(parts, "vector registers "+strings.Join(regs, ", ")+" still hold written values")
	}
	var ranges []string
	for b := 0; b < len(s.stack); {
		if !s.stack[b] {
			b++
			continue
		}
		e := b
		for e < len(s.stack) && s.stack[e] {
			e++
		}
		if b+s.lo < 0 {
			ranges = append(ranges, fmt.Sprintf("%d..%d(SP)", b+s.lo, e-1+s.lo))
		} else {
			ranges = append(ranges, fmt.Sprintf("%d-%d(SP)", b+s.lo, e-1+s.lo))
		}
		b = e
	}
	if len(ranges) > 0 {
		parts = append(parts, "stack bytes "+strings.Join(ranges, ", ")+" not wiped")
	}
	return strings.Join(parts, "; ")
}
