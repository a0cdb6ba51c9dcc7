// Command gen generates asmgen's example package: one assembly file per
// backend declared in decl, each checked by asmgen (arch gates, constant-time
// taint, wipe present). It is the smallest complete use of asmgen and the
// target of asmgen's end-to-end tests; it is not shipped. Run it from this
// directory (go run .) or with go generate in the example package.
package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/vgcrypto/vg/asmgen"
	"github.com/vgcrypto/vg/asmgen/internal/example/decl"
	"github.com/vgcrypto/vg/cpufeat"
)

func main() {
	var targets []asmgen.Target
	for _, b := range decl.Backends {
		targets = append(targets, asmgen.Target{Backend: b.Name, Declare: declare})
	}
	asmgen.MainBackends(decl.Backends, targets...)
}

// declare declares every function of g's backend.
func declare(g *asmgen.Generator) {
	g.Package("example")
	s := g.Suffix()

	fn := g.Func("gatherCopy"+s, "func(dst []byte, srcs [][]byte)",
		asmgen.Doc("gatherCopy"+s+" copies the bytes of srcs one after the other to dst, which is long enough."),
		asmgen.SecretSlices("srcs"), asmgen.Secret("dst"))
	dst, descs, n := g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("dst").Base(), dst)
	g.Load(g.Param("srcs").Base(), descs)
	g.Load(g.Param("srcs").Len(), n)
	fn.GatherCopy(dst, descs, n)
	fn.Ret()

	fn = g.Func("xorBytes"+s, "func(dst, a, b *byte, n int)",
		asmgen.Doc("xorBytes"+s+" sets dst[i] = a[i] ^ b[i] for i < n."),
		asmgen.Secret("dst", "a", "b"), asmgen.Public("n"), asmgen.Len("dst", "n"), asmgen.Len("a", "n"), asmgen.Len("b", "n"))
	d, pa, pb, cnt := g.GP64(), g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("dst"), d)
	g.Load(g.Param("a"), pa)
	g.Load(g.Param("b"), pb)
	g.Load(g.Param("n"), cnt)
	fn.XORBytes(d, pa, pb, cnt)
	fn.Ret()

	// The bound of the partial functions, which the Go side reads from the
	// generated declarations rather than copying it.
	g.Const("partialMax"+s, 15, "partialMax"+s+" is the longest input loadPartial"+s+" and copyPartial"+s+" take.")
	fn = g.Func("loadPartial"+s, "func(block *[16]byte, src *byte, n int)",
		asmgen.Doc("loadPartial"+s+" sets block to the n < 16 bytes at src followed by zeros, reading nothing past src+n."),
		asmgen.Secret("block", "src"), asmgen.Public("n"), asmgen.Len("src", "n"))
	blk, src, ln := g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("block"), blk)
	g.Load(g.Param("src"), src)
	g.Load(g.Param("n"), ln)
	x := g.XMM()
	fn.LoadPartial(x, src, ln)
	g.MOVOU(x, operand.Mem{Base: blk})
	fn.Ret()

	fn = g.Func("copyPartial"+s, "func(dst, src *byte, n int)",
		asmgen.Doc("copyPartial"+s+" copies n < 16 bytes from src to dst through a vector register, touching nothing past either buffer."),
		asmgen.Secret("dst", "src"), asmgen.Public("n"), asmgen.Len("dst", "n"), asmgen.Len("src", "n"))
	d, src, ln = g.GP64(), g.GP64(), g.GP64()
	g.Load(g.Param("dst"), d)
	g.Load(g.Param("src"), src)
	g.Load(g.Param("n"), ln)
	x = g.XMM()
	fn.LoadPartial(x, src, ln)
	fn.StorePartial(d, x, ln)
	fn.Ret()

	mixKey(g, "mixKey"+s, true)
	mixKey(g, "mixKeyUnwiped"+s, false)
}

// mixKey declares a function that copies a 32-byte key and a rotation of it
// to 64 bytes of stack scratch and writes their XOR to out. With wipe false
// it is declared NoSecrets, which disables the wipe: the key stays on the
// stack, which the stackscratch proof must catch.
func mixKey(g *asmgen.Generator, name string, wipe bool) {
	opts := []asmgen.Option{asmgen.Scratch(64)}
	if wipe {
		opts = append(opts,
			asmgen.Doc(name+" sets each 16-byte half of out to key's half XOR that half with its 32-bit words rotated down by one, through stack scratch."),
			asmgen.Secret("key", "out"))
	} else {
		opts = append(opts,
			asmgen.Doc(name+" is mixKey with the wipe disabled, to prove the stackscratch harness catches what it leaves; never give it a secret."),
			asmgen.NoSecrets())
	}
	fn := g.Func(name, "func(key *[32]byte, out *[32]byte)", opts...)
	k, o := g.GP64(), g.GP64()
	g.Load(g.Param("key"), k)
	g.Load(g.Param("out"), o)
	sc := fn.Scratch()
	if g.Has(cpufeat.AVX2) {
		y, r, t := g.YMM(), g.YMM(), g.YMM()
		g.VMOVDQU(operand.Mem{Base: k}, y)
		g.VMOVDQU(y, sc)
		g.VPSHUFD(operand.U8(0x39), y, r)
		g.VMOVDQU(r, sc.Offset(32))
		g.VMOVDQU(sc, t)
		g.VPXOR(sc.Offset(32), t, t)
		g.VMOVDQU(t, operand.Mem{Base: o})
	} else {
		for half := 0; half < 32; half += 16 {
			x, r, t := g.XMM(), g.XMM(), g.XMM()
			g.MOVOU(operand.Mem{Base: k, Disp: half}, x)
			g.MOVOU(x, sc.Offset(half))
			g.PSHUFD(operand.U8(0x39), x, r)
			g.MOVOU(r, sc.Offset(32+half))
			g.MOVOU(sc.Offset(half), t)
			g.MOVOU(sc.Offset(32+half), r)
			g.PXOR(r, t)
			g.MOVOU(t, operand.Mem{Base: o, Disp: half})
		}
	}
	fn.Ret()
}
