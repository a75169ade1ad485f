; cass lifter runtime for NVPTX (sm_90): the cross-check build that runs the lifted kernel on an
; NVIDIA GPU against the original cubin. MUFU maps to the same .approx instructions ptxas uses.

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.le()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.gt()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.ge()
declare i64 @llvm.nvvm.read.ptx.sreg.clock64()
declare i64 @llvm.nvvm.read.ptx.sreg.globaltimer()
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) convergent
declare { i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32, i32, i32, i32) convergent
declare { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32, i32, i32, i32) convergent
declare { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32, i32, i32, i32) convergent
declare { i32, i1 } @llvm.nvvm.shfl.sync.bfly.i32p(i32, i32, i32, i32) convergent
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32) convergent
declare void @llvm.nvvm.barrier0() convergent
declare void @llvm.nvvm.bar.warp.sync(i32) convergent

define internal i32 @sass.tid.x() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.tid.x() ret i32 %v }
define internal i32 @sass.tid.y() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.tid.y() ret i32 %v }
define internal i32 @sass.tid.z() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.tid.z() ret i32 %v }
define internal i32 @sass.ctaid.x() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() ret i32 %v }
define internal i32 @sass.ctaid.y() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() ret i32 %v }
define internal i32 @sass.ctaid.z() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z() ret i32 %v }
define internal i32 @sass.ntid.x() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x() ret i32 %v }
define internal i32 @sass.ntid.y() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y() ret i32 %v }
define internal i32 @sass.ntid.z() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z() ret i32 %v }
define internal i32 @sass.nctaid.x() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() ret i32 %v }
define internal i32 @sass.nctaid.y() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y() ret i32 %v }
define internal i32 @sass.nctaid.z() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z() ret i32 %v }
define internal i32 @sass.dynamic.smem() alwaysinline {
  %v = call i32 asm sideeffect "mov.u32 $0, %dynamic_smem_size;", "=r"()
  ret i32 %v
}
define internal i32 @sass.laneid() alwaysinline { %v = call i32 @llvm.nvvm.read.ptx.sreg.laneid() ret i32 %v }
define internal i32 @sass.lanemask(i32 %kind) alwaysinline {
  switch i32 %kind, label %r4 [ i32 0, label %r0  i32 1, label %r1  i32 2, label %r2  i32 3, label %r3 ]
r0:
  %v0 = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.eq()
  ret i32 %v0
r1:
  %v1 = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  ret i32 %v1
r2:
  %v2 = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.le()
  ret i32 %v2
r3:
  %v3 = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.gt()
  ret i32 %v3
r4:
  %v4 = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.ge()
  ret i32 %v4
}
define internal i64 @sass.clock() alwaysinline { %v = call i64 @llvm.nvvm.read.ptx.sreg.clock64() ret i64 %v }
define internal i64 @sass.globaltimer() alwaysinline { %v = call i64 @llvm.nvvm.read.ptx.sreg.globaltimer() ret i64 %v }

define internal i32 @sass.activemask() convergent alwaysinline {
  %v = call i32 asm sideeffect "activemask.b32 $0;", "=r"()
  ret i32 %v
}
define internal i32 @sass.ballot(i1 %p) convergent alwaysinline {
  %m = call i32 @sass.activemask()
  %v = call i32 @llvm.nvvm.vote.ballot.sync(i32 %m, i1 %p)
  ret i32 %v
}
; the value `v` of lane `lane` of this warp (all 32 lanes converged: tensor-core fragments)
define internal i32 @sass.lane.read(i32 %v, i32 %lane) convergent alwaysinline {
  %r = call { i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32 -1, i32 %v, i32 %lane, i32 31)
  %x = extractvalue { i32, i1 } %r, 0
  ret i32 %x
}
define internal { i32, i1 } @sass.shfl(i32 %mode, i32 %a, i32 %b, i32 %c) convergent alwaysinline {
  %m = call i32 @sass.activemask()
  switch i32 %mode, label %bfly [ i32 0, label %idx  i32 1, label %up  i32 2, label %down ]
idx:
  %r0 = call { i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32 %m, i32 %a, i32 %b, i32 %c)
  ret { i32, i1 } %r0
up:
  %r1 = call { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32 %m, i32 %a, i32 %b, i32 %c)
  ret { i32, i1 } %r1
down:
  %r2 = call { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32 %m, i32 %a, i32 %b, i32 %c)
  ret { i32, i1 } %r2
bfly:
  %r3 = call { i32, i1 } @llvm.nvvm.shfl.sync.bfly.i32p(i32 %m, i32 %a, i32 %b, i32 %c)
  ret { i32, i1 } %r3
}
define internal i32 @sass.match.any(i32 %v) convergent alwaysinline {
  %m = call i32 @sass.activemask()
  %r = call i32 @llvm.nvvm.match.any.sync.i32(i32 %m, i32 %v)
  ret i32 %r
}
; REDUX: op 0 SUM, 1 MIN.S32, 2 MAX.S32, 3 MIN.U32, 4 MAX.U32, 5 AND, 6 OR, 7 XOR (a shuffle tree)
define internal i32 @sass.redux(i32 %v, i32 %op) convergent alwaysinline {
entry:
  %m = call i32 @sass.activemask()
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %bit0 = lshr i32 %m, %k
  %bit = trunc i32 %bit0 to i1
  %sh = call { i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32 %m, i32 %v, i32 %k, i32 31)
  %x = extractvalue { i32, i1 } %sh, 0
  %sum = add i32 %acc, %x
  %smin = call i32 @llvm.smin.i32(i32 %acc, i32 %x)
  %smax = call i32 @llvm.smax.i32(i32 %acc, i32 %x)
  %umin = call i32 @llvm.umin.i32(i32 %acc, i32 %x)
  %umax = call i32 @llvm.umax.i32(i32 %acc, i32 %x)
  %band = and i32 %acc, %x
  %bor = or i32 %acc, %x
  %bxor = xor i32 %acc, %x
  %new0 = call i32 @sass.pick8(i32 %op, i32 %sum, i32 %smin, i32 %smax, i32 %umin, i32 %umax, i32 %band, i32 %bor, i32 %bxor)
  %lowbits = call i32 @sass.lowbits(i32 %m, i32 %k)
  %isfirst = icmp eq i32 %lowbits, 0
  %new = select i1 %isfirst, i32 %x, i32 %new0
  %acc1 = select i1 %bit, i32 %new, i32 %acc
  %k1 = add i32 %k, 1
  %done = icmp eq i32 %k1, 32
  br i1 %done, label %out, label %loop
out:
  ret i32 %acc1
}
define internal i32 @sass.lowbits(i32 %m, i32 %k) alwaysinline {
  %one = shl i32 1, %k
  %mask = sub i32 %one, 1
  %r = and i32 %m, %mask
  ret i32 %r
}
define internal i32 @sass.pick8(i32 %op, i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %a4, i32 %a5, i32 %a6, i32 %a7) alwaysinline {
  switch i32 %op, label %r7 [ i32 0, label %r0  i32 1, label %r1  i32 2, label %r2  i32 3, label %r3  i32 4, label %r4  i32 5, label %r5  i32 6, label %r6 ]
r0: ret i32 %a0
r1: ret i32 %a1
r2: ret i32 %a2
r3: ret i32 %a3
r4: ret i32 %a4
r5: ret i32 %a5
r6: ret i32 %a6
r7: ret i32 %a7
}
define internal void @sass.bar.sync() convergent alwaysinline {
  call void @llvm.nvvm.barrier0()
  ret void
}
define internal void @sass.warp.sync() convergent alwaysinline {
  %m = call i32 @sass.activemask()
  call void @llvm.nvvm.bar.warp.sync(i32 %m)
  ret void
}
define internal float @sass.mufu.rcp(float %x) alwaysinline {
  %v = call float asm "rcp.approx.ftz.f32 $0, $1;", "=f,f"(float %x)
  ret float %v
}
define internal float @sass.mufu.rsq(float %x) alwaysinline {
  %v = call float asm "rsqrt.approx.ftz.f32 $0, $1;", "=f,f"(float %x)
  ret float %v
}
define internal float @sass.mufu.sqrt(float %x) alwaysinline {
  %v = call float asm "sqrt.approx.ftz.f32 $0, $1;", "=f,f"(float %x)
  ret float %v
}
define internal float @sass.mufu.ex2(float %x) alwaysinline {
  %v = call float asm "ex2.approx.ftz.f32 $0, $1;", "=f,f"(float %x)
  ret float %v
}
define internal float @sass.mufu.lg2(float %x) alwaysinline {
  %v = call float asm "lg2.approx.ftz.f32 $0, $1;", "=f,f"(float %x)
  ret float %v
}
define internal float @sass.mufu.sin(float %x) alwaysinline {
  %r = fmul float %x, 0x401921FB60000000
  %v = call float asm "sin.approx.ftz.f32 $0, $1;", "=f,f"(float %r)
  ret float %v
}
define internal float @sass.mufu.cos(float %x) alwaysinline {
  %r = fmul float %x, 0x401921FB60000000
  %v = call float asm "cos.approx.ftz.f32 $0, $1;", "=f,f"(float %r)
  ret float %v
}
define internal i1 @sass.first.thread() alwaysinline {
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %z = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %a = or i32 %x, %y
  %b = or i32 %a, %z
  %r = icmp eq i32 %b, 0
  ret i1 %r
}
; Named barriers map onto the hardware's: barrier.sync / barrier.arrive with a thread count.
define internal void @sass.bar.named.init(ptr addrspace(3) %state) alwaysinline {
  ret void
}
define internal void @sass.bar.named(ptr addrspace(3) %state, i32 %id, i32 %count, i1 %wait) convergent alwaysinline {
entry:
  br i1 %wait, label %sync, label %arrive
sync:
  call void asm sideeffect "barrier.sync $0, $1;", "r,r,~{memory}"(i32 %id, i32 %count)
  ret void
arrive:
  call void asm sideeffect "barrier.arrive $0, $1;", "r,r,~{memory}"(i32 %id, i32 %count)
  ret void
}
define internal void @sass.nanosleep() alwaysinline {
  ret void
}
