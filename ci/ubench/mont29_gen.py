# Writes the kernels of mont29.c (GNU assembler, AT&T syntax) to stdout.
#
# name(z, b, sa, sm, m, m0inv): a radix-2^29 almost Montgomery product of 36
# digits on AVX2. The accumulator is ten ymm registers used as a ring: step i
# adds a*b[i] and m*q[i] at digit offset i (the shifted copies in sa and sm
# keep every load aligned), and a register whose four digits are done is
# zeroed and reused for the next four. q[i] comes from the digit at offset i,
# taken from its lane one step early (before m*q[i-1] is added, which the
# chain then adds itself), so its chain per step is two multiplies and a few
# adds. After step 17 one carry pass keeps every digit below 2^64 for the
# rest; at the end a scalar pass leaves exact 29-bit digits.
#
# Kernels (mont29.c times each):
#   k_vec    the q chain in general registers (IMUL)
#   k_xvec   the q chain in xmm registers (VPMULUDQ), off the integer multiplier
#   k_rows   32 rows of 16 MULX/ADCX/ADOX limb steps: the MULX work of a
#            1024-bit product in the adx kernels' form (as adx_row.c)
#   k_fused  k_vec with the rows interleaved between its steps
#   k_xfused k_xvec with the rows interleaved between its steps
#   k_sqr    a squaring: each cross product once, doubled (sqr_kernel)
#   k_sqrc   k_sqr writing the next squaring's copies from registers
#   k_vecl, k_fusedl  k_vec and k_fused looped over groups of four steps
#
# Registers: rbx a's copies, rcx m's copies, r9 m, rsi b, rdi z; r11 the
# carry, r12 q, r13 the next digit, r14 T; ymm10 b[i], ymm11 q, ymm12-15
# temporaries; rbp, rdx, r10, rax, r15 the MULX rows'.
N, NR = 36, 10
o = []
w = o.append


def ring(R):
    # physical register R of the unrolled kernels' ring
    return f"%ymm{R % NR}"


def xmm(y):
    return y.replace("ymm", "xmm")


SAVED = ["%rbx", "%rbp", "%r12", "%r13", "%r14", "%r15"]


def prologue(name, setup):
    w(f".text\n.globl {name}\n.type {name},@function\n{name}:")
    for r in SAVED:
        w(f" push {r}")
    w(setup)  # ends with m0inv pushed twice: 16 bytes at (%rsp)
    w(" lea rowbuf(%rip), %rbp\n mov $0x9e3779b97f4a7c15, %rdx")
    for r in range(16):
        w(f" vpxor %ymm{r}, %ymm{r}, %ymm{r}")
    w(" xor %r11d, %r11d\n xor %r12d, %r12d\n xor %r13d, %r13d")


def epilogue(name):
    w(" pop %r8\n pop %r8")
    for r in reversed(SAVED):
        w(f" pop {r}")
    w(f" vzeroupper\n ret\n.size {name}, .-{name}")


def row():
    # z[j] += a[j]*rdx for 16 limbs of rowbuf, the high words on CF, z on OF
    w(" xor %r10d, %r10d\n mulx 0(%rbp), %r10, %rax\n adox 128(%rbp), %r10\n mov %r10, 128(%rbp)")
    h, h2 = "%rax", "%r15"
    for j in range(1, 16):
        w(f" mulx {8*j}(%rbp), %r10, {h2}\n adcx {h}, %r10\n adox {128+8*j}(%rbp), %r10\n mov %r10, {128+8*j}(%rbp)")
        h, h2 = h2, h


def extract(y, lane, xchain=False):
    # the digit in lane of y: to r13, or with xchain to lane 0 of xmm14
    src = xmm(y)
    if lane >= 2:
        w(f" vextracti128 $1, {y}, %xmm14")
        src = "%xmm14"
    if not xchain:
        w(f" vpextrq $1, {src}, %r13" if lane % 2 else f" vmovq {src}, %r13")
    elif lane % 2:
        w(f" vpshufd $0xee, {src}, %xmm14")
    elif lane == 0:
        w(f" vmovdqa {src}, %xmm14")


def carrypass(regs, keep=0):
    # one pass over regs: each digit keeps its low 29 bits and passes the
    # rest up; the first register's lanes below keep stay whole and pass
    # nothing. ymm10, ymm12 and ymm15 are free here (ymm11 may hold q).
    w(" vpxor %ymm15, %ymm15, %ymm15")  # the carry out of the register below
    for k, y in enumerate(regs):
        w(f" vpsrlq $29, {y}, %ymm12\n vpand mask29(%rip), {y}, %ymm10")
        if k == 0 and keep:
            bl = (1 << (2 * keep)) - 1
            w(f" vpblendd ${bl}, {y}, %ymm10, %ymm10\n vpblendd ${bl}, zero(%rip), %ymm12, %ymm12")
        w(" vpermq $0x93, %ymm12, %ymm12\n vpblendd $3, %ymm15, %ymm12, %ymm15")
        w(f" vpaddq %ymm15, %ymm10, {y}\n vmovdqa %ymm12, %ymm15")


def madd(regs, s, base, src):
    # regs[r] += (copy s of base, digits 4r..4r+3) * src
    for r, y in enumerate(regs):
        if s == 0 and r == NR - 1:
            continue  # the shifted operand is zero there
        w(f" vpmuludq {8*(40*s + 4*r)}({base}), {src}, %ymm12\n vpaddq %ymm12, {y}, {y}")


def qchain(term, first, nxt, m0inv):
    # T (r14) = term + m[1]*q + the digit extracted last step + carry; the
    # next digit to r13 (nxt: register and lane, or None); q = T*m0inv mod
    # 2^29; carry = (T + m[0]*q) >> 29; q broadcast to ymm11
    if term:
        w(term)
        if not first:
            w(" mov 8(%r9), %r8\n imul %r12, %r8\n add %r8, %r14\n add %r13, %r14\n add %r11, %r14")
    elif not first:
        w(" mov 8(%r9), %r14\n imul %r12, %r14\n add %r13, %r14\n add %r11, %r14")
    if nxt:
        extract(*nxt)
    w(f" mov %r14, %r12\n imul {m0inv}, %r12\n and $0x1fffffff, %r12")
    w(" mov (%r9), %r11\n imul %r12, %r11\n add %r14, %r11\n shr $29, %r11")
    w(" vmovq %r12, %xmm11\n vpbroadcastq %xmm11, %ymm11")


def scalar_tail(regs, carry):
    # the result's nine registers to z, then exact digits from carry up
    for k, y in enumerate(regs):
        w(f" vmovdqu {y}, {32*k}(%rdi)")
    w(f" {'vmovq' if carry.startswith('%xmm') else 'mov'} {carry}, %rcx")
    for p in range(N):
        w(f" mov {8*p}(%rdi), %rax\n add %rcx, %rax\n mov %rax, %rcx\n and $0x1fffffff, %eax\n shr $29, %rcx\n mov %rax, {8*p}(%rdi)")


def window(g):
    return [ring(g + r) for r in range(NR)]


def kernel(name, vec, rows, xchain):
    # rdi z, rsi b, rdx sa, rcx sm, r8 m, r9 m0inv
    prologue(name, " mov %rdx, %rbx\n push %r9\n push %r9\n mov %r8, %r9")
    for i in range(N):
        g, s = divmod(i, 4)
        nxt = (ring((i + 1) // 4), (i + 1) % 4, xchain) if i + 1 < N else None
        if vec:
            w(f"# step {i}")
            w(f" vpbroadcastq {8*i}(%rsi), %ymm10")
            madd(window(g), s, "%rbx", "%ymm10")
            if xchain:
                # T = x' + a[0]*b[i] + m[1]*q + carry in lane 0 of xmm15
                w(" vpmuludq (%rbx), %xmm10, %xmm15")
                if i > 0:
                    w(" vpmuludq 8(%r9), %xmm11, %xmm12\n vpaddq %xmm12, %xmm15, %xmm15\n vpaddq %xmm14, %xmm15, %xmm15\n vpaddq %xmm13, %xmm15, %xmm15")
                if nxt:
                    extract(*nxt)
                w(" vpmuludq (%rsp), %xmm15, %xmm11\n vpand mask29(%rip), %xmm11, %xmm11")
                w(" vpmuludq (%r9), %xmm11, %xmm13\n vpaddq %xmm15, %xmm13, %xmm13\n vpsrlq $29, %xmm13, %xmm13")
                w(" vpbroadcastq %xmm11, %ymm11")
            else:
                qchain(f" mov {8*i}(%rsi), %r14\n imul (%rbx), %r14", i == 0, nxt, "(%rsp)")
            madd(window(g), s, "%rcx", "%ymm11")
            if s == 3:
                w(f" vpxor {ring(g)}, {ring(g)}, {ring(g)}")
            if i == 17:
                carrypass(window(4), 3)
        if rows and i < 32:
            row()
    if vec:
        scalar_tail([ring(9 + k) for k in range(9)], "%xmm13" if xchain else "%r11")
    epilogue(name)


def sqr_kernel(name, chain):
    # name(z, buf, sm, m, m0inv): z = a*a / 2^(29*36) mod m, almost, where
    # buf holds a's shifted copies (4x40 digits) and then 2a's (4x40).
    # Step i adds a[i]*(a[i], 2a[i+1], ..., 2a[35]) at offsets 2i.. (each
    # cross product once, doubled) and m*q[i] at offsets i..; the lanes
    # below 2i are zeroed and the lane at 2i takes a[i] by constant blends
    # (every step is unrolled). With chain, the tail does two vector carry
    # passes instead of the scalar one and writes the shifted copies of
    # the result and of its double into buf from registers, so the next
    # squaring's aligned loads come from aligned stores; z then gets the
    # unshifted copy (digits below 2^29 + 2^7, not exact).
    prologue(name, " mov %rsi, %rbx\n push %r8\n push %r8\n mov %rcx, %r9\n mov %rdx, %rcx")
    for i in range(N):
        g, s = divmod(i, 4)
        w(f"# step {i}")
        w(f" vpbroadcastq {8*i}(%rbx), %ymm10")
        R0, l0 = divmod(2 * i, 4)
        for r in range(NR):
            R = g + r
            if (s == 0 and r == NR - 1) or R < R0:
                continue
            off = 8 * (40 * s + 4 * r)
            if R == R0:
                w(f" vmovdqa {1280+off}(%rbx), %ymm12")
                w(f" vpblendd ${3 << (2*l0)}, {off}(%rbx), %ymm12, %ymm12")  # the square, undoubled
                if l0:
                    w(f" vpblendd ${(1 << (2*l0)) - 1}, zero(%rip), %ymm12, %ymm12")
                w(f" vpmuludq %ymm10, %ymm12, %ymm12\n vpaddq %ymm12, {ring(R)}, {ring(R)}")
            else:
                w(f" vpmuludq {1280+off}(%rbx), %ymm10, %ymm12\n vpaddq %ymm12, {ring(R)}, {ring(R)}")
        nxt = (ring((i + 1) // 4), (i + 1) % 4) if i + 1 < N else None
        qchain(" mov (%rbx), %r14\n imul %r14, %r14" if i == 0 else "", i == 0, nxt, "(%rsp)")
        madd(window(g), s, "%rcx", "%ymm11")
        if s == 3:
            w(f" vpxor {ring(g)}, {ring(g)}, {ring(g)}")
        if i == 17:
            carrypass(window(4), 3)
    result = [ring(9 + k) for k in range(9)]
    if not chain:
        scalar_tail(result, "%r11")
    else:
        # the carry into offset 36, two carry passes over offsets 36..71
        w(f" vmovq %r11, %xmm12\n vpaddq %ymm12, {result[0]}, {result[0]}")
        carrypass(result)
        carrypass(result)
        for k, y in enumerate(result):
            w(f" vmovdqu {y}, {32*k}(%rdi)")
        # copies shifted by sh: register j holds digits 4j+l-sh
        for sh, (perm, bl) in enumerate([(0, 0), (0x93, 0x03), (0x4e, 0x0f), (0x39, 0x3f)]):
            w(" vpxor %ymm15, %ymm15, %ymm15")  # the rotated register below
            for j in range(NR):
                if j == NR - 1:
                    w(" vpxor %ymm13, %ymm13, %ymm13" if sh == 0 else f" vpblendd ${~bl & 0xff}, zero(%rip), %ymm15, %ymm13")
                elif sh == 0:
                    w(f" vmovdqa {result[j]}, %ymm13")
                else:
                    w(f" vpermq ${perm}, {result[j]}, %ymm12\n vpblendd ${bl}, %ymm15, %ymm12, %ymm13\n vmovdqa %ymm12, %ymm15")
                w(f" vmovdqa %ymm13, {8*(40*sh + 4*j)}(%rbx)")
                w(f" vpaddq %ymm13, %ymm13, %ymm13\n vmovdqa %ymm13, {1280 + 8*(40*sh + 4*j)}(%rbx)")
    epilogue(name)


def loop_kernel(name, rows):
    # kernel's k_vec (and k_fused, with rows) as loops over groups of four
    # steps: the ring's registers are renamed by moves after each group
    # instead of by unrolling (groups 0, 4 with the carry pass, and 8 stay
    # unrolled, around two loops of three).
    prologue(name, " mov %rdx, %rbx\n push %r9\n push %r9\n mov %r8, %r9")
    w(" sub $16, %rsp")  # 0(%rsp): end of the loop's b; m0inv now at 16(%rsp)
    regs = [f"%ymm{r}" for r in range(NR)]

    def step(s, first, last):
        # step s of a group: b[i] at 8*s(%rsi), the ring's register r is ymm r
        w(f" vpbroadcastq {8*s}(%rsi), %ymm10")
        madd(regs, s, "%rbx", "%ymm10")
        nxt = None if last else (regs[0], s + 1) if s < 3 else (regs[1], 0)
        qchain(f" mov {8*s}(%rsi), %r14\n imul (%rbx), %r14", first, nxt, "16(%rsp)")
        madd(regs, s, "%rcx", "%ymm11")

    def group(first=False, last=False, pass_after=None):
        for s in range(4):
            step(s, first and s == 0, last and s == 3)
            if s == pass_after:
                carrypass(regs, 3)
            elif rows and pass_after is None:
                row()
        for r in range(NR - 1):
            w(f" vmovdqa {regs[r+1]}, {regs[r]}")
        w(f" vpxor {regs[-1]}, {regs[-1]}, {regs[-1]}")

    def loop(label, groups):
        w(f" lea {32*groups}(%rsi), %rax\n mov %rax, 0(%rsp)")
        w(f"{label}:")
        group()
        w(" add $32, %rsi\n cmp 0(%rsp), %rsi\n jne " + label)

    group(first=True)
    w(" add $32, %rsi")
    loop(f"{name}_a", 3)
    group(pass_after=1)
    w(" add $32, %rsi")
    loop(f"{name}_b", 3)
    group(last=True)
    scalar_tail(regs[:9], "%r11")
    w(" add $16, %rsp")
    epilogue(name)


kernel("k_vec", True, False, False)
kernel("k_xvec", True, False, True)
kernel("k_rows", False, True, False)
kernel("k_fused", True, True, False)
kernel("k_xfused", True, True, True)
sqr_kernel("k_sqr", False)
sqr_kernel("k_sqrc", True)
loop_kernel("k_vecl", False)
loop_kernel("k_fusedl", True)
w(".section .rodata\n.align 32\nmask29: .quad 0x1fffffff, 0x1fffffff, 0x1fffffff, 0x1fffffff\nzero: .quad 0, 0, 0, 0")
w('.section .note.GNU-stack,"",@progbits')
print("\n".join(o))
