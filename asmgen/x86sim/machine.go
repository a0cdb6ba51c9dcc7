package x86sim

import (
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/vgcrypto/vg/internal/vgsim"
)

type opKind uint8

const (
	kNone opKind = iota
	kReg
	kImm
	kMem
)

type regClass uint8

const (
	cGP regClass = iota + 1
	cVec
	cK
)

// An operand is a pre-parsed instruction operand.
type operand struct {
	kind opKind
	cls  regClass
	reg  int8 // register number (GP 0-15, vector 0-31, opmask 0-7)
	// size is the register's width in bytes when named by size (X/Y/Z: 16,
	// 32, 64; AL-style: 1); 0 for GP registers named by their 64-bit name.
	size  int
	imm   int64
	base  int8
	index int8
	scale uint8
	disp  int64
	sym   *symbol
	// symRef marks a symbol reference not yet resolved (its DATA may
	// follow).
	symRef bool
	fp     bool
	// fpName is the argument's name in name+off(FP).
	fpName string
}

type inst struct {
	op      string
	args    []operand
	zeroing bool
	bcst    bool
	target  int
	line    int
	fn      *Func
	exec    func(m *Machine, in *inst)
	// w is the operand width in bytes of GP instructions (from the suffix)
	// or the vector length of vector instructions; set by bind.
	w int
	// cond is the condition code of Jcc, SETcc and CMOVcc.
	cond int
	// vex is true for V-prefixed vector instructions (zero above the
	// vector length), false for legacy SSE (preserve bits 511:128).
	vex bool
	// kmask is the opmask register of an EVEX write mask (1-7), 0 for none;
	// bind moves it out of args.
	kmask int8
}

// GP register numbers in hardware order.
const (
	rAX = iota
	rCX
	rDX
	rBX
	rSP
	rBP
	rSI
	rDI
)

var gpNames = [16]string{"AX", "CX", "DX", "BX", "SP", "BP", "SI", "DI", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"}

var regByName = func() map[string]operand {
	m := map[string]operand{}
	for i, n := range gpNames {
		m[n] = operand{kind: kReg, cls: cGP, reg: int8(i)}
	}
	for i, n := range []string{"AL", "CL", "DL", "BL", "SPB", "BPB", "SIB", "DIB"} {
		m[n] = operand{kind: kReg, cls: cGP, reg: int8(i), size: 1}
	}
	for i := 8; i < 16; i++ {
		m[fmt.Sprintf("R%dB", i)] = operand{kind: kReg, cls: cGP, reg: int8(i), size: 1}
		m[fmt.Sprintf("R%dW", i)] = operand{kind: kReg, cls: cGP, reg: int8(i), size: 2}
		m[fmt.Sprintf("R%dL", i)] = operand{kind: kReg, cls: cGP, reg: int8(i), size: 4}
	}
	for i := 0; i < 32; i++ {
		m[fmt.Sprintf("X%d", i)] = operand{kind: kReg, cls: cVec, reg: int8(i), size: 16}
		m[fmt.Sprintf("Y%d", i)] = operand{kind: kReg, cls: cVec, reg: int8(i), size: 32}
		m[fmt.Sprintf("Z%d", i)] = operand{kind: kReg, cls: cVec, reg: int8(i), size: 64}
	}
	for i := 0; i < 8; i++ {
		m[fmt.Sprintf("K%d", i)] = operand{kind: kReg, cls: cK, reg: int8(i), size: 8}
	}
	return m
}()

// Flags, in the order of the flag arrays.
const (
	fCF = iota
	fPF
	fZF
	fSF
	fOF
	nFlags
)

// Machine is the architectural state of one call: registers with a secret bit
// per byte, flags with a secret bit each, and the memory regions the call may
// touch.
type Machine struct {
	gp  [16]uint64
	gpT [16]uint8 // bit i: byte i secret
	vec [32][64]byte
	vT  [32]uint64
	k   [8]uint64
	kT  [8]uint8
	fl  [nFlags]bool
	flT [nFlags]bool

	regions []*region
	last    *region
	fn      *Func
	pc      int
	steps   uint64
	fault   *Fault
	// fp is the address of the argument frame (0(FP)).
	fp uint64
	// stack is the model's own stack region.
	stack *region
	hit   []bool
	start time.Time

	// Buffers reused from call to call (the machine is pooled).
	stackBuf    []uint64
	allBuf      []Region
	ivBuf       []interval
	regionStore []region
	regionPtrs  []*region
	arena       []byte
}

// The argument annotations are the seam's types, which the generated
// trampolines build without importing the model (see
// github.com/vgcrypto/vg/internal/vgsim).
type (
	// A Kind says what the memory behind a pointer argument holds.
	Kind = vgsim.Kind
	// A Region is memory a call may read and write: [Ptr, Ptr+Len).
	Region = vgsim.Region
	// A Frame is a call's argument frame (see [vgsim.Frame]).
	Frame = vgsim.Frame
)

// The kinds of memory: see [vgsim.Public], [vgsim.Secret], [vgsim.Output].
const (
	Public = vgsim.Public
	Secret = vgsim.Secret
	Output = vgsim.Output
)

// region is a merged, checked range of memory with its shadow state.
type region struct {
	names []string
	base  uint64
	end   uint64
	ptr   unsafe.Pointer
	// taint has one byte per byte of the region: bit 0 secret, bit 1 public
	// input (a secret store is an error).
	taint    []byte
	readOnly bool
	stack    bool
}

const (
	shSecret      = 1
	shPublicInput = 2
)

// A Fault is a check the model failed: the call's function, the instruction
// and what went wrong.
type Fault struct {
	Func string
	File string
	Line int
	Inst string
	Msg  string
}

func (f *Fault) Error() string {
	if f.Line == 0 {
		return fmt.Sprintf("x86sim: %s: %s", f.Func, f.Msg)
	}
	return fmt.Sprintf("x86sim: %s (%s:%d: %s): %s", f.Func, f.File, f.Line, f.Inst, f.Msg)
}

func (m *Machine) failf(format string, args ...any) {
	if m.fault != nil {
		return
	}
	f := &Fault{Func: m.fn.Name, File: m.fn.File, Msg: fmt.Sprintf(format, args...)}
	if m.pc >= 0 && m.pc < len(m.fn.insts) {
		in := &m.fn.insts[m.pc]
		f.Line = in.line
		f.Inst = in.String()
	}
	m.fault = f
	panic(f)
}

func (in *inst) String() string {
	var b strings.Builder
	b.WriteString(in.op)
	for i, a := range in.args {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		b.WriteString(a.String())
	}
	return b.String()
}

func (o operand) String() string {
	switch o.kind {
	case kImm:
		return fmt.Sprintf("$%#x", o.imm)
	case kReg:
		switch o.cls {
		case cGP:
			return gpNames[o.reg]
		case cVec:
			return fmt.Sprintf("%c%d", "XYZ"[map[int]int{16: 0, 32: 1, 64: 2}[o.size]], o.reg)
		case cK:
			return fmt.Sprintf("K%d", o.reg)
		}
	case kMem:
		if o.sym != nil {
			return fmt.Sprintf("%s<>+%d(SB)", o.sym.name, o.disp)
		}
		if o.fp {
			return fmt.Sprintf("%s%+d(FP)", o.fpName, o.disp)
		}
		s := fmt.Sprintf("%d", o.disp)
		if o.base >= 0 {
			s += "(" + gpNames[o.base] + ")"
		}
		if o.index >= 0 {
			s += fmt.Sprintf("(%s*%d)", gpNames[o.index], o.scale)
		}
		return s
	}
	return "?"
}

// StackBelowSP is how many bytes below SP the model's stack region reaches, so
// that a function that uses them is checked (and its secrets there found)
// rather than faulting on the access.
const StackBelowSP = 256

// stackExtra is room above the argument frame (the caller's frame, never
// valid for the callee) that is not part of any region.
const retAddr = 0x5a5a5a5a5a5a5a5a

// Call runs the function name of p on the argument frame f with the given
// regions, and copies the results back into the frame. It panics with a
// *Fault when a check fails.
func (p *Program) Call(name string, f Frame, regions ...Region) {
	if err := p.Run(name, f, regions...); err != nil {
		panic(err)
	}
}

// Run is Call returning the fault as an error instead of panicking.
func (p *Program) Run(name string, f Frame, regions ...Region) (err error) {
	fn := p.funcs[name]
	if fn == nil {
		return fmt.Errorf("x86sim: no function %s", name)
	}
	if f := checkAnnotations(name, regions); f != nil {
		return f
	}
	args := f.Ptr
	if uintptr(fn.Args) != f.Size || f.Results > f.Size {
		return fmt.Errorf("x86sim: %s: argument frame is %d bytes (results at %d), TEXT says %d", name, f.Size, f.Results, fn.Args)
	}
	m := machinePool.Get().(*Machine)
	defer m.release()
	m.fn, m.pc, m.start = fn, -1, time.Now()
	// The stack: StackBelowSP | frame | saved BP (if frame > 0) | return
	// address | arguments and results.
	bp := 0
	if fn.Frame > 0 {
		bp = 8
	}
	size := StackBelowSP + fn.Frame + bp + 8 + fn.Args
	if n := (size+7)/8 + 8; cap(m.stackBuf) < n {
		m.stackBuf = make([]uint64, n)
	} else {
		m.stackBuf = m.stackBuf[:n]
		clear(m.stackBuf)
	}
	stack := m.stackBuf
	sbase := unsafe.Pointer(&stack[0])
	argAt := StackBelowSP + fn.Frame + bp + 8
	copy(unsafe.Slice((*byte)(unsafe.Add(sbase, argAt)), fn.Args), unsafe.Slice((*byte)(args), fn.Args))
	*(*uint64)(unsafe.Add(sbase, argAt-8)) = retAddr
	if bp > 0 {
		*(*uint64)(unsafe.Add(sbase, argAt-16)) = retAddr
	}
	all := append(m.allBuf[:0], Region{Name: "stack", Ptr: sbase, Len: uintptr(argAt), Kind: Output})
	all = append(all, regions...)
	all = append(all, Region{Name: "argument slots", Ptr: unsafe.Add(sbase, argAt), Len: f.Results, Kind: Public})
	all = append(all, Region{Name: "result slots", Ptr: unsafe.Add(sbase, argAt+int(f.Results)), Len: f.Size - f.Results, Kind: Output})
	m.allBuf = all
	call := m.mergeRegions(all)
	ncall := len(call)
	m.regions = append(call, p.dataRegions()...)
	saddr := uint64(uintptr(sbase))
	for _, r := range m.regions {
		if r.base <= saddr && saddr < r.end {
			m.stack = r
			r.stack = true
		}
	}
	m.gp[rSP] = saddr + StackBelowSP
	m.fp = saddr + uint64(argAt)
	if cap(m.hit) < len(fn.insts) {
		m.hit = make([]bool, len(fn.insts))
	} else {
		m.hit = m.hit[:len(fn.insts)]
		clear(m.hit)
	}
	for w := 0; w < 64 && w*8 < int(f.Results); w++ {
		if f.SecretWords>>w&1 != 0 {
			for _, r := range m.regions {
				if a := m.fp + uint64(8*w); a >= r.base && a < r.end {
					for b := a - r.base; b < a-r.base+8 && b < r.end-r.base; b++ {
						r.taint[b] = r.taint[b]&^shPublicInput | shSecret
					}
				}
			}
		}
	}
	// Under valgrind (build tag valgrind) the secret bits come from
	// memcheck instead, checked against the annotations (valgrind.go).
	vb, err := m.valgrindEnter(name, f, ncall, saddr, saddr+uint64(len(stack))*8)
	if err != nil {
		return err
	}

	defer func() {
		if r := recover(); r != nil {
			if vb != nil {
				m.valgrindAbort(vb)
			}
			f, ok := r.(*Fault)
			if !ok {
				panic(r)
			}
			err = f
		}
	}()
	m.run()
	// Only the result slots go back: the function may have used its
	// argument slots as scratch (avo spills there), and the caller's frame
	// holds typed pointers in them.
	res := int(f.Results)
	copy(unsafe.Slice((*byte)(unsafe.Add(args, res)), fn.Args-res), unsafe.Slice((*byte)(unsafe.Add(sbase, argAt+res)), fn.Args-res))
	if vb != nil {
		m.valgrindLeave(vb, unsafe.Add(args, res), uintptr(fn.Args-res))
	}
	// stack must stay reachable until here: the model addressed it by
	// number.
	_ = stack[0]
	return nil
}

// dataRegions returns the read-only regions of p's DATA tables, made once:
// nothing writes them, so every call shares their shadow state.
func (p *Program) dataRegions() []*region {
	p.dataOnce.Do(func() {
		for _, s := range p.syms {
			if len(s.data) == 0 {
				continue
			}
			base := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(s.data))))
			r := &region{names: []string{s.name + "<>(SB)"}, base: base, end: base + uint64(len(s.data)),
				ptr: unsafe.Pointer(unsafe.SliceData(s.data)), taint: make([]byte, len(s.data)), readOnly: true}
			fill(r.taint, shPublicInput)
			p.data = append(p.data, r)
		}
	})
	return p.data
}

// fill sets every byte of b to v.
func fill(b []byte, v byte) {
	if len(b) == 0 {
		return
	}
	b[0] = v
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// shadowOf is the initial shadow byte of memory of kind k.
func shadowOf(k Kind) byte {
	switch k {
	case Secret:
		return shSecret
	case Output:
		return 0
	}
	return shPublicInput
}

// An interval is one Region as addresses.
type interval struct {
	lo, hi uint64
	r      Region
}

// mergeRegions turns the call's regions into checked regions, merging those
// that overlap (in-place calls: out and in the same memory), with their
// shadow memory in m's arena.
func (m *Machine) mergeRegions(rs []Region) []*region {
	type iv = interval
	ivs := m.ivBuf[:0]
	for _, r := range rs {
		if r.Len == 0 || r.Ptr == nil {
			continue
		}
		lo := uint64(uintptr(r.Ptr))
		ivs = append(ivs, iv{lo, lo + uint64(r.Len), r})
	}
	m.ivBuf = ivs
	sortIntervals(ivs)
	total := uint64(0)
	for _, v := range ivs {
		total += v.hi - v.lo
	}
	if uint64(cap(m.arena)) < total {
		m.arena = make([]byte, total)
	}
	arena := m.arena[:total]
	if cap(m.regionStore) < len(ivs) {
		m.regionStore = make([]region, len(ivs))
	}
	store := m.regionStore[:0]
	out := m.regionPtrs[:0]
	for i := 0; i < len(ivs); {
		lo, hi := ivs[i].lo, ivs[i].hi
		j := i + 1
		for j < len(ivs) && ivs[j].lo < hi {
			if ivs[j].hi > hi {
				hi = ivs[j].hi
			}
			j++
		}
		store = append(store, region{base: lo, end: hi, ptr: ivs[i].r.Ptr, taint: arena[: hi-lo : hi-lo], readOnly: true, names: store[len(store):cap(store)][0].names[:0]})
		arena = arena[hi-lo:]
		rg := &store[len(store)-1]
		if j == i+1 {
			// One region alone: its shadow is uniform.
			r := ivs[i].r
			rg.names = append(rg.names, r.Name)
			rg.readOnly = r.ReadOnly
			fill(rg.taint, shadowOf(r.Kind))
			out = append(out, rg)
			i = j
			continue
		}
		// Overlapping regions (in-place calls: out and in the same
		// memory). Per byte: secret if any covering region is Secret;
		// public input if every covering region is Public.
		fill(rg.taint, shPublicInput)
		for _, v := range ivs[i:j] {
			rg.names = append(rg.names, v.r.Name)
			if !v.r.ReadOnly {
				rg.readOnly = false
			}
			sh := rg.taint[v.lo-lo : v.hi-lo]
			switch v.r.Kind {
			case Secret:
				for k := range sh {
					sh[k] = sh[k]&^shPublicInput | shSecret
				}
			case Output:
				for k := range sh {
					sh[k] &^= shPublicInput
				}
			}
		}
		out = append(out, rg)
		i = j
	}
	m.regionPtrs = out
	return out
}

// sortIntervals sorts by start address (insertion sort: a call has a handful
// of regions).
func sortIntervals(ivs []interval) {
	for i := 1; i < len(ivs); i++ {
		for j := i; j > 0 && ivs[j].lo < ivs[j-1].lo; j-- {
			ivs[j], ivs[j-1] = ivs[j-1], ivs[j]
		}
	}
}

var machinePool = sync.Pool{New: func() any { return new(Machine) }}

// release clears m's state and returns it to the pool: the registers, and
// the references into the caller's memory, so that a pooled machine keeps
// no buffer alive and no secret.
func (m *Machine) release() {
	m.gp, m.gpT = [16]uint64{}, [16]uint8{}
	clear(m.vec[:])
	m.vT = [32]uint64{}
	m.k, m.kT = [8]uint64{}, [8]uint8{}
	m.fl, m.flT = [nFlags]bool{}, [nFlags]bool{}
	// Only what this call used: the slices' lengths.
	for i := range m.regionPtrs {
		m.regionStore[i].ptr = nil
		m.regionStore[i].names = m.regionStore[i].names[:0]
	}
	clear(m.allBuf)
	clear(m.ivBuf)
	clear(m.regionPtrs)
	m.allBuf, m.ivBuf, m.regionPtrs = m.allBuf[:0], m.ivBuf[:0], m.regionPtrs[:0]
	clear(m.stackBuf)
	m.regions, m.last, m.stack, m.fn, m.fault = nil, nil, nil, nil, nil
	m.steps, m.fp = 0, 0
	machinePool.Put(m)
}

// find returns the region holding [addr, addr+n) or faults.
func (m *Machine) find(addr uint64, n int, write bool) *region {
	if r := m.last; r != nil && addr >= r.base && addr+uint64(n) <= r.end && addr+uint64(n) >= addr {
		if write && r.readOnly {
			m.failf("write of %d bytes at %#x into read-only %s", n, addr, strings.Join(r.names, "/"))
		}
		return r
	}
	for _, r := range m.regions {
		if addr >= r.base && addr+uint64(n) <= r.end && addr+uint64(n) >= addr {
			m.last = r
			if write && r.readOnly {
				m.failf("write of %d bytes at %#x into read-only %s", n, addr, strings.Join(r.names, "/"))
			}
			return r
		}
	}
	m.failf("%s of %d bytes at %#x is outside every region of the call; nearest: %s", map[bool]string{false: "read", true: "write"}[write], n, addr, m.nearest(addr, n))
	return nil
}

func (m *Machine) nearest(addr uint64, n int) string {
	best := ""
	var bestD uint64 = ^uint64(0)
	for _, r := range m.regions {
		name := strings.Join(r.names, "/")
		size := r.end - r.base
		var d uint64
		var rel string
		switch {
		case addr+uint64(n) <= r.base:
			d = r.base - addr
			rel = fmt.Sprintf("%d bytes before %s (%d bytes long)", d, name, size)
		case addr >= r.end:
			d = addr - r.end + 1
			rel = fmt.Sprintf("offset %d of %s (%d bytes long), past its end", addr-r.base, name, size)
		case addr < r.base:
			rel = fmt.Sprintf("offset -%d..%d of %s (%d bytes long): %d bytes before its start", r.base-addr, int64(addr)+int64(n)-int64(r.base)-1, name, size, r.base-addr)
		default:
			rel = fmt.Sprintf("offset %d..%d of %s (%d bytes long): %d bytes past its end", addr-r.base, addr-r.base+uint64(n)-1, name, size, addr+uint64(n)-r.end)
		}
		if d < bestD {
			bestD = d
			best = rel
		}
	}
	return best
}

// load reads n (≤ 64) bytes at addr into b and returns their secret bits.
func (m *Machine) load(addr uint64, b []byte) uint64 {
	n := len(b)
	r := m.find(addr, n, false)
	off := addr - r.base
	copy(b, unsafe.Slice((*byte)(unsafe.Add(r.ptr, off)), n))
	sh := r.taint[off : off+uint64(n)]
	var t uint64
	i := 0
	for ; i+8 <= n; i += 8 {
		t |= uint64(gatherSecret(binary.LittleEndian.Uint64(sh[i:]))) << i
	}
	for ; i < n; i++ {
		t |= uint64(sh[i]&shSecret) << i
	}
	return t
}

// store writes b to addr with secret bits t.
func (m *Machine) store(addr uint64, b []byte, t uint64) {
	n := len(b)
	r := m.find(addr, n, true)
	off := addr - r.base
	sh := r.taint[off : off+uint64(n)]
	i := 0
	for ; i+8 <= n; i += 8 {
		w, e := binary.LittleEndian.Uint64(sh[i:]), spreadBits[uint8(t>>i)]
		if w&pubBits&(e<<1) != 0 {
			break // the byte loop below names the first such byte
		}
		binary.LittleEndian.PutUint64(sh[i:], w&^lowBits|e)
	}
	for ; i < n; i++ {
		s := byte(t>>i) & 1
		if s != 0 && sh[i]&shPublicInput != 0 {
			m.failf("secret byte stored at %#x into public input %s", addr+uint64(i), strings.Join(r.names, "/"))
		}
		sh[i] = sh[i]&^shSecret | s
	}
	copy(unsafe.Slice((*byte)(unsafe.Add(r.ptr, off)), n), b)
}

// spreadBits[t] has byte i equal to bit i of t: the shadow secret bits of
// eight bytes whose taint mask is t.
var spreadBits = func() (tab [256]uint64) {
	for t := range tab {
		for i := 0; i < 8; i++ {
			tab[t] |= uint64(t>>i&1) << (8 * i)
		}
	}
	return tab
}()

const (
	lowBits  = 0x0101010101010101
	pubBits  = lowBits * shPublicInput
	gatherLo = 0x8040201008040201
)

// gatherSecret returns bit i set when byte i of the eight shadow bytes w has
// its secret bit.
func gatherSecret(w uint64) uint8 {
	w &= lowBits
	return uint8((w * 0x0102040810204080) >> 56)
}

// loadN and storeN are the fast paths for 1-8 byte GP accesses.
func (m *Machine) loadN(addr uint64, n int) (uint64, uint8) {
	r := m.find(addr, n, false)
	off := addr - r.base
	p := unsafe.Add(r.ptr, off)
	switch n {
	case 8:
		return *(*uint64)(p), gatherSecret(*(*uint64)(unsafe.Pointer(&r.taint[off])))
	case 4:
		return uint64(*(*uint32)(p)), gatherSecret(uint64(*(*uint32)(unsafe.Pointer(&r.taint[off]))))
	case 2:
		return uint64(*(*uint16)(p)), gatherSecret(uint64(*(*uint16)(unsafe.Pointer(&r.taint[off]))))
	}
	return uint64(*(*uint8)(p)), r.taint[off] & shSecret
}

func (m *Machine) storeN(addr uint64, n int, v uint64, t uint8) {
	r := m.find(addr, n, true)
	off := addr - r.base
	if n == 8 {
		sh := (*uint64)(unsafe.Pointer(&r.taint[off]))
		e := spreadBits[t]
		if e != 0 && (*sh&pubBits)&(e<<1) != 0 {
			m.failf("secret byte stored at %#x into public input %s", addr, strings.Join(r.names, "/"))
		}
		*sh = *sh&^lowBits | e
		*(*uint64)(unsafe.Add(r.ptr, off)) = v
		return
	}
	sh := r.taint[off : off+uint64(n)]
	for i := range sh {
		s := (t >> i) & 1
		if s != 0 && sh[i]&shPublicInput != 0 {
			m.failf("secret byte stored at %#x into public input %s", addr+uint64(i), strings.Join(r.names, "/"))
		}
		sh[i] = sh[i]&^shSecret | s
	}
	p := unsafe.Add(r.ptr, off)
	switch n {
	case 4:
		*(*uint32)(p) = uint32(v)
	case 2:
		*(*uint16)(p) = uint16(v)
	case 1:
		*(*uint8)(p) = uint8(v)
	}
}

// addr computes a memory operand's address, faulting when a register it uses
// holds a secret byte.
func (m *Machine) addr(o *operand) uint64 {
	if o.sym != nil {
		return uint64(uintptr(unsafe.Pointer(unsafe.SliceData(o.sym.data)))) + uint64(o.disp)
	}
	if o.fp {
		return m.fp + uint64(o.disp)
	}
	a := uint64(o.disp)
	if o.base >= 0 {
		if m.gpT[o.base] != 0 {
			m.failf("address uses secret register %s", gpNames[o.base])
		}
		a += m.gp[o.base]
	}
	if o.index >= 0 {
		if m.gpT[o.index] != 0 {
			m.failf("address uses secret index register %s", gpNames[o.index])
		}
		a += m.gp[o.index] * uint64(o.scale)
	}
	return a
}

// MaxSteps bounds the instructions of one call, so that a model bug that
// loops is a fault, not a hang.
var MaxSteps uint64 = 1 << 34

func (m *Machine) run() {
	fn := m.fn
	insts := fn.insts
	m.pc = 0
	for {
		if m.pc >= len(insts) {
			m.failf("ran past the last instruction without RET")
		}
		in := &insts[m.pc]
		m.hit[m.pc] = true
		m.steps++
		if in.op == "RET" {
			m.ret()
			return
		}
		next := m.pc + 1
		in.exec(m, in)
		if m.pc != -2 {
			m.pc = next
		} else {
			m.pc = in.target
		}
	}
}

// jump makes the current instruction's branch taken.
func (m *Machine) jump() { m.pc = -2 }

// ret checks the state a function returns with: no secret in any vector or
// opmask register, nor in the model's stack.
func (m *Machine) ret() {
	if m.gp[rSP] != m.fp-8-uint64(map[bool]int{true: 8}[m.fn.Frame > 0])-uint64(m.fn.Frame) {
		m.failf("returns with SP moved by %d bytes", int64(m.gp[rSP])-int64(m.fp-8-uint64(map[bool]int{true: 8}[m.fn.Frame > 0])-uint64(m.fn.Frame)))
	}
	var bad []string
	for i := 0; i < 32; i++ {
		if m.vT[i] != 0 {
			bad = append(bad, fmt.Sprintf("Z%d (bytes %s)", i, byteList(m.vT[i])))
		}
	}
	for i := 0; i < 8; i++ {
		if m.kT[i] != 0 {
			bad = append(bad, fmt.Sprintf("K%d", i))
		}
	}
	if len(bad) > 0 {
		m.failf("returns with secrets in %s", strings.Join(bad, ", "))
	}
	if s := m.stack; s != nil {
		argAt := m.fp - s.base
		var left []string
		for i, t := range s.taint[:argAt-8] {
			if t&shSecret != 0 {
				left = append(left, fmt.Sprintf("%d(SP)", int64(s.base)+int64(i)-int64(m.gp[rSP])))
				if len(left) == 8 {
					left = append(left, "...")
					break
				}
			}
		}
		if len(left) > 0 {
			m.failf("returns with secret bytes left on its stack at %s", strings.Join(left, " "))
		}
	}
	Stats.add(m)
}

func byteList(t uint64) string {
	var lo, hi = -1, -1
	for i := 0; i < 64; i++ {
		if t>>i&1 != 0 {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	return fmt.Sprintf("%d..%d", lo, hi)
}
