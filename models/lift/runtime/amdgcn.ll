; cass lifter runtime for gfx1100 (wave32): the target side of every SASS operation that is not
; plain LLVM arithmetic. Linked textually into each lifted module; everything is inlined.

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workitem.id.z()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.ballot.i32(i1) convergent
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) convergent
declare i32 @llvm.amdgcn.readlane(i32, i32) convergent
declare void @llvm.amdgcn.s.barrier() convergent
declare void @llvm.amdgcn.wave.barrier() convergent
declare float @llvm.amdgcn.rcp.f32(float)
declare float @llvm.amdgcn.rsq.f32(float)
declare float @llvm.amdgcn.sin.f32(float)
declare float @llvm.amdgcn.cos.f32(float)
declare i64 @llvm.readcyclecounter()

define internal i32 @sass.tid.x() alwaysinline { %v = call i32 @llvm.amdgcn.workitem.id.x() ret i32 %v }
define internal i32 @sass.tid.y() alwaysinline { %v = call i32 @llvm.amdgcn.workitem.id.y() ret i32 %v }
define internal i32 @sass.tid.z() alwaysinline { %v = call i32 @llvm.amdgcn.workitem.id.z() ret i32 %v }
define internal i32 @sass.ctaid.x() alwaysinline { %v = call i32 @llvm.amdgcn.workgroup.id.x() ret i32 %v }
define internal i32 @sass.ctaid.y() alwaysinline { %v = call i32 @llvm.amdgcn.workgroup.id.y() ret i32 %v }
define internal i32 @sass.ctaid.z() alwaysinline { %v = call i32 @llvm.amdgcn.workgroup.id.z() ret i32 %v }

define internal i32 @sass.dispatch.u16(i32 %off) alwaysinline {
  %d = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %p = getelementptr i8, ptr addrspace(4) %d, i32 %off
  %v = load i16, ptr addrspace(4) %p, align 2, !invariant.load !{}
  %z = zext i16 %v to i32
  ret i32 %z
}
define internal i32 @sass.dispatch.u32(i32 %off) alwaysinline {
  %d = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %p = getelementptr i8, ptr addrspace(4) %d, i32 %off
  %v = load i32, ptr addrspace(4) %p, align 4, !invariant.load !{}
  ret i32 %v
}
define internal i32 @sass.ntid.x() alwaysinline { %v = call i32 @sass.dispatch.u16(i32 4) ret i32 %v }
define internal i32 @sass.ntid.y() alwaysinline { %v = call i32 @sass.dispatch.u16(i32 6) ret i32 %v }
define internal i32 @sass.ntid.z() alwaysinline { %v = call i32 @sass.dispatch.u16(i32 8) ret i32 %v }
define internal i32 @sass.nctaid.x() alwaysinline {
  %g = call i32 @sass.dispatch.u32(i32 12)
  %b = call i32 @sass.dispatch.u16(i32 4)
  %v = udiv i32 %g, %b
  ret i32 %v
}
define internal i32 @sass.nctaid.y() alwaysinline {
  %g = call i32 @sass.dispatch.u32(i32 16)
  %b = call i32 @sass.dispatch.u16(i32 6)
  %v = udiv i32 %g, %b
  ret i32 %v
}
define internal i32 @sass.nctaid.z() alwaysinline {
  %g = call i32 @sass.dispatch.u32(i32 20)
  %b = call i32 @sass.dispatch.u16(i32 8)
  %v = udiv i32 %g, %b
  ret i32 %v
}
define internal i32 @sass.dynamic.smem() alwaysinline { ret i32 0 }

define internal i32 @sass.laneid() alwaysinline { %v = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0) ret i32 %v }
define internal i32 @sass.lanemask(i32 %kind) alwaysinline {
  ; kind 0 eq, 1 lt, 2 le, 3 gt, 4 ge
  %l = call i32 @sass.laneid()
  %l64 = zext i32 %l to i64
  %eq64 = shl i64 1, %l64
  %eq = trunc i64 %eq64 to i32
  %lt = sub i32 %eq, 1
  %le64 = shl i64 2, %l64
  %le64m = sub i64 %le64, 1
  %le = trunc i64 %le64m to i32
  %gt = xor i32 %le, -1
  %ge = xor i32 %lt, -1
  switch i32 %kind, label %r4 [ i32 0, label %r0  i32 1, label %r1  i32 2, label %r2  i32 3, label %r3 ]
r0: ret i32 %eq
r1: ret i32 %lt
r2: ret i32 %le
r3: ret i32 %gt
r4: ret i32 %ge
}
define internal i64 @sass.clock() alwaysinline { %v = call i64 @llvm.readcyclecounter() ret i64 %v }
; gfx11 has no s_memtime: the realtime counter (s_sendmsg_rtn MSG_RTN_GET_REALTIME) stands in
declare i64 @llvm.amdgcn.s.sendmsg.rtn.i64(i32)
define internal i64 @sass.globaltimer() alwaysinline { %v = call i64 @llvm.amdgcn.s.sendmsg.rtn.i64(i32 131) ret i64 %v }

; ---------------------------------------------------------------- warp level (one warp = one wave32)
; The active mask is read from exec by a side-effecting asm: LLVM may CSE or hoist two identical
; readnone collectives (ballot(true) before and inside a divergent branch), which would hand the
; branch the mask of the whole warp. A ballot is masked by it for the same reason.
define internal i32 @sass.activemask() convergent alwaysinline {
  %v = call i32 asm sideeffect "s_mov_b32 $0, exec_lo", "=s"() convergent
  ret i32 %v
}
define internal i32 @sass.ballot(i1 %p) convergent alwaysinline {
  %b = call i32 @llvm.amdgcn.ballot.i32(i1 %p)
  %m = call i32 @sass.activemask()
  %v = and i32 %b, %m
  ret i32 %v
}
; SHFL: mode 0 IDX, 1 UP, 2 DOWN, 3 BFLY; c = segmask << 8 | clamp (PTX shfl.sync semantics)
define internal { i32, i1 } @sass.shfl(i32 %mode, i32 %a, i32 %b, i32 %c) convergent alwaysinline {
  %lane = call i32 @sass.laneid()
  %bv = and i32 %b, 31
  %cv = and i32 %c, 31
  %seg0 = lshr i32 %c, 8
  %seg = and i32 %seg0, 31
  %nseg = xor i32 %seg, 31
  %lseg = and i32 %lane, %seg
  %cclamp = and i32 %cv, %nseg
  %maxl = or i32 %lseg, %cclamp
  %bidx = and i32 %bv, %nseg
  %jidx = or i32 %lseg, %bidx
  %jup = sub i32 %lane, %bv
  %jdown = add i32 %lane, %bv
  %jbfly = xor i32 %lane, %bv
  %okup = icmp sge i32 %jup, %maxl
  %okdown = icmp sle i32 %jdown, %maxl
  %okbfly = icmp sle i32 %jbfly, %maxl
  %okidx = icmp sle i32 %jidx, %maxl
  %is1 = icmp eq i32 %mode, 1
  %is2 = icmp eq i32 %mode, 2
  %is3 = icmp eq i32 %mode, 3
  %j1 = select i1 %is1, i32 %jup, i32 %jidx
  %j2 = select i1 %is2, i32 %jdown, i32 %j1
  %j = select i1 %is3, i32 %jbfly, i32 %j2
  %o1 = select i1 %is1, i1 %okup, i1 %okidx
  %o2 = select i1 %is2, i1 %okdown, i1 %o1
  %ok = select i1 %is3, i1 %okbfly, i1 %o2
  %src = select i1 %ok, i32 %j, i32 %lane
  %addr = shl i32 %src, 2
  %v = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %a)
  %r0 = insertvalue { i32, i1 } undef, i32 %v, 0
  %r = insertvalue { i32, i1 } %r0, i1 %ok, 1
  ret { i32, i1 } %r
}
; the value `v` of lane `lane` of this wave (all 32 lanes converged: tensor-core fragments)
define internal i32 @sass.lane.read(i32 %v, i32 %lane) convergent alwaysinline {
  %addr = shl i32 %lane, 2
  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %v)
  ret i32 %r
}
; REDUX over the active lanes: op 0 SUM, 1 MIN.S32, 2 MAX.S32, 3 MIN.U32, 4 MAX.U32, 5 AND, 6 OR, 7 XOR
define internal i32 @sass.redux(i32 %v, i32 %op) convergent alwaysinline {
entry:
  %mask = call i32 @sass.activemask()
  %init0 = icmp eq i32 %op, 1
  %init1 = icmp eq i32 %op, 2
  %init3 = icmp eq i32 %op, 3
  %init5 = icmp eq i32 %op, 5
  %i_a = select i1 %init0, i32 2147483647, i32 0
  %i_b = select i1 %init1, i32 -2147483648, i32 %i_a
  %i_c = select i1 %init3, i32 -1, i32 %i_b
  %init = select i1 %init5, i32 -1, i32 %i_c
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi i32 [ %init, %entry ], [ %acc1, %loop ]
  %x = call i32 @llvm.amdgcn.readlane(i32 %v, i32 %k)
  %bit0 = lshr i32 %mask, %k
  %bit = trunc i32 %bit0 to i1
  %sum = add i32 %acc, %x
  %smin = call i32 @llvm.smin.i32(i32 %acc, i32 %x)
  %smax = call i32 @llvm.smax.i32(i32 %acc, i32 %x)
  %umin = call i32 @llvm.umin.i32(i32 %acc, i32 %x)
  %umax = call i32 @llvm.umax.i32(i32 %acc, i32 %x)
  %band = and i32 %acc, %x
  %bor = or i32 %acc, %x
  %bxor = xor i32 %acc, %x
  %new = call i32 @sass.pick8(i32 %op, i32 %sum, i32 %smin, i32 %smax, i32 %umin, i32 %umax, i32 %band, i32 %bor, i32 %bxor)
  %acc1 = select i1 %bit, i32 %new, i32 %acc
  %k1 = add i32 %k, 1
  %done = icmp eq i32 %k1, 32
  br i1 %done, label %out, label %loop
out:
  ret i32 %acc1
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
; MATCH.ANY: mask of active lanes holding the same value as this lane
define internal i32 @sass.match.any(i32 %v) convergent alwaysinline {
entry:
  %mask = call i32 @sass.activemask()
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %x = call i32 @llvm.amdgcn.readlane(i32 %v, i32 %k)
  %same = icmp eq i32 %x, %v
  %bit0 = shl i32 1, %k
  %act = and i32 %mask, %bit0
  %isact = icmp ne i32 %act, 0
  %hit = and i1 %same, %isact
  %add = select i1 %hit, i32 %bit0, i32 0
  %acc1 = or i32 %acc, %add
  %k1 = add i32 %k, 1
  %done = icmp eq i32 %k1, 32
  br i1 %done, label %out, label %loop
out:
  ret i32 %acc1
}
define internal void @sass.bar.sync() convergent alwaysinline {
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  ret void
}
define internal void @sass.warp.sync() convergent alwaysinline {
  call void @llvm.amdgcn.wave.barrier()
  ret void
}

; ---------------------------------------------------------------- MUFU (hardware approximations)
define internal float @sass.mufu.rcp(float %x) alwaysinline {
  %f = call float @sass.ftz(float %x)
  %v = call float @llvm.amdgcn.rcp.f32(float %f)
  ret float %v
}
define internal float @sass.mufu.rsq(float %x) alwaysinline {
  %f = call float @sass.ftz(float %x)
  %v = call float @llvm.amdgcn.rsq.f32(float %f)
  ret float %v
}
define internal float @sass.mufu.sqrt(float %x) alwaysinline {
  %f = call float @sass.ftz(float %x)
  %v = call float @llvm.sqrt.f32(float %f)
  ret float %v
}
define internal float @sass.mufu.ex2(float %x) alwaysinline {
  %f = call float @sass.ftz(float %x)
  %v = call float @llvm.exp2.f32(float %f)
  %r = call float @sass.ftz(float %v)
  ret float %r
}
define internal float @sass.mufu.lg2(float %x) alwaysinline {
  %f = call float @sass.ftz(float %x)
  %v = call float @llvm.log2.f32(float %f)
  ret float %v
}
define internal float @sass.mufu.sin(float %x) alwaysinline {
  %v = call float @llvm.amdgcn.sin.f32(float %x)
  ret float %v
}
define internal float @sass.mufu.cos(float %x) alwaysinline {
  %v = call float @llvm.amdgcn.cos.f32(float %x)
  ret float %v
}
define internal i1 @sass.first.thread() alwaysinline {
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %y = call i32 @llvm.amdgcn.workitem.id.y()
  %z = call i32 @llvm.amdgcn.workitem.id.z()
  %a = or i32 %x, %y
  %b = or i32 %a, %z
  %r = icmp eq i32 %b, 0
  ret i1 %r
}
; Named barriers (BAR.SYNC id, count / BAR.ARV): gfx11 has one workgroup barrier, so these are
; counters in LDS, `state` = 16 x {arrived threads, generation}, zeroed by sass.bar.named.init.
; A warp arrives as 32 threads (NVIDIA counts whole warps); the arrival that completes `count`
; takes `count` back off and bumps the generation, which the waiting waves spin on.
declare void @llvm.amdgcn.s.sleep(i32)
declare i32 @llvm.cttz.i32(i32, i1)
define internal void @sass.bar.named.init(ptr addrspace(3) %state) convergent alwaysinline {
entry:
  %first = call i1 @sass.first.thread()
  br i1 %first, label %zero, label %sync
zero:
  store <32 x i32> zeroinitializer, ptr addrspace(3) %state, align 16
  br label %sync
sync:
  call void @sass.bar.sync()
  ret void
}
define internal void @sass.bar.named(ptr addrspace(3) %state, i32 %id, i32 %count, i1 %wait) convergent alwaysinline {
entry:
  fence syncscope("workgroup") release
  %active = call i32 @llvm.amdgcn.ballot.i32(i1 true)
  %first = call i32 @llvm.cttz.i32(i32 %active, i1 true)
  %lane = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %leader = icmp eq i32 %lane, %first
  br i1 %leader, label %arrive, label %done
arrive:
  %slot = shl i32 %id, 1
  %cnt.p = getelementptr i32, ptr addrspace(3) %state, i32 %slot
  %gen.p = getelementptr i32, ptr addrspace(3) %cnt.p, i32 1
  %gen = load atomic i32, ptr addrspace(3) %gen.p syncscope("workgroup") acquire, align 4
  %old = atomicrmw add ptr addrspace(3) %cnt.p, i32 32 syncscope("workgroup") acq_rel
  %now = add i32 %old, 32
  %last = icmp uge i32 %now, %count
  br i1 %last, label %release, label %maybe.wait
release:
  %back = atomicrmw sub ptr addrspace(3) %cnt.p, i32 %count syncscope("workgroup") monotonic
  %bump = atomicrmw add ptr addrspace(3) %gen.p, i32 1 syncscope("workgroup") release
  br label %done
maybe.wait:
  br i1 %wait, label %spin, label %done
spin:
  call void @llvm.amdgcn.s.sleep(i32 1)
  %g2 = load atomic i32, ptr addrspace(3) %gen.p syncscope("workgroup") acquire, align 4
  %same = icmp eq i32 %g2, %gen
  br i1 %same, label %spin, label %done
done:
  call void @llvm.amdgcn.wave.barrier()
  fence syncscope("workgroup") acquire
  ret void
}
; NANOSLEEP (ptxas's back-off in spin-waits): s_sleep, which also lets the emulator run other waves.
define internal void @sass.nanosleep() alwaysinline {
  call void @llvm.amdgcn.s.sleep(i32 1)
  ret void
}
