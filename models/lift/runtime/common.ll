; cass lifter runtime, target independent: exact emulations of NVIDIA arithmetic details.

declare float @llvm.fma.f32(float, float, float)
declare double @llvm.fma.f64(double, double, double)
declare float @llvm.fabs.f32(float)
declare double @llvm.fabs.f64(double)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare double @llvm.minnum.f64(double, double)
declare double @llvm.maxnum.f64(double, double)
declare float @llvm.sqrt.f32(float)
declare double @llvm.sqrt.f64(double)
declare float @llvm.exp2.f32(float)
declare float @llvm.log2.f32(float)
declare float @llvm.rint.f32(float)
declare float @llvm.trunc.f32(float)
declare float @llvm.floor.f32(float)
declare float @llvm.ceil.f32(float)
declare double @llvm.rint.f64(double)
declare double @llvm.trunc.f64(double)
declare double @llvm.floor.f64(double)
declare double @llvm.ceil.f64(double)
declare i32 @llvm.abs.i32(i32, i1)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare {i32, i1} @llvm.uadd.with.overflow.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.bitreverse.i32(i32)
declare i8 @llvm.fptosi.sat.i8.f32(float)
declare i8 @llvm.fptoui.sat.i8.f32(float)
declare i16 @llvm.fptosi.sat.i16.f32(float)
declare i16 @llvm.fptoui.sat.i16.f32(float)
declare i32 @llvm.fptosi.sat.i32.f32(float)
declare i32 @llvm.fptoui.sat.i32.f32(float)
declare i64 @llvm.fptosi.sat.i64.f32(float)
declare i64 @llvm.fptoui.sat.i64.f32(float)
declare i8 @llvm.fptosi.sat.i8.f64(double)
declare i8 @llvm.fptoui.sat.i8.f64(double)
declare i16 @llvm.fptosi.sat.i16.f64(double)
declare i16 @llvm.fptoui.sat.i16.f64(double)
declare i32 @llvm.fptosi.sat.i32.f64(double)
declare i32 @llvm.fptoui.sat.i32.f64(double)
declare i64 @llvm.fptosi.sat.i64.f64(double)
declare i64 @llvm.fptoui.sat.i64.f64(double)

; flush a denormal to a zero of the same sign
define internal float @sass.ftz(float %x) alwaysinline {
  %b = bitcast float %x to i32
  %e = and i32 %b, 2139095040
  %den = icmp eq i32 %e, 0
  %s = and i32 %b, -2147483648
  %r = select i1 %den, i32 %s, i32 %b
  %f = bitcast i32 %r to float
  ret float %f
}
define internal float @sass.sat(float %x) alwaysinline {
  %a = call float @llvm.maxnum.f32(float %x, float 0.0)
  %b = call float @llvm.minnum.f32(float %a, float 1.0)
  ret float %b
}
; FMNMX: one NaN -> the other operand; -0 < +0
define internal float @sass.fmin(float %a, float %b) alwaysinline {
  %m = call float @llvm.minnum.f32(float %a, float %b)
  %ia = bitcast float %a to i32
  %ib = bitcast float %b to i32
  %o = or i32 %ia, %ib
  %z = fcmp oeq float %a, %b
  %fo = bitcast i32 %o to float
  %r = select i1 %z, float %fo, float %m
  ret float %r
}
define internal float @sass.fmax(float %a, float %b) alwaysinline {
  %m = call float @llvm.maxnum.f32(float %a, float %b)
  %ia = bitcast float %a to i32
  %ib = bitcast float %b to i32
  %o = and i32 %ia, %ib
  %z = fcmp oeq float %a, %b
  %fo = bitcast i32 %o to float
  %r = select i1 %z, float %fo, float %m
  ret float %r
}
define internal float @sass.nextup(float %f) alwaysinline {
  %b = bitcast float %f to i32
  %zero = fcmp oeq float %f, 0.0
  %neg = icmp slt i32 %b, 0
  %up = add i32 %b, 1
  %dn = sub i32 %b, 1
  %s = select i1 %neg, i32 %dn, i32 %up
  %r = select i1 %zero, i32 1, i32 %s
  %o = bitcast i32 %r to float
  ret float %o
}
define internal float @sass.nextdown(float %f) alwaysinline {
  %n = fneg float %f
  %u = call float @sass.nextup(float %n)
  %r = fneg float %u
  ret float %r
}
; f32 a*b+c rounded toward zero (1), minus infinity (2) or plus infinity (3), exactly
define internal float @sass.fma.dir(float %a, float %b, float %c, i32 %mode) alwaysinline {
  %da = fpext float %a to double
  %db = fpext float %b to double
  %dc = fpext float %c to double
  %p = fmul double %da, %db
  %s = fadd double %p, %dc
  %bb = fsub double %s, %p
  %t1 = fsub double %s, %bb
  %t2 = fsub double %p, %t1
  %t3 = fsub double %dc, %bb
  %err = fadd double %t2, %t3
  %f = fptrunc double %s to float
  %fd = fpext float %f to double
  %r = fsub double %s, %fd
  %resid = fadd double %r, %err
  %below = fcmp olt double %resid, 0.0
  %above = fcmp ogt double %resid, 0.0
  %pos = fcmp ogt float %f, 0.0
  %negf = fcmp olt float %f, 0.0
  %zdown = and i1 %pos, %below
  %zup = and i1 %negf, %above
  %is1 = icmp eq i32 %mode, 1
  %is2 = icmp eq i32 %mode, 2
  %is3 = icmp eq i32 %mode, 3
  %d1 = and i1 %is1, %zdown
  %d2 = and i1 %is2, %below
  %down = or i1 %d1, %d2
  %u1 = and i1 %is1, %zup
  %u3 = and i1 %is3, %above
  %up = or i1 %u1, %u3
  %fu = call float @sass.nextup(float %f)
  %fdn = call float @sass.nextdown(float %f)
  %x1 = select i1 %up, float %fu, float %f
  %x2 = select i1 %down, float %fdn, float %x1
  ret float %x2
}
; 64-bit integer -> f32 with directed rounding (I2F.RP/.RM/.RZ)
define internal float @sass.i2f.dir(i64 %x, i1 %signed, i32 %mode) alwaysinline {
  %fs = sitofp i64 %x to float
  %fu = uitofp i64 %x to float
  %f = select i1 %signed, float %fs, float %fu
  %big = fcmp oge float %f, 0x43E0000000000000
  %bigu = fcmp oge float %f, 0x43F0000000000000
  %bs = fptosi float %f to i64
  %bu = fptoui float %f to i64
  %back = select i1 %signed, i64 %bs, i64 %bu
  %ovf = select i1 %signed, i1 %big, i1 %bigu
  %lts = icmp slt i64 %back, %x
  %ltu = icmp ult i64 %back, %x
  %gts = icmp sgt i64 %back, %x
  %gtu = icmp ugt i64 %back, %x
  %lt0 = select i1 %signed, i1 %lts, i1 %ltu
  %gt0 = select i1 %signed, i1 %gts, i1 %gtu
  %novf = xor i1 %ovf, true
  %lt = and i1 %lt0, %novf
  %gt = or i1 %gt0, %ovf
  %xneg = icmp slt i64 %x, 0
  %xnegs = and i1 %xneg, %signed
  %is1 = icmp eq i32 %mode, 1
  %is2 = icmp eq i32 %mode, 2
  %is3 = icmp eq i32 %mode, 3
  %rzup = and i1 %is1, %xnegs
  %rzdn = xor i1 %xnegs, true
  %rzdown = and i1 %is1, %rzdn
  %m2 = or i1 %is2, %rzdown
  %m3 = or i1 %is3, %rzup
  %down = and i1 %m2, %gt
  %up = and i1 %m3, %lt
  %vu = call float @sass.nextup(float %f)
  %vd = call float @sass.nextdown(float %f)
  %r1 = select i1 %up, float %vu, float %f
  %r2 = select i1 %down, float %vd, float %r1
  ret float %r2
}
; FCHK: true when a/b may need the full-precision slow path (a conservative superset)
define internal i1 @sass.fchk(float %a, float %b) alwaysinline {
  %ia = bitcast float %a to i32
  %ib = bitcast float %b to i32
  %ea0 = lshr i32 %ia, 23
  %ea = and i32 %ea0, 255
  %eb0 = lshr i32 %ib, 23
  %eb = and i32 %eb0, 255
  %ea_lo = icmp ult i32 %ea, 3
  %ea_hi = icmp ugt i32 %ea, 250
  %eb_lo = icmp ult i32 %eb, 3
  %eb_hi = icmp ugt i32 %eb, 250
  %diff = sub i32 %ea, %eb
  %d1 = icmp sgt i32 %diff, 120
  %d2 = icmp slt i32 %diff, -120
  %o1 = or i1 %ea_lo, %ea_hi
  %o2 = or i1 %eb_lo, %eb_hi
  %o3 = or i1 %d1, %d2
  %o4 = or i1 %o1, %o2
  %o = or i1 %o4, %o3
  ret i1 %o
}
; PRMT (default mode): byte i of the result = byte (sel nibble i & 7) of {b:a}; nibble bit 3 = sign fill
define internal i32 @sass.prmt.byte(i64 %v, i32 %sel, i32 %i) alwaysinline {
  %sh = mul i32 %i, 4
  %n0 = lshr i32 %sel, %sh
  %n = and i32 %n0, 15
  %idx = and i32 %n, 7
  %bits = mul i32 %idx, 8
  %bits64 = zext i32 %bits to i64
  %byte64 = lshr i64 %v, %bits64
  %byte = trunc i64 %byte64 to i32
  %b8 = and i32 %byte, 255
  %sgn = and i32 %n, 8
  %fill = icmp ne i32 %sgn, 0
  %top = and i32 %b8, 128
  %neg = icmp ne i32 %top, 0
  %ff = and i1 %fill, %neg
  %sfill = select i1 %ff, i32 255, i32 0
  %r = select i1 %fill, i32 %sfill, i32 %b8
  %pos = mul i32 %i, 8
  %out = shl i32 %r, %pos
  ret i32 %out
}
define internal i32 @sass.prmt(i32 %a, i32 %sel, i32 %b) alwaysinline {
  %za = zext i32 %a to i64
  %zb = zext i32 %b to i64
  %hb = shl i64 %zb, 32
  %v = or i64 %hb, %za
  %b0 = call i32 @sass.prmt.byte(i64 %v, i32 %sel, i32 0)
  %b1 = call i32 @sass.prmt.byte(i64 %v, i32 %sel, i32 1)
  %b2 = call i32 @sass.prmt.byte(i64 %v, i32 %sel, i32 2)
  %b3 = call i32 @sass.prmt.byte(i64 %v, i32 %sel, i32 3)
  %o1 = or i32 %b0, %b1
  %o2 = or i32 %o1, %b2
  %o3 = or i32 %o2, %b3
  ret i32 %o3
}
; MUFU.RCP64H / RSQ64H: high word of an approximate reciprocal (square root) of {hi:0}
define internal i32 @sass.rcp64h(i32 %hi) alwaysinline {
  %z = zext i32 %hi to i64
  %s = shl i64 %z, 32
  %d = bitcast i64 %s to double
  %r = fdiv double 1.0, %d
  %i = bitcast double %r to i64
  %h = lshr i64 %i, 32
  %t = trunc i64 %h to i32
  ret i32 %t
}
define internal i32 @sass.rsq64h(i32 %hi) alwaysinline {
  %z = zext i32 %hi to i64
  %s = shl i64 %z, 32
  %d = bitcast i64 %s to double
  %q = call double @llvm.sqrt.f64(double %d)
  %r = fdiv double 1.0, %q
  %i = bitcast double %r to i64
  %h = lshr i64 %i, 32
  %t = trunc i64 %h to i32
  ret i32 %t
}
define internal float @sass.mufu.tanh(float %x) alwaysinline {
  %t = fmul float %x, -2.0
  %l = fmul float %t, 0x3FF7154760000000
  %e = call float @llvm.exp2.f32(float %l)
  %num = fsub float 1.0, %e
  %den = fadd float 1.0, %e
  %r = fdiv float %num, %den
  %big = fcmp ogt float %x, 10.0
  %small = fcmp olt float %x, -10.0
  %r1 = select i1 %big, float 1.0, float %r
  %r2 = select i1 %small, float -1.0, float %r1
  ret float %r2
}
define internal double @sass.dnextup(double %f) alwaysinline {
  %b = bitcast double %f to i64
  %zero = fcmp oeq double %f, 0.0
  %neg = icmp slt i64 %b, 0
  %up = add i64 %b, 1
  %dn = sub i64 %b, 1
  %s = select i1 %neg, i64 %dn, i64 %up
  %r = select i1 %zero, i64 1, i64 %s
  %o = bitcast i64 %r to double
  ret double %o
}
define internal double @sass.dnextdown(double %f) alwaysinline {
  %n = fneg double %f
  %u = call double @sass.dnextup(double %n)
  %r = fneg double %u
  ret double %r
}
; f64 a*b+c rounded toward zero (1), minus infinity (2), plus infinity (3): the round-to-nearest
; result stepped by one ulp when the exact residual a*b+c-r points the other way; overflow of
; finite inputs gives the largest finite value where the mode rounds toward zero; an exact zero
; sum rounded toward minus infinity is -0
define internal double @sass.dfma.dir(double %a, double %b, double %c, i32 %mode) alwaysinline {
  %r = call double @llvm.fma.f64(double %a, double %b, double %c)
  %resid = call double @sass.dfma.resid(double %a, double %b, double %c, double %r)
  %fin = call i1 @sass.dfinite(double %r)
  %below0 = fcmp olt double %resid, 0.0
  %above0 = fcmp ogt double %resid, 0.0
  %below = and i1 %below0, %fin
  %above = and i1 %above0, %fin
  %pos = fcmp ogt double %r, 0.0
  %negf = fcmp olt double %r, 0.0
  %zdown = and i1 %pos, %below
  %zup = and i1 %negf, %above
  %is1 = icmp eq i32 %mode, 1
  %is2 = icmp eq i32 %mode, 2
  %is3 = icmp eq i32 %mode, 3
  %d1m = and i1 %is1, %zdown
  %d2m = and i1 %is2, %below
  %down = or i1 %d1m, %d2m
  %u1 = and i1 %is1, %zup
  %u3 = and i1 %is3, %above
  %up = or i1 %u1, %u3
  %fu = call double @sass.dnextup(double %r)
  %fdn = call double @sass.dnextdown(double %r)
  %x1 = select i1 %up, double %fu, double %r
  %x2 = select i1 %down, double %fdn, double %x1
  ; overflow: +inf stays for RP, -inf for RM; otherwise the largest finite value of r's sign
  %fa = call i1 @sass.dfinite(double %a)
  %fb = call i1 @sass.dfinite(double %b)
  %fc = call i1 @sass.dfinite(double %c)
  %fab = and i1 %fa, %fb
  %fin3 = and i1 %fab, %fc
  %rinf = xor i1 %fin, true
  %rnotnan = fcmp ord double %r, 0.0
  %rinf1 = and i1 %rinf, %rnotnan
  %ovf = and i1 %rinf1, %fin3
  %keep3 = and i1 %is3, %pos
  %keep2 = and i1 %is2, %negf
  %keep = or i1 %keep3, %keep2
  %clamp = xor i1 %keep, true
  %ovfc = and i1 %ovf, %clamp
  %max = select i1 %pos, double 0x7FEFFFFFFFFFFFFF, double 0xFFEFFFFFFFFFFFFF
  %x3 = select i1 %ovfc, double %max, double %x2
  ; exact zero toward minus infinity: -0 unless both addends are +0 (-(RN((-a)*b + (-c))))
  %zero = fcmp oeq double %r, 0.0
  %exact = fcmp oeq double %resid, 0.0
  %z1 = and i1 %zero, %exact
  %zm = and i1 %z1, %is2
  %na = fneg double %a
  %nc = fneg double %c
  %nz = call double @llvm.fma.f64(double %na, double %b, double %nc)
  %mz = fneg double %nz
  %x4 = select i1 %zm, double %mz, double %x3
  ret double %x4
}
define internal i1 @sass.dfinite(double %x) alwaysinline {
  %ax = call double @llvm.fabs.f64(double %x)
  %f = fcmp olt double %ax, 0x7FF0000000000000
  ret i1 %f
}
; a double with the sign of the exact a*b+c-r (r: a rounding of a*b+c). TwoProduct is exact while
; |a*b| >= 2^-960; below, with |c| >= 2^-900, c-r is exact and outweighs a*b unless it is 0 (then
; the sign is a*b's); with both tiny, everything is scaled by 2^1200 first (exact: a, b <= 2^114)
define internal double @sass.dfma.resid(double %a, double %b, double %c, double %r) alwaysinline {
  %ph = fmul double %a, %b
  %aph = call double @llvm.fabs.f64(double %ph)
  %ac = call double @llvm.fabs.f64(double %c)
  %ptiny = fcmp olt double %aph, 0x03F0000000000000
  %ctiny = fcmp olt double %ac, 0x07B0000000000000
  %plain = call double @sass.dfma.resid2(double %a, double %b, double %c, double %r)
  %as = fmul double %a, 0x6570000000000000
  %bs = fmul double %b, 0x6570000000000000
  %cs1 = fmul double %c, 0x6570000000000000
  %cs = fmul double %cs1, 0x6570000000000000
  %rs1 = fmul double %r, 0x6570000000000000
  %rs = fmul double %rs1, 0x6570000000000000
  %scaled = call double @sass.dfma.resid2(double %as, double %bs, double %cs, double %rs)
  %cr = fsub double %c, %r
  %crz = fcmp oeq double %cr, 0.0
  %psign = fmul double %as, %bs
  %mixed = select i1 %crz, double %psign, double %cr
  %both = and i1 %ptiny, %ctiny
  %m1 = select i1 %ptiny, double %mixed, double %plain
  %m2 = select i1 %both, double %scaled, double %m1
  ret double %m2
}
; TwoProduct + TwoSum: exact a*b+c-r up to the rounding of the last two additions
define internal double @sass.dfma.resid2(double %a, double %b, double %c, double %r) alwaysinline {
  %ph = fmul double %a, %b
  %nph = fneg double %ph
  %pl = call double @llvm.fma.f64(double %a, double %b, double %nph)
  %s1 = fadd double %ph, %c
  %bb = fsub double %s1, %ph
  %t1 = fsub double %s1, %bb
  %t2 = fsub double %ph, %t1
  %t3 = fsub double %c, %bb
  %e1 = fadd double %t2, %t3
  %d0 = fsub double %s1, %r
  %d1 = fadd double %d0, %e1
  %resid = fadd double %d1, %pl
  ret double %resid
}
; length of a NUL-terminated string including the NUL (what printf's string appends take); 0 for null
define internal i64 @sass.strlen0(ptr %s) alwaysinline {
entry:
  %isnull = icmp eq ptr %s, null
  br i1 %isnull, label %done, label %loop
loop:
  %n = phi i64 [ 0, %entry ], [ %n1, %loop ]
  %p = getelementptr i8, ptr %s, i64 %n
  %c = load i8, ptr %p, align 1
  %n1 = add i64 %n, 1
  %end = icmp eq i8 %c, 0
  br i1 %end, label %done, label %loop
done:
  %r = phi i64 [ 0, %entry ], [ %n1, %loop ]
  ret i64 %r
}
declare <2 x half> @llvm.fma.v2f16(<2 x half>, <2 x half>, <2 x half>)
declare <2 x half> @llvm.fabs.v2f16(<2 x half>)
