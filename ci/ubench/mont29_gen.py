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
N, NR = 36, 10
o = []
w = o.append
A = lambda R: f"%ymm{R % NR}"
X = lambda R: f"%xmm{R % NR}"


def kernel(name, vec, rows, xchain):
    w(f".text\n.globl {name}\n.type {name},@function\n{name}:")
    # rdi z, rsi b, rdx sa, rcx sm, r8 m, r9 m0inv
    for r in ["%rbx", "%rbp", "%r12", "%r13", "%r14", "%r15"]:
        w(f" push {r}")
    w(" mov %rdx, %rbx\n push %r9\n push %r9\n mov %r8, %r9")  # m0inv at (%rsp), 16 bytes
    w(" lea rowbuf(%rip), %rbp\n mov $0x9e3779b97f4a7c15, %rdx")
    for r in range(16):
        w(f" vpxor %ymm{r}, %ymm{r}, %ymm{r}")
    w(" xor %r11d, %r11d\n xor %r12d, %r12d\n xor %r13d, %r13d")

    def row():
        # z[j] += a[j]*rdx for 16 limbs, the high words on CF, z on OF
        w(" xor %r10d, %r10d\n mulx 0(%rbp), %r10, %rax\n adox 128(%rbp), %r10\n mov %r10, 128(%rbp)")
        h, h2 = "%rax", "%r15"
        for j in range(1, 16):
            w(f" mulx {8*j}(%rbp), %r10, {h2}\n adcx {h}, %r10\n adox {128+8*j}(%rbp), %r10\n mov %r10, {128+8*j}(%rbp)")
            h, h2 = h2, h

    def extract(R, lane):  # the digit in lane of R, to r13 or to lane 0 of xmm14
        if xchain:
            if lane == 0:
                w(f" vmovdqa {X(R)}, %xmm14")
            elif lane == 1:
                w(f" vpshufd $0xee, {X(R)}, %xmm14")
            else:
                w(f" vextracti128 $1, {A(R)}, %xmm14")
                if lane == 3:
                    w(" vpshufd $0xee, %xmm14, %xmm14")
        else:
            if lane == 0:
                w(f" vmovq {X(R)}, %r13")
            elif lane == 1:
                w(f" vpextrq $1, {X(R)}, %r13")
            else:
                w(f" vextracti128 $1, {A(R)}, %xmm14\n vpextrq ${lane-2}, %xmm14, %r13")

    def carrypass(p0):
        # one pass over the digits from offset p0: each keeps its low 29
        # bits and passes the rest up; digits below p0 stay as they are.
        # ymm10 and ymm15 (b and T) are free here, ymm11 holds q.
        g0 = p0 // 4
        w(" vpxor %ymm15, %ymm15, %ymm15")  # the carry out of the register below
        for R in range(g0, g0 + NR):
            w(f" vpsrlq $29, {A(R)}, %ymm12\n vpand mask29(%rip), {A(R)}, %ymm10")
            if R == g0 and p0 % 4:
                bl = (1 << (2 * (p0 % 4))) - 1
                w(f" vpblendd ${bl}, {A(R)}, %ymm10, %ymm10\n vpblendd ${bl}, zero(%rip), %ymm12, %ymm12")
            w(" vpermq $0x93, %ymm12, %ymm12\n vpblendd $3, %ymm15, %ymm12, %ymm15")
            w(f" vpaddq %ymm15, %ymm10, {A(R)}\n vmovdqa %ymm12, %ymm15")

    def madd(s, g, base, src):
        for r in range(NR):
            if s == 0 and r == NR - 1:
                continue  # the shifted operand is zero there
            w(f" vpmuludq {8*(40*s + 4*r)}({base}), {src}, %ymm12\n vpaddq %ymm12, {A(g+r)}, {A(g+r)}")

    for i in range(N):
        g, s = divmod(i, 4)
        if vec:
            w(f"# step {i}")
            w(f" vpbroadcastq {8*i}(%rsi), %ymm10")
            madd(s, g, "%rbx", "%ymm10")
            if xchain:
                # T = x' + a[0]*b[i] + m[1]*q + carry in lane 0 of xmm15
                w(" vpmuludq (%rbx), %xmm10, %xmm15")
                if i > 0:
                    w(" vpmuludq 8(%r9), %xmm11, %xmm12\n vpaddq %xmm12, %xmm15, %xmm15\n vpaddq %xmm14, %xmm15, %xmm15\n vpaddq %xmm13, %xmm15, %xmm15")
                if i + 1 < N:
                    extract(*divmod(i + 1, 4))
                w(" vpmuludq (%rsp), %xmm15, %xmm11\n vpand mask29(%rip), %xmm11, %xmm11")
                w(" vpmuludq (%r9), %xmm11, %xmm13\n vpaddq %xmm15, %xmm13, %xmm13\n vpsrlq $29, %xmm13, %xmm13")
                w(" vpbroadcastq %xmm11, %ymm11")
            else:
                w(f" mov {8*i}(%rsi), %r14\n imul (%rbx), %r14")
                if i > 0:
                    w(" mov 8(%r9), %r8\n imul %r12, %r8\n add %r8, %r14\n add %r13, %r14\n add %r11, %r14")
                if i + 1 < N:
                    extract(*divmod(i + 1, 4))
                w(" mov %r14, %r12\n imul (%rsp), %r12\n and $0x1fffffff, %r12")
                w(" mov (%r9), %r11\n imul %r12, %r11\n add %r14, %r11\n shr $29, %r11")
                w(" vmovq %r12, %xmm11\n vpbroadcastq %xmm11, %ymm11")
            madd(s, g, "%rcx", "%ymm11")
            if s == 3:
                w(f" vpxor {A(g)}, {A(g)}, {A(g)}")
            if i == 17:
                carrypass(19)
        if rows and i < 32:
            row()
    if vec:
        for k in range(9):
            w(f" vmovdqu {A(9+k)}, {32*k}(%rdi)")
        w(" vmovq %xmm13, %rcx" if xchain else " mov %r11, %rcx")
        for p in range(36):
            w(f" mov {8*p}(%rdi), %rax\n add %rcx, %rax\n mov %rax, %rcx\n and $0x1fffffff, %eax\n shr $29, %rcx\n mov %rax, {8*p}(%rdi)")
    w(" pop %r9\n pop %r9")
    for r in ["%r15", "%r14", "%r13", "%r12", "%rbp", "%rbx"]:
        w(f" pop {r}")
    w(f" vzeroupper\n ret\n.size {name}, .-{name}")



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
    w(f".text\n.globl {name}\n.type {name},@function\n{name}:")
    for r in ["%rbx", "%rbp", "%r12", "%r13", "%r14", "%r15"]:
        w(f" push {r}")
    w(" mov %rsi, %rbx\n push %r8\n push %r8\n mov %rcx, %r9\n mov %rdx, %rcx")  # sa rbx, sd 1280(rbx), sm rcx, m r9
    for r in range(16):
        w(f" vpxor %ymm{r}, %ymm{r}, %ymm{r}")
    w(" xor %r11d, %r11d\n xor %r12d, %r12d\n xor %r13d, %r13d")

    def extract(R, lane):
        if lane == 0:
            w(f" vmovq {X(R)}, %r13")
        elif lane == 1:
            w(f" vpextrq $1, {X(R)}, %r13")
        else:
            w(f" vextracti128 $1, {A(R)}, %xmm14\n vpextrq ${lane-2}, %xmm14, %r13")

    def carrypass(p0, top):
        # as kernel's, over the registers from offset p0's up to top (exclusive)
        g0 = p0 // 4
        w(" vpxor %ymm15, %ymm15, %ymm15")
        for R in range(g0, top):
            w(f" vpsrlq $29, {A(R)}, %ymm12\n vpand mask29(%rip), {A(R)}, %ymm10")
            if R == g0 and p0 % 4:
                bl = (1 << (2 * (p0 % 4))) - 1
                w(f" vpblendd ${bl}, {A(R)}, %ymm10, %ymm10\n vpblendd ${bl}, zero(%rip), %ymm12, %ymm12")
            w(" vpermq $0x93, %ymm12, %ymm12\n vpblendd $3, %ymm15, %ymm12, %ymm15")
            w(f" vpaddq %ymm15, %ymm10, {A(R)}\n vmovdqa %ymm12, %ymm15")

    for i in range(N):
        g, s = divmod(i, 4)
        w(f"# step {i}")
        w(f" vpbroadcastq {8*i}(%rbx), %ymm10")
        R0, l0 = divmod(2 * i, 4)
        for r in range(NR):
            R = g + r
            if s == 0 and r == NR - 1:
                continue
            if R < R0:
                continue
            off = 8 * (40 * s + 4 * r)
            if R == R0:
                w(f" vmovdqa {1280+off}(%rbx), %ymm12")
                w(f" vpblendd ${3 << (2*l0)}, {off}(%rbx), %ymm12, %ymm12")  # the square, undoubled
                if l0:
                    w(f" vpblendd ${(1 << (2*l0)) - 1}, zero(%rip), %ymm12, %ymm12")
                w(f" vpmuludq %ymm10, %ymm12, %ymm12\n vpaddq %ymm12, {A(R)}, {A(R)}")
            else:
                w(f" vpmuludq {1280+off}(%rbx), %ymm10, %ymm12\n vpaddq %ymm12, {A(R)}, {A(R)}")
        # T = x' + (a0*a0 at step 0) + m1*q + carry
        if i == 0:
            w(" mov (%rbx), %r14\n imul %r14, %r14")
        else:
            w(" mov 8(%r9), %r8\n imul %r12, %r8\n lea (%r8,%r13), %r14\n add %r11, %r14")
        if i + 1 < N:
            extract(*divmod(i + 1, 4))
        w(" mov %r14, %r12\n imul (%rsp), %r12\n and $0x1fffffff, %r12")
        w(" mov (%r9), %r11\n imul %r12, %r11\n add %r14, %r11\n shr $29, %r11")
        w(" vmovq %r12, %xmm11\n vpbroadcastq %xmm11, %ymm11")
        for r in range(NR):
            if s == 0 and r == NR - 1:
                continue
            w(f" vpmuludq {8*(40*s + 4*r)}(%rcx), %ymm11, %ymm12\n vpaddq %ymm12, {A(g+r)}, {A(g+r)}")
        if s == 3:
            w(f" vpxor {A(g)}, {A(g)}, {A(g)}")
        if i == 17:
            carrypass(19, 4 + NR)
    if not chain:
        for k in range(9):
            w(f" vmovdqu {A(9+k)}, {32*k}(%rdi)")
        w(" mov %r11, %rcx")
        for p in range(36):
            w(f" mov {8*p}(%rdi), %rax\n add %rcx, %rax\n mov %rax, %rcx\n and $0x1fffffff, %eax\n shr $29, %rcx\n mov %rax, {8*p}(%rdi)")
    else:
        # the carry into offset 36, two carry passes over offsets 36..71
        w(f" vmovq %r11, %xmm12\n vpaddq %ymm12, {A(9)}, {A(9)}")
        carrypass(36, 18)
        carrypass(36, 18)
        # digits k in A(9+k); copies shifted by s: register j holds digits 4j+l-s
        for k in range(9):
            w(f" vmovdqu {A(9+k)}, {32*k}(%rdi)")
        for sh, (perm, bl) in enumerate([(0, 0), (0x93, 0x03), (0x4e, 0x0f), (0x39, 0x3f)]):
            w(" vpxor %ymm15, %ymm15, %ymm15")  # the rotated register below
            for j in range(10):
                if sh == 0:
                    src = A(9 + j) if j < 9 else None
                    if src is None:
                        w(" vpxor %ymm13, %ymm13, %ymm13")
                    else:
                        w(f" vmovdqa {src}, %ymm13")
                else:
                    if j < 9:
                        w(f" vpermq ${perm}, {A(9+j)}, %ymm12\n vpblendd ${bl}, %ymm15, %ymm12, %ymm13\n vmovdqa %ymm12, %ymm15")
                    else:
                        w(f" vpblendd ${~bl & 0xff}, zero(%rip), %ymm15, %ymm13")
                w(f" vmovdqa %ymm13, {8*(40*sh + 4*j)}(%rbx)")
                w(f" vpaddq %ymm13, %ymm13, %ymm13\n vmovdqa %ymm13, {1280 + 8*(40*sh + 4*j)}(%rbx)")
    w(" pop %r8\n pop %r8")
    for r in ["%r15", "%r14", "%r13", "%r12", "%rbp", "%rbx"]:
        w(f" pop {r}")
    w(f" vzeroupper\n ret\n.size {name}, .-{name}")



def loop_kernel(name, rows):
    # kernel's k_vec (and k_fused, with rows) as loops over groups of four
    # steps: the ring's registers are renamed by moves after each group
    # instead of by unrolling, so the code is a tenth of the size (the
    # carry pass at step 17 is in an unrolled group between two loops).
    w(f".text\n.globl {name}\n.type {name},@function\n{name}:")
    for r in ["%rbx", "%rbp", "%r12", "%r13", "%r14", "%r15"]:
        w(f" push {r}")
    w(" mov %rdx, %rbx\n push %r9\n push %r9\n mov %r8, %r9")
    w(" lea rowbuf(%rip), %rbp\n mov $0x9e3779b97f4a7c15, %rdx")
    for r in range(16):
        w(f" vpxor %ymm{r}, %ymm{r}, %ymm{r}")
    w(" xor %r11d, %r11d\n xor %r12d, %r12d\n xor %r13d, %r13d")
    w(" sub $16, %rsp")  # 0(%rsp): end of the loop's b; m0inv now at 16(%rsp)
    Y = lambda r: f"%ymm{r}"
    Xr = lambda r: f"%xmm{r}"

    def row():
        w(" xor %r10d, %r10d\n mulx 0(%rbp), %r10, %rax\n adox 128(%rbp), %r10\n mov %r10, 128(%rbp)")
        h, h2 = "%rax", "%r15"
        for j in range(1, 16):
            w(f" mulx {8*j}(%rbp), %r10, {h2}\n adcx {h}, %r10\n adox {128+8*j}(%rbp), %r10\n mov %r10, {128+8*j}(%rbp)")
            h, h2 = h2, h

    def extract(r, lane):
        if lane == 0:
            w(f" vmovq {Xr(r)}, %r13")
        elif lane == 1:
            w(f" vpextrq $1, {Xr(r)}, %r13")
        else:
            w(f" vextracti128 $1, {Y(r)}, %xmm14\n vpextrq ${lane-2}, %xmm14, %r13")

    def step(s, first, last):
        # step s of a group: b[i] at 8*s(%rsi), the ring's register r is ymm r
        w(f" vpbroadcastq {8*s}(%rsi), %ymm10")
        for r in range(NR):
            if s == 0 and r == NR - 1:
                continue
            w(f" vpmuludq {8*(40*s + 4*r)}(%rbx), %ymm10, %ymm12\n vpaddq %ymm12, {Y(r)}, {Y(r)}")
        w(f" mov {8*s}(%rsi), %r14\n imul (%rbx), %r14")
        if not first:
            w(" mov 8(%r9), %r8\n imul %r12, %r8\n add %r8, %r14\n add %r13, %r14\n add %r11, %r14")
        if not last:
            extract(0, s + 1) if s < 3 else extract(1, 0)
        w(" mov %r14, %r12\n imul 16(%rsp), %r12\n and $0x1fffffff, %r12")
        w(" mov (%r9), %r11\n imul %r12, %r11\n add %r14, %r11\n shr $29, %r11")
        w(" vmovq %r12, %xmm11\n vpbroadcastq %xmm11, %ymm11")
        for r in range(NR):
            if s == 0 and r == NR - 1:
                continue
            w(f" vpmuludq {8*(40*s + 4*r)}(%rcx), %ymm11, %ymm12\n vpaddq %ymm12, {Y(r)}, {Y(r)}")

    def rotate():
        for r in range(NR - 1):
            w(f" vmovdqa {Y(r+1)}, {Y(r)}")
        w(f" vpxor {Y(NR-1)}, {Y(NR-1)}, {Y(NR-1)}")

    def carrypass():  # kernel's carrypass(19) with group 4 in ymm0..9
        w(" vpxor %ymm15, %ymm15, %ymm15")
        for r in range(NR):
            w(f" vpsrlq $29, {Y(r)}, %ymm12\n vpand mask29(%rip), {Y(r)}, %ymm10")
            if r == 0:
                w(f" vpblendd $63, {Y(r)}, %ymm10, %ymm10\n vpblendd $63, zero(%rip), %ymm12, %ymm12")
            w(" vpermq $0x93, %ymm12, %ymm12\n vpblendd $3, %ymm15, %ymm12, %ymm15")
            w(f" vpaddq %ymm15, %ymm10, {Y(r)}\n vmovdqa %ymm12, %ymm15")

    def loop(label, groups):
        w(f" lea {32*groups}(%rsi), %rax\n mov %rax, 0(%rsp)")
        w(f"{label}:")
        for s in range(4):
            step(s, False, False)
            if rows:
                row()
        rotate()
        w(" add $32, %rsi\n cmp 0(%rsp), %rsi\n jne " + label)

    # group 0 has the chain's first step, so it is unrolled too
    for s in range(4):
        step(s, s == 0, False)
        if rows:
            row()
    rotate()
    w(" add $32, %rsi")
    loop(f"{name}_a", 3)
    for s in range(4):
        step(s, False, False)
        if s == 1:
            carrypass()
    rotate()
    w(" add $32, %rsi")
    loop(f"{name}_b", 3)
    # group 8, whose last step has no next digit
    for s in range(4):
        step(s, False, s == 3)
        if rows:
            row()
    rotate()
    for k in range(9):
        w(f" vmovdqu {Y(k)}, {32*k}(%rdi)")
    w(" mov %r11, %rcx")
    for p in range(36):
        w(f" mov {8*p}(%rdi), %rax\n add %rcx, %rax\n mov %rax, %rcx\n and $0x1fffffff, %eax\n shr $29, %rcx\n mov %rax, {8*p}(%rdi)")
    w(" add $16, %rsp\n pop %r9\n pop %r9")
    for r in ["%r15", "%r14", "%r13", "%r12", "%rbp", "%rbx"]:
        w(f" pop {r}")
    w(f" vzeroupper\n ret\n.size {name}, .-{name}")


kernel("k_vec", True, False, False)
kernel("k_xvec", True, False, True)
kernel("k_rows", False, True, False)
kernel("k_fused", True, True, False)
kernel("k_xfused", True, True, True)
sqr_kernel("k_sqr", False)
loop_kernel("k_vecl", False)
loop_kernel("k_fusedl", True)
sqr_kernel("k_sqrc", True)
w(".section .rodata\n.align 32\nmask29: .quad 0x1fffffff, 0x1fffffff, 0x1fffffff, 0x1fffffff\nzero: .quad 0, 0, 0, 0")
w('.section .note.GNU-stack,"",@progbits')
print("\n".join(o))
