// Verifier and parser errors of the nvptx dialect: the target, what it
// lacks, shuffles, shared memory, vector accesses and mma.sync.
// REQUIRES: strata-opt
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @no_target() {
  // expected-error @+1 {{'nvptx.thread_id' op is not inside an op with an 'nvptx.target'}}
  %0 = nvptx.thread_id x : i32
  return
}

// -----

module attributes {nvptx.target = "sm_75"} {
  func.func @old_target() {
    // expected-error @+1 {{'nvptx.barrier' op has target 'sm_75': expected sm_80 or sm_90}}
    nvptx.barrier
    return
  }
}

// -----

module attributes {nvptx.target = "sm_90", nvptx.ptx_version = 90} {
  func.func @new_ptx() {
    // expected-error @+1 {{'nvptx.barrier' op has PTX version 90: expected 70 to 88 (PTX 7.0 to 8.8)}}
    nvptx.barrier
    return
  }
}

// -----

module attributes {nvptx.target = "sm_80"} {
  func.func @cluster_on_sm80() {
    // expected-error @+1 {{'nvptx.cluster_id' op needs sm_90 or later (thread block clusters), but the target is sm_80}}
    %0 = nvptx.cluster_id x : i32
    return
  }
}

// -----

module attributes {nvptx.target = "sm_80"} {
  func.func @shfl_f64(%x: f64, %o: i32) {
    // expected-error @+1 {{'nvptx.shfl_sync' op shuffles 32-bit values (i32 or f32), not 'f64'}}
    %0 = nvptx.shfl_sync bfly %x, %o : f64 -> f64
    return
  }
}

// -----

module attributes {nvptx.target = "sm_80"} {
  func.func @shfl_result(%x: f32, %o: i32) {
    // expected-error @+1 {{'nvptx.shfl_sync' op result 'i32' must have the value's type 'f32'}}
    %0 = nvptx.shfl_sync bfly %x, %o : f32 -> i32
    return
  }
}

// -----

module attributes {nvptx.target = "sm_80"} {
  func.func @shfl_width(%x: f32, %o: i32) {
    // expected-error @+1 {{'nvptx.shfl_sync' op width 12 must be a power of two from 1 to 32}}
    %0 = nvptx.shfl_sync down %x, %o {width = 12} : f32 -> f32
    return
  }
}

// -----

module attributes {nvptx.target = "sm_80"} {
  func.func @shared_global() {
    // expected-error @+1 {{'nvptx.shared_alloc' op result '!nvptx.ptr<f32, global>' must point to shared memory}}
    %0 = nvptx.shared_alloc {elements = 4} : !nvptx.ptr<f32, global>
    return
  }
}

// -----

module attributes {nvptx.target = "sm_80"} {
  func.func @shared_too_big() {
    // expected-error @+1 {{'nvptx.shared_alloc' op allocates 65536 bytes of shared memory, more than a block's static 49152}}
    %0 = nvptx.shared_alloc {elements = 16384} : !nvptx.ptr<f32, shared>
    return
  }
}

// -----

module attributes {nvptx.target = "sm_80"} {
  func.func @wide_load(%p: !nvptx.ptr<f32, global>, %i: i32) {
    // expected-error @+1 {{'nvptx.load' op result 'vector<8xf32>' is 256 bits: a vector access has a power-of-two length and at most 128 bits}}
    %0 = nvptx.load %p[%i] : !nvptx.ptr<f32, global> -> vector<8xf32>
    return
  }
}

// -----

module attributes {nvptx.target = "sm_80"} {
  func.func @store_type(%p: !nvptx.ptr<f16, shared>, %i: i32, %v: f32) {
    // expected-error @+1 {{'nvptx.store' op value 'f32' must be the pointee 'f16' or a vector of it}}
    nvptx.store %v, %p[%i] : f32, !nvptx.ptr<f16, shared>
    return
  }
}

// -----

module attributes {nvptx.target = "sm_80"} {
  func.func @mma_f32(%a: vector<8xf32>, %b: vector<4xf32>, %c: vector<4xf32>) {
    // expected-error @+1 {{'nvptx.mma_sync' op m16n8k16 takes vector<8xT>, vector<4xT> (T f16 or bf16) and vector<4xf32> to vector<4xf32>, not vector<8xf32>, vector<4xf32>, vector<4xf32> to vector<4xf32>}}
    %0 = nvptx.mma_sync %a, %b, %c : vector<8xf32>, vector<4xf32>, vector<4xf32> -> vector<4xf32>
    return
  }
}

// -----

// expected-error @+1 {{unknown address space 'local' (expected global or shared)}}
func.func @space(%p: !nvptx.ptr<f32, local>) {
  return
}

// -----

module attributes {nvptx.target = "sm_90", nvptx.ptx_version = 75} {
  func.func @old_ptx_for_sm90() {
    // expected-error @+1 {{'nvptx.barrier' op has PTX version 75: sm_90 needs 78 (PTX 7.8) or later}}
    nvptx.barrier
    return
  }
}

// -----

// Each buffer fits, together they do not.
module attributes {nvptx.target = "sm_80"} {
  func.func @shared_total() {
    %0 = nvptx.shared_alloc {elements = 8192} : !nvptx.ptr<f32, shared>
    // expected-error @+1 {{'nvptx.shared_alloc' op brings the kernel's shared memory to 65536 bytes, more than a block's static 49152}}
    %1 = nvptx.shared_alloc {elements = 8192} : !nvptx.ptr<f32, shared>
    return
  }
}
