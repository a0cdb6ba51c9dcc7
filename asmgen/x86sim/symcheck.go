package x86sim

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"unsafe"

	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

// CheckSymbolic checks the symbolic semantics of every instruction of the
// function name against the concrete model: for each distinct instruction,
// trials random states (registers, flags, and the memory its operands
// address), run once by the concrete model and once symbolically over
// variables, must agree on every register, known flag, memory byte and
// branch, the symbolic results evaluated under the random values. Half the
// trials give the general registers as constants (the concrete-operand
// path), half as variables. A trial either side refuses (a misaligned
// access, a variable where the symbolic mode needs a constant) is skipped;
// an instruction every trial skipped is reported in the error, so that a
// proof never rests on semantics no trial exercised. Instructions with
// argument-frame operands are left to the proofs, which read the frame
// themselves. It returns how many instructions it checked.
func (p *Program) CheckSymbolic(name string, trials int, seed uint64) (int, error) {
	fn := p.funcs[name]
	if fn == nil {
		return 0, fmt.Errorf("x86sim: no function %s", name)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	seen := map[string]bool{}
	n := 0
	for pc := range fn.insts {
		in := &fn.insts[pc]
		key := in.String()
		if in.op == "RET" || seen[key] || usesFrame(in) {
			continue
		}
		seen[key] = true
		ran := 0
		for t := 0; t < trials; t++ {
			ok, err := p.checkInst(fn, pc, rng, t%2 == 0)
			if err != nil {
				return n, fmt.Errorf("x86sim: symbolic semantics of %s (%s line %d) disagree with the model: %v", key, name, in.line, err)
			}
			if ok {
				ran++
			}
		}
		if ran == 0 {
			return n, fmt.Errorf("x86sim: symbolic semantics of %s (%s line %d): no trial ran", key, name, in.line)
		}
		n++
	}
	return n, nil
}

func usesFrame(in *inst) bool {
	for _, a := range in.args {
		if a.kind == kMem && a.fp {
			return true
		}
	}
	return false
}

func leBig(b []byte) *big.Int {
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	return new(big.Int).SetBytes(be)
}

// checkInst runs one trial of instruction pc of fn; ok is false when a side
// refused it.
func (p *Program) checkInst(fn *Func, pc int, rng *rand.Rand, gpConst bool) (ok bool, err error) {
	in := &fn.insts[pc]
	const size, at = 256, 64
	raw := make([]byte, size+64)
	off := int((64 - uintptr(unsafe.Pointer(&raw[0]))%64) % 64)
	buf := raw[off : off+size]
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	before := append([]byte(nil), buf...)
	base := uint64(uintptr(unsafe.Pointer(&buf[0])))

	m := machinePool.Get().(*Machine)
	defer m.release()
	for i := range m.gp {
		m.gp[i] = rng.Uint64()
	}
	addrReg := map[int]bool{}
	for _, a := range in.args {
		if a.kind != kMem || a.sym != nil {
			continue
		}
		if a.index >= 0 {
			m.gp[a.index] = uint64(rng.IntN(8))
			addrReg[int(a.index)] = true
		}
		if a.base >= 0 {
			idx := uint64(0)
			if a.index >= 0 {
				idx = m.gp[a.index] * uint64(a.scale)
			}
			m.gp[a.base] = base + at - uint64(a.disp) - idx
			addrReg[int(a.base)] = true
		}
	}
	for i := range m.vec {
		for j := range m.vec[i] {
			m.vec[i][j] = byte(rng.Uint32())
		}
	}
	for i := range m.k {
		m.k[i] = rng.Uint64()
	}
	for f := range m.fl {
		m.fl[f] = rng.IntN(2) == 1
	}
	init := *m
	m.fn, m.pc = fn, pc
	m.regions = append(m.mergeRegions([]Region{{Name: "memory", Ptr: unsafe.Pointer(&buf[0]), Len: size, Kind: Public}}), p.dataRegions()...)
	if cap(m.hit) < len(fn.insts) {
		m.hit = make([]bool, len(fn.insts))
	}
	m.hit = m.hit[:len(fn.insts)]
	faulted := func() (f bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(*Fault); !ok {
					panic(r)
				}
				f = true
			}
		}()
		in.exec(m, in)
		return false
	}()
	if faulted {
		return false, nil
	}

	ctx := sym.NewCtx()
	s := &symMachine{ctx: ctx, p: p, fn: fn, pc: pc}
	mem := &symRegion{name: "memory", base: base, bytes: make([]*sym.Word, size)}
	for i := range mem.bytes {
		mem.bytes[i] = ctx.Var(fmt.Sprintf("mem%d", i), 8)
	}
	s.regions = append([]*symRegion{mem}, p.symData()...)
	vals := map[string]*big.Int{}
	for i := range s.gp {
		if gpConst || addrReg[i] {
			s.gp[i] = sym.Const(64, init.gp[i])
		} else {
			name := fmt.Sprintf("R%d", i)
			s.gp[i] = ctx.Var(name, 64)
			vals[name] = new(big.Int).SetUint64(init.gp[i])
		}
	}
	for i := range s.vec {
		name := fmt.Sprintf("Z%d", i)
		s.vec[i] = ctx.Var(name, 512)
		vals[name] = leBig(init.vec[i][:])
	}
	for i := range s.k {
		s.k[i] = sym.Const(64, init.k[i])
	}
	for f := range s.fl {
		s.fl[f] = sym.Const(1, map[bool]uint64{true: 1}[init.fl[f]])
	}
	for i, b := range before {
		vals[fmt.Sprintf("mem%d", i)] = big.NewInt(int64(b))
	}
	refused := func() (r bool) {
		defer func() {
			if e := recover(); e != nil {
				if _, ok := e.(*SymError); !ok {
					panic(e)
				}
				r = true
			}
		}()
		s.step(in)
		return false
	}()
	if refused {
		return false, nil
	}
	get := func(name string) *big.Int { return vals[name] }
	for i := range s.gp {
		if got, want := sym.Eval(s.gp[i], get), new(big.Int).SetUint64(m.gp[i]); got.Cmp(want) != 0 {
			return false, fmt.Errorf("%s: symbolic %#x, model %#x", gpNames[i], got, want)
		}
	}
	for i := range s.vec {
		if got, want := sym.Eval(s.vec[i], get), leBig(m.vec[i][:]); got.Cmp(want) != 0 {
			return false, fmt.Errorf("Z%d: symbolic %#x, model %#x", i, got, want)
		}
	}
	for i := range s.k {
		if got := sym.Eval(s.k[i], get); got.Uint64() != m.k[i] {
			return false, fmt.Errorf("K%d: symbolic %#x, model %#x", i, got, m.k[i])
		}
	}
	for f := range s.fl {
		if s.fl[f] == nil {
			continue
		}
		if got := sym.Eval(s.fl[f], get); (got.Sign() != 0) != m.fl[f] {
			return false, fmt.Errorf("flag %d: symbolic %v, model %v", f, got, m.fl[f])
		}
	}
	for i, w := range mem.bytes {
		if got := sym.Eval(w, get); got.Uint64() != uint64(buf[i]) {
			return false, fmt.Errorf("memory byte %d: symbolic %#x, model %#x", i, got, buf[i])
		}
	}
	if s.jumped != (m.pc == -2) {
		return false, fmt.Errorf("branch: symbolic %v, model %v", s.jumped, m.pc == -2)
	}
	return true, nil
}
