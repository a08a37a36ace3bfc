// The file metadata section: dialect resources (blobs of dense_resource
// attributes, printed only when used) and external resources (kept and
// printed back as written, like mlir-opt's fallback resource map).
"foo.w"() {a = dense_resource<b1> : tensor<1xi8>} : () -> ()

{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(cse)",
      disable_threading: true
    },
    other: { "a b": "x\n", y: false, z: "0x0400000001" },
    empty: {}
  },
  dialect_resources: { builtin: { b1: "0x0100000007", unused: "0x01000000FF" } }
#-}
