package asmgen

import (
	"fmt"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/reg"
)

// compile is avo's pass.Compile with one change: a function whose registers
// avo cannot allocate is allocated again on a liveness that does not count
// zeroing XORs as reads (allocateRegisters). Near the register file's
// limit (vaes-avx512's bulk loop holds round keys, key powers and data in
// all 32 vector registers) those phantom reads make avo fail where an
// allocation exists. Functions avo allocates as they are keep avo's
// allocation, so their output does not change.
var compile pass.Interface = pass.Concat(
	pass.Verify,
	pass.FunctionPass(pass.PruneJumpToFollowingLabel),
	pass.FunctionPass(pass.PruneDanglingLabels),
	pass.FunctionPass(pass.LabelTarget),
	pass.FunctionPass(pass.CFG),
	pass.InstructionPass(pass.ZeroExtend32BitOutputs),
	pass.FunctionPass(pass.Liveness),
	pass.FunctionPass(allocateRegisters),
	pass.FunctionPass(pass.BindRegisters),
	pass.FunctionPass(pass.VerifyAllocation),
	pass.FunctionPass(pass.EnsureBasePointerCalleeSaved),
	pass.Func(pass.IncludeTextFlagHeader),
	pass.FunctionPass(pass.PruneSelfMoves),
	pass.FunctionPass(pass.RequiredISAExtensions),
)

// allocateRegisters is avo's allocation, else avo's allocation on a
// liveness without the reads of zeroing XORs.
func allocateRegisters(fn *ir.Function) error {
	err := pass.AllocateRegisters(fn)
	if err == nil {
		return nil
	}
	// avo's liveness takes a zeroing XOR (VPXORD x, x, x) to read x, so a
	// zeroed register is live from the function's entry to its zeroing
	// and interferes with everything written in between. Recompute it
	// without those reads, then allocate again.
	type inputs struct {
		ops        []operand.Op
		cancelling bool
	}
	saved := map[*ir.Instruction]inputs{}
	for _, i := range fn.Instructions() {
		if zeroIdiom(i) {
			saved[i] = inputs{i.Inputs, i.CancellingInputs}
			i.Inputs, i.CancellingInputs = nil, false
		}
	}
	defer func() {
		for i, in := range saved {
			i.Inputs, i.CancellingInputs = in.ops, in.cancelling
		}
	}()
	if err := pass.Liveness(fn); err != nil {
		return err
	}
	if err := pass.AllocateRegisters(fn); err != nil {
		return fmt.Errorf("%s: %w", fn.Name, err)
	}
	return nil
}

// zeroIdiom reports whether i is an XOR of a register with itself, which
// sets it to zero whatever it held.
func zeroIdiom(i *ir.Instruction) bool {
	switch i.Opcode {
	case "PXOR", "VPXOR", "VPXORD", "VPXORQ", "XORPS", "VXORPS", "XORQ", "XORL":
	default:
		return false
	}
	var first reg.Register
	for _, op := range i.Operands {
		r, ok := op.(reg.Register)
		if !ok {
			return false
		}
		if first == nil {
			first = r
		} else if r.ID() != first.ID() {
			return false
		}
	}
	return first != nil
}
