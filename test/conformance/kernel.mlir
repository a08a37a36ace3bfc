// A tiled matmul kernel in generic form: memrefs with strided layouts and
// memory spaces, vectors, index arithmetic and nested loop regions, as a
// lowering pipeline would produce them.
"my.kernel"() <{sym_name = "matmul_tile", grid = array<i32: 16, 16, 1>, block = array<i32: 128, 1, 1>, target = #my.target<"sm_90", ptx = 78>}> ({
^bb0(%A: memref<?x?xf16, strided<[?, 1], offset: ?>, 1>, %B: memref<?x?xf16, strided<[?, 1], offset: ?>, 1>, %C: memref<?x?xf32, 1>, %M: index, %N: index, %K: index):
  %c0 = "my.const"() <{value = 0 : index}> : () -> index
  %c1 = "my.const"() <{value = 1 : index}> : () -> index
  %c64 = "my.const"() <{value = 64 : index}> : () -> index
  %pid:2 = "my.program_id"() <{dims = array<i64: 0, 1>}> : () -> (index, index)
  %row0 = "my.muli"(%pid#0, %c64) <{overflow = #my.overflow<nsw>}> : (index, index) -> index
  %col0 = "my.muli"(%pid#1, %c64) : (index, index) -> index
  %smem = "my.alloc"() <{alignment = 128 : i64}> : () -> memref<64x64xf16, 3>
  %zero = "my.const"() <{value = dense<0.0> : vector<8xf32>}> : () -> vector<8xf32>
  %acc = "my.for"(%c0, %K, %c64, %zero) ({
  ^bb0(%k: index, %iter: vector<8xf32>):
    %a_tile = "my.subview"(%A, %row0, %k) <{static_sizes = array<i64: 64, 64>}> : (memref<?x?xf16, strided<[?, 1], offset: ?>, 1>, index, index) -> memref<64x64xf16, strided<[?, 1], offset: ?>, 1>
    "my.copy_async"(%a_tile, %smem) {my.stage = 0 : i32} : (memref<64x64xf16, strided<[?, 1], offset: ?>, 1>, memref<64x64xf16, 3>) -> ()
    "my.barrier"() : () -> ()
    %inner = "my.for"(%c0, %c64, %c1, %iter) ({
    ^bb0(%kk: index, %vacc: vector<8xf32>):
      %a = "my.vector_load"(%smem, %kk, %c0) : (memref<64x64xf16, 3>, index, index) -> vector<8xf16>
      %b = "my.vector_load"(%B, %k, %col0) <{nontemporal}> : (memref<?x?xf16, strided<[?, 1], offset: ?>, 1>, index, index) -> vector<8xf16>
      %ae = "my.extf"(%a) : (vector<8xf16>) -> vector<8xf32>
      %be = "my.extf"(%b) : (vector<8xf16>) -> vector<8xf32>
      %fma = "my.fma"(%ae, %be, %vacc) <{fastmath = #my.fastmath<contract>}> : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
      "my.yield"(%fma) : (vector<8xf32>) -> ()
    }) : (index, index, index, vector<8xf32>) -> vector<8xf32>
    "my.barrier"() : () -> ()
    "my.yield"(%inner) : (vector<8xf32>) -> ()
  }) : (index, index, index, vector<8xf32>) -> vector<8xf32>
  %in_bounds = "my.cmpi"(%row0, %M) <{predicate = 2 : i64}> : (index, index) -> i1
  "my.cond_br"(%in_bounds)[^store, ^done] : (i1) -> ()
^store:
  %mask = "my.const"() <{value = dense<[true, true, true, true, false, false, false, false]> : vector<8xi1>}> : () -> vector<8xi1>
  "my.masked_store"(%acc, %C, %row0, %col0, %mask) : (vector<8xf32>, memref<?x?xf32, 1>, index, index, vector<8xi1>) -> ()
  "my.br"()[^done] : () -> ()
^done:
  "my.dealloc"(%smem) : (memref<64x64xf16, 3>) -> ()
  "my.return"() : () -> ()
}) {my.launch_bounds = 128 : i32, my.scalable_hint = vector<[4]xf32>} : () -> ()
