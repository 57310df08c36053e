; Vertex transform: the clip-space position is the model-view-projection matrix times the
; position, the eye-space normal the normal matrix times the normal, normalised. The matrices
; sit in the constant file by columns: MVP in c0..c3, the normal matrix in c4..c6.
@in(r0.x) position
@in(r1.x) normal
@out(r2.x) gl_Position
@out(r3.x) normal
(rpt3)mul.f r2.x, (r)c0.x, r0.x
(rpt3)mad.f32 r2.x, (r)c1.x, r0.y, (r)r2.x
(rpt3)mad.f32 r2.x, (r)c2.x, r0.z, (r)r2.x
(rpt3)mad.f32 r2.x, (r)c3.x, r0.w, (r)r2.x
(rpt2)mul.f r4.x, (r)c4.x, r1.x
(rpt2)mad.f32 r4.x, (r)c5.x, r1.y, (r)r4.x
(rpt2)mad.f32 r4.x, (r)c6.x, r1.z, (r)r4.x
mul.f r5.x, r4.x, r4.x
mad.f32 r5.x, r4.y, r4.y, r5.x
mad.f32 r5.x, r4.z, r4.z, r5.x
rsq r5.y, r5.x
(ss)(rpt2)mul.f r3.x, (r)r4.x, r5.y
mov.f32f32 r3.w, (0.000000)
end
nop
nop
