// pydev.mul x, (pydev.constant 8 : si32)  =>  pydev.lshift x, (pydev.constant 3 : si32)
// A PDL pattern applied by pydev-apply-pdl{patterns=...} at any point of the
// pipeline that still has pydev arithmetic (after-frontend), in pydev-opt and
// in the JIT (docs/research.md). `mlir-pdll --x=mlir` writes such modules
// from PDLL.
module {
  pdl.pattern @mul8_to_shift : benefit(1) {
    %ty = pdl.type : si32
    %x = pdl.operand : %ty
    %eight = pdl.attribute = 8 : si32
    %c = pdl.operation "pydev.constant" {"value" = %eight} -> (%ty : !pdl.type)
    %cv = pdl.result 0 of %c
    %mul = pdl.operation "pydev.mul"(%x, %cv : !pdl.value, !pdl.value) -> (%ty : !pdl.type)
    pdl.rewrite %mul {
      %three = pdl.attribute = 3 : si32
      %k = pdl.operation "pydev.constant" {"value" = %three} -> (%ty : !pdl.type)
      %kv = pdl.result 0 of %k
      %shl = pdl.operation "pydev.lshift"(%x, %kv : !pdl.value, !pdl.value) -> (%ty : !pdl.type)
      pdl.replace %mul with %shl
    }
  }
}
