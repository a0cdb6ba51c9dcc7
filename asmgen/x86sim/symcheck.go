package x86sim

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"unsafe"

	"github.com/vgcrypto/vg/asmgen/x86sim/sym"
)

// CheckSymbolic checks the symbolic semantics of every instruction of the
// functions names against the concrete model: for each distinct instruction
// (once, however many of the functions have it), trials random states
// (registers, flags, and the memory its operands address), run once by the
// concrete model and once symbolically over variables, must agree on every
// register, known flag, memory byte and branch, the symbolic results
// evaluated under the random values. The trials vary what is a variable:
// the vector registers, the general ones and the opmasks; the vector
// registers with the general ones and the opmasks constants; one vector
// operand alone (operands such as a shuffle control must be constants);
// nothing. A trial either side refuses
// (a misaligned access, a variable where the symbolic mode needs a
// constant) is skipped; an instruction every trial skipped is reported in
// the error, so that a proof never rests on semantics no trial exercised.
// Instructions with argument-frame operands are left to the proofs, which
// read the frame themselves; an instruction with no symbolic semantics is
// left out (a symbolic run that reaches it fails: a proof that stops
// before it, SymCut.Stop, never uses it). It returns how many
// instructions it checked.
func (p *Program) CheckSymbolic(trials int, seed uint64, names ...string) (int, error) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	seen := map[string]bool{}
	n := 0
	for _, name := range names {
		fn := p.funcs[name]
		if fn == nil {
			return n, fmt.Errorf("x86sim: no function %s", name)
		}
		for pc := range fn.insts {
			in := &fn.insts[pc]
			key := in.String()
			if in.op == "RET" || seen[key] || usesFrame(in) || !hasSymbolic(in) {
				continue
			}
			seen[key] = true
			ran := 0
			for t := 0; t < trials; t++ {
				ok, err := p.checkInst(fn, pc, rng, t)
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
	}
	return n, nil
}

// The names of checkInst's variables: memory bytes, general and vector
// registers.
var (
	memNames = names("mem%d", 256)
	gpNamesV = names("R%d", 16)
	vecNames = names("Z%d", 32)
	kNames   = names("K%d", 8)
)

func names(format string, n int) []string {
	r := make([]string, n)
	for i := range r {
		r[i] = fmt.Sprintf(format, i)
	}
	return r
}

// hasSymbolic reports whether the symbolic mode runs in (step).
func hasSymbolic(in *inst) bool {
	return symOps[in.op] != nil || gpConcreteOps[in.op] || in.target >= 0
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
func (p *Program) checkInst(fn *Func, pc int, rng *rand.Rand, trial int) (ok bool, err error) {
	gpConst := trial%4 != 1
	// varVec is the vector register that is a variable: -1 all, -2 none.
	varVec := -1
	switch trial % 4 {
	case 2:
		var regs []int
		for _, a := range fn.insts[pc].args {
			if a.kind == kReg && a.cls == cVec {
				regs = append(regs, int(a.reg))
			}
		}
		varVec = -2
		if len(regs) > 0 {
			varVec = regs[(trial/4)%len(regs)]
		}
	case 3:
		varVec = -2
	}
	in := &fn.insts[pc]
	size, at := len(memNames), uint64(64)
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
	m.regions = append(m.mergeRegions([]Region{{Name: "memory", Ptr: unsafe.Pointer(&buf[0]), Len: uintptr(size), Kind: Public}}), p.dataRegions()...)
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
		mem.bytes[i] = ctx.Var(memNames[i], 8)
	}
	s.regions = append([]*symRegion{mem}, p.symData()...)
	vals := map[string]*big.Int{}
	for i := range s.gp {
		if gpConst || addrReg[i] {
			s.gp[i] = sym.Const(64, init.gp[i])
		} else {
			name := gpNamesV[i]
			s.gp[i] = ctx.Var(name, 64)
			vals[name] = new(big.Int).SetUint64(init.gp[i])
		}
	}
	for i := range s.vec {
		if varVec == -1 || varVec == i {
			name := vecNames[i]
			s.vec[i] = ctx.Var(name, 512)
			vals[name] = leBig(init.vec[i][:])
		} else {
			s.vec[i] = sym.ConstBig(512, leBig(init.vec[i][:]))
		}
	}
	for i := range s.k {
		if gpConst {
			s.k[i] = sym.Const(64, init.k[i])
			continue
		}
		// With the general registers the opmasks are variables too, so
		// that a write mask's bits select elements symbolically.
		name := kNames[i]
		s.k[i] = ctx.Var(name, 64)
		vals[name] = new(big.Int).SetUint64(init.k[i])
	}
	for f := range s.fl {
		s.fl[f] = sym.Const(1, map[bool]uint64{true: 1}[init.fl[f]])
	}
	for i, b := range before {
		vals[memNames[i]] = big.NewInt(int64(b))
	}
	gp0, vec0 := s.gp, s.vec
	mem0 := append([]*sym.Word(nil), mem.bytes...)
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
	// A register or byte the symbolic step left as it was must be as it
	// was on the model too; the others are evaluated.
	for i := range s.gp {
		if s.gp[i] == gp0[i] {
			if m.gp[i] != init.gp[i] {
				return false, fmt.Errorf("%s: symbolic unchanged, model %#x from %#x", gpNames[i], m.gp[i], init.gp[i])
			}
			continue
		}
		if got, want := sym.Eval(s.gp[i], get), new(big.Int).SetUint64(m.gp[i]); got.Cmp(want) != 0 {
			return false, fmt.Errorf("%s: symbolic %#x, model %#x", gpNames[i], got, want)
		}
	}
	for i := range s.vec {
		if s.vec[i] == vec0[i] {
			if m.vec[i] != init.vec[i] {
				return false, fmt.Errorf("Z%d: symbolic unchanged, model changed", i)
			}
			continue
		}
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
		if w == mem0[i] {
			if buf[i] != before[i] {
				return false, fmt.Errorf("memory byte %d: symbolic unchanged, model %#x from %#x", i, buf[i], before[i])
			}
			continue
		}
		if got := sym.Eval(w, get); got.Uint64() != uint64(buf[i]) {
			return false, fmt.Errorf("memory byte %d: symbolic %#x, model %#x", i, got, buf[i])
		}
	}
	if s.jumped != (m.pc == -2) {
		return false, fmt.Errorf("branch: symbolic %v, model %v", s.jumped, m.pc == -2)
	}
	return true, nil
}
