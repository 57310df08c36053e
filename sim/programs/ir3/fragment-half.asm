; Half-precision fragment shader: Blinn-Phong lighting of one light with a texture colour.
; Varyings: the normal at inloc 0, the half vector at inloc 4, the texture coordinate at 8.
; Constants: the light colour in hc0, the ambient term in hc1, the shininess in hc2.x.
@in(r0.x) barycentrics
@out(hr2.x) colour
(rpt2)bary.f r1.x, (r)0, r0.x
(rpt2)bary.f r2.x, (r)4, r0.x
(rpt1)bary.f (ei)r3.x, (r)8, r0.x
(ss)sam (f16)(xyzw)hr8.x, r3.x, s#0, t#0
(rpt2)cov.f32f16 hr10.x, (r)r1.x
(rpt2)cov.f32f16 hr11.x, (r)r2.x
mul.f hr12.x, hr10.x, hr10.x
mad.f16 hr12.x, hr10.y, hr10.y, hr12.x
mad.f16 hr12.x, hr10.z, hr10.z, hr12.x
mul.f hr12.y, hr11.x, hr11.x
mad.f16 hr12.y, hr11.y, hr11.y, hr12.y
mad.f16 hr12.y, hr11.z, hr11.z, hr12.y
hrsq hr12.z, hr12.x
hrsq hr12.w, hr12.y
(ss)mul.f hr13.x, hr10.x, hr11.x
mad.f16 hr13.x, hr10.y, hr11.y, hr13.x
mad.f16 hr13.x, hr10.z, hr11.z, hr13.x
mul.f hr13.y, hr12.z, hr12.w
mul.f hr13.x, hr13.x, hr13.y
max.f hr13.x, hr13.x, h(0.0)
hlog2 hr13.z, hr13.x
(ss)mul.f hr13.z, hr13.z, hc2.x
hexp2 hr13.w, hr13.z
(sy)(rpt2)mul.f hr14.x, (r)hr8.x, (r)hc1.x
(ss)(rpt2)mad.f16 hr2.x, (r)hc0.x, hr13.w, (r)hr14.x
mov.f16f16 hr2.w, hr8.w
end
