; The document's example in ir3: (rpt3) mad R0, R0, R4, R8 is four multiply-adds whose three
; sources each fall in one bank of four (r0.x is register 0, r1.x register 4, r2.x register 8).
(rpt3)mad.f32 r0.x, (r)r0.x, (r)r1.x, (r)r2.x
end
