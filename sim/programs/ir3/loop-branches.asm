; A loop with an if/else inside: sum the first c0.x terms of a series, clamping each term
; at c0.y, then divide by the count. Branches are dropped on the core: its blocks run once
; each, in program order.
@out(r2.x) result
mov.u32u32 r1.x, 0
mov.f32f32 r2.x, (0.000000)
mov.f32f32 r1.y, c0.z
l_loop:
(jp)cmps.s.ge p0.x, r1.x, c0.x
br p0.x, #l_done
mul.f r1.z, r1.y, r1.y
cmps.f.gt p0.y, r1.z, c0.y
br !p0.y, #l_small
mov.f32f32 r1.z, c0.y
jump #l_join
l_small:
(jp)mad.f32 r1.z, r1.z, c0.w, r1.y
l_join:
(jp)add.f r2.x, r2.x, r1.z
add.f r1.y, r1.y, c1.x
add.s r1.x, r1.x, 1
jump #l_loop
l_done:
(jp)cov.s32f32 r1.w, r1.x
rcp r1.w, r1.w
(ss)mul.f r2.x, r2.x, r1.w
end
