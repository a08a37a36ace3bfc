/* A custom op through strata's C ABI: example.ScaledSilu,
 * y = x * sigmoid(beta * x), beta from the op's config (default 1), on f32
 * tensors of any shape. The test suite builds it
 * (`cc -shared -fPIC -O2 -I runtime/include scaled_silu.c -o libscaled_silu.so`)
 * and runs a model calling it in eager and graph mode
 * (runtime/tests/custom_c.rs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/custom_op.h"

#ifndef IMPL_VERSION
#define IMPL_VERSION "1.0.0"
#endif

/* `beta = <number>` in the config text, else 1. */
static double beta_of(const char *config) {
  const char *at = config ? strstr(config, "beta = ") : NULL;
  return at ? strtod(at + 7, NULL) : 1.0;
}

static int32_t infer(const char *config, const strata_tensor_type *inputs,
                     int32_t num_inputs, strata_tensor_type *outputs,
                     int32_t num_outputs, char *err, size_t err_len) {
  (void)config;
  if (num_inputs != 1 || num_outputs != 1) {
    snprintf(err, err_len, "takes 1 input and gives 1 output");
    return 1;
  }
  if (inputs[0].dtype != STRATA_F32) {
    snprintf(err, err_len, "takes an f32 tensor, got dtype %d", inputs[0].dtype);
    return 1;
  }
  outputs[0] = inputs[0];
  return 0;
}

static int32_t compute(const char *config, const strata_tensor *inputs,
                       int32_t num_inputs, strata_tensor *outputs,
                       int32_t num_outputs, char *err, size_t err_len) {
  if (infer(config, &inputs[0].type, num_inputs, &outputs[0].type,
            num_outputs, err, err_len) != 0) {
    return 1;
  }
  const float beta = (float)beta_of(config);
  int64_t n = 1;
  for (int32_t d = 0; d < inputs[0].type.rank; d++) n *= inputs[0].type.dims[d];
  const float *x = (const float *)inputs[0].data;
  float *y = (float *)outputs[0].data;
  for (int64_t i = 0; i < n; i++) {
    y[i] = x[i] / (1.0f + expf(-beta * x[i]));
  }
  return 0;
}

#ifdef STRATA_TEST_BAD_BOOLS
/* For runtime/tests/custom_c.rs: `x > 0` as an i1 tensor whose true bytes
 * are 0xFF, not the 1 the ABI asks for. strata must read any non-zero
 * byte as true (and never keep an invalid bool). */
static int32_t positive_infer(const char *config,
                              const strata_tensor_type *inputs,
                              int32_t num_inputs, strata_tensor_type *outputs,
                              int32_t num_outputs, char *err, size_t err_len) {
  (void)config;
  if (num_inputs != 1 || num_outputs != 1) {
    snprintf(err, err_len, "takes 1 input and gives 1 output");
    return 1;
  }
  outputs[0] = inputs[0];
  outputs[0].dtype = STRATA_I1;
  return 0;
}

static int32_t positive(const char *config, const strata_tensor *inputs,
                        int32_t num_inputs, strata_tensor *outputs,
                        int32_t num_outputs, char *err, size_t err_len) {
  (void)config;
  (void)num_inputs;
  (void)num_outputs;
  (void)err;
  (void)err_len;
  int64_t n = 1;
  for (int32_t d = 0; d < inputs[0].type.rank; d++) n *= inputs[0].type.dims[d];
  const float *x = (const float *)inputs[0].data;
  unsigned char *y = (unsigned char *)outputs[0].data;
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? 0xFF : 0;
  return 0;
}
#endif

static const strata_custom_op OPS[] = {{
    .name = "example.ScaledSilu",
    .op_version = 1,
    .impl_version = IMPL_VERSION,
    .num_inputs = 1,
    .num_outputs = 1,
    .infer = infer,
    .compute = compute,
}
#ifdef STRATA_TEST_BAD_BOOLS
, {
    .name = "example.Positive",
    .op_version = 1,
    .impl_version = IMPL_VERSION,
    .num_inputs = 1,
    .num_outputs = 1,
    .infer = positive_infer,
    .compute = positive,
}
#endif
};

const strata_custom_op *strata_custom_ops(uint32_t abi, int32_t *count) {
  if (abi != STRATA_CUSTOM_OP_ABI) return NULL;
  *count = (int32_t)(sizeof OPS / sizeof OPS[0]);
  return OPS;
}
