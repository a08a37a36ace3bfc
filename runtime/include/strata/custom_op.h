/* The strata custom-op C ABI, version 1.
 *
 * A shared library defines custom ops for strata: for each op, a shape
 * function (`infer`: its result types from its input types) and a kernel
 * (`compute`: its results from its inputs, on host memory). strata loads
 * the library (`strata run|compile --custom-op-lib lib.so`,
 * `strata_runtime::custom_c::CustomOpLibrary::load`), hashes its bytes
 * (sha256: what a recipe's `contracts.custom_ops` and an artifact's manifest
 * record), and calls `strata_custom_ops` once to list the ops.
 *
 * Tensors are dense and row-major. Every function returns 0 on success;
 * otherwise it writes a NUL-terminated message of at most `err_len` bytes
 * into `err`, which strata reports at the op. strata may call `infer` and
 * `compute` from several threads, never on the same outputs at once.
 */
#ifndef STRATA_CUSTOM_OP_H
#define STRATA_CUSTOM_OP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version this header describes. */
#define STRATA_CUSTOM_OP_ABI 1

/* The most dimensions a tensor of this ABI has. */
#define STRATA_MAX_RANK 8

/* Element types. */
enum strata_dtype {
  STRATA_F32 = 0,
  STRATA_F64 = 1,
  STRATA_F16 = 2,
  STRATA_BF16 = 3,
  STRATA_I1 = 4, /* one byte per element, 0 or 1 */
  STRATA_I8 = 5,
  STRATA_I16 = 6,
  STRATA_I32 = 7,
  STRATA_I64 = 8,
  STRATA_U8 = 9,
  STRATA_U16 = 10,
  STRATA_U32 = 11,
  STRATA_U64 = 12
};

/* A tensor's type: `dims[0..rank]`; a dimension unknown when compiling is
 * -1 (only `infer` sees those). */
typedef struct {
  int32_t dtype;
  int32_t rank;
  int64_t dims[STRATA_MAX_RANK];
} strata_tensor_type;

/* A tensor: its type and its elements. */
typedef struct {
  strata_tensor_type type;
  void *data;
} strata_tensor;

/* One custom op. `config` is the op's `config` attribute in MLIR's text
 * (`{beta = 1.5 : f64}`), or NULL. */
typedef struct {
  /* The op's name (`graph.custom "example.ScaledSilu"`; an ONNX node of
   * domain `example`, type `ScaledSilu`). */
  const char *name;
  /* The op's version (`graph.custom`'s `version`, ONNX's domain opset). */
  int64_t op_version;
  /* The implementation's version (semver, e.g. "1.2.3"), which a recipe's
   * `contracts.custom_ops` names. */
  const char *impl_version;
  int32_t num_inputs;
  int32_t num_outputs;
  int32_t (*infer)(const char *config, const strata_tensor_type *inputs,
                   int32_t num_inputs, strata_tensor_type *outputs,
                   int32_t num_outputs, char *err, size_t err_len);
  /* The outputs' types are those `infer` gave for these inputs; their data
   * is allocated by strata. */
  int32_t (*compute)(const char *config, const strata_tensor *inputs,
                     int32_t num_inputs, strata_tensor *outputs,
                     int32_t num_outputs, char *err, size_t err_len);
} strata_custom_op;

/* The library's entry point: its ops, `*count` of them, for ABI version
 * `abi` (NULL when the library does not speak that version). The array
 * lives as long as the library. */
const strata_custom_op *strata_custom_ops(uint32_t abi, int32_t *count);

#ifdef __cplusplus
}
#endif

#endif /* STRATA_CUSTOM_OP_H */
