// dense_resource attributes and the file-level resource section. Only
// resources that are referenced are printed back, in first-use order.
"foo.weights"() {
  a = dense_resource<blob1> : tensor<2xi32>,
  b = dense_resource<blob2> : tensor<2x2xf16>,
  c = dense_resource<blob1> : tensor<8xi8>,
  d = dense_resource<__elided__> : tensor<3xf32>
} : () -> ()
"foo.const"() <{value = dense_resource<"quoted key"> : tensor<1xi64>}> : () -> ()

{-#
  dialect_resources: {
    builtin: {
      unused: "0x0400000001",
      blob2: "0x02000000003C003C003C003C",
      blob1: "0x040000000100000002000000",
      "quoted key": "0x080000002A00000000000000"
    }
  }
#-}
