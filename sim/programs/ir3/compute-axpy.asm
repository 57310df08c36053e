; Compute kernel: y[i] = a * x[i] + y[i] on four floats per invocation, then a running sum of
; the four results into a scalar output. The buffers' addresses are in c2.x (x), c2.y (y)
; and c2.z (the sums); a is c1.x.
@localsize 64, 1, 1
@invocationid(r0.x)
shl.b r1.x, r0.x, 4
add.s r1.y, c2.x, r1.x
add.s r1.z, c2.y, r1.x
ldg.f32 r2.x, g[r1.y], 4
ldg.f32 r3.x, g[r1.z], 4
shl.b r1.w, r0.x, 2
add.s r1.w, c2.z, r1.w
(sy)(rpt3)mad.f32 r4.x, c1.x, (r)r2.x, (r)r3.x
stg.f32 g[r1.z], r4.x, 4
add.f r5.x, r4.x, r4.y
add.f r5.y, r4.z, r4.w
add.f r5.x, r5.x, r5.y
stg.f32 g[r1.w], r5.x, 1
ldg.f32 r6.x, g[r1.w+16], 2
(sy)add.f r6.z, r6.x, r6.y
stl.f32 l[r0.x], r6.z, 1
ldl.f32 r6.w, l[r0.x+4], 1
(ss)mul.f r7.x, r6.w, r5.x
stg.f32 g[r1.w+8], r7.x, 1
end
