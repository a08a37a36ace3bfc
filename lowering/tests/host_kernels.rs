//! Hand-written `kernel` programs compiled for the host by LLVM and run:
//! masks at ragged edges, reductions, `dot` in a `scf.for` over K.

use strata_ir::{parser, Context, Operation};
use strata_lowering::kernel_to_host;
use strata_lowering::kernel_to_host::HostKernels;
use strata_lowering::llvm::launch;

fn compile(text: &str) -> HostKernels {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let buffer = strata_ir::SourceBuffer::new("test.mlir", text);
    let module: Operation = parser::parse_source(&mut ctx, &buffer)
        .unwrap_or_else(|d| panic!("parse: {}", d[0].message));
    if let Err(d) = strata_ir::verifier::verify(&ctx, module) {
        panic!(
            "verify: {:?}",
            d.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
    }
    kernel_to_host::compile(&ctx, module).unwrap_or_else(|e| panic!("compile: {e}"))
}

fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool")
}

const ADD: &str = r#"
kernel.func @add(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>, %out: !kernel.ptr<f32>, %n: i32) {
  %pid = kernel.program_id x : i32
  %c64 = arith.constant 64 : i32
  %base = arith.muli %pid, %c64 : i32
  %r = kernel.range 0, 64 : tensor<64xi32>
  %sb = kernel.splat %base : i32 -> tensor<64xi32>
  %offs = arith.addi %sb, %r : tensor<64xi32>
  %sn = kernel.splat %n : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %offs, %sn : tensor<64xi32>
  %px = kernel.splat %x : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %py = kernel.splat %y : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %po = kernel.splat %out : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %ax = kernel.addptr %px, %offs : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  %ay = kernel.addptr %py, %offs : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  %ao = kernel.addptr %po, %offs : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  %vx = kernel.load %ax, %mask : tensor<64x!kernel.ptr<f32>>
  %vy = kernel.load %ay, %mask : tensor<64x!kernel.ptr<f32>>
  %s = arith.addf %vx, %vy : tensor<64xf32>
  %e = math.exp %s : tensor<64xf32>
  kernel.store %ao, %e, %mask : tensor<64x!kernel.ptr<f32>>
  kernel.return
}
"#;

#[test]
fn elementwise_with_a_ragged_edge() {
    let jit = compile(ADD);
    let kernel = jit.kernel("add").expect("entry point");
    let n = 1000usize; // 16 programs, the last one partial
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.001).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 - i as f32 * 0.0005).collect();
    // A guard element past the end must stay untouched.
    let mut out = vec![-7.0f32; n + 1];
    let args = [
        x.as_ptr() as u64,
        y.as_ptr() as u64,
        out.as_mut_ptr() as u64,
        n as u64,
    ];
    let grid = n.div_ceil(64) as i64;
    unsafe { launch(kernel, &args, [grid, 1, 1], Some(&pool())) };
    for i in 0..n {
        let want = (x[i] + y[i]).exp();
        assert!(
            (out[i] - want).abs() <= 1e-6 * want.abs(),
            "{i}: {} vs {want}",
            out[i]
        );
    }
    assert_eq!(out[n], -7.0, "the mask must keep the store in bounds");
}

/// Integer division and remainder of masked tiles: the masked-off lanes
/// read zeros (no `other`), so they divide by zero; the CPU must not trap.
const DIVIDE: &str = r#"
kernel.func @divide(%x: !kernel.ptr<i32>, %y: !kernel.ptr<i32>, %q: !kernel.ptr<i32>, %r: !kernel.ptr<i32>, %n: i32) {
  %pid = kernel.program_id x : i32
  %c64 = arith.constant 64 : i32
  %base = arith.muli %pid, %c64 : i32
  %range = kernel.range 0, 64 : tensor<64xi32>
  %sb = kernel.splat %base : i32 -> tensor<64xi32>
  %offs = arith.addi %sb, %range : tensor<64xi32>
  %sn = kernel.splat %n : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %offs, %sn : tensor<64xi32>
  %px = kernel.splat %x : !kernel.ptr<i32> -> tensor<64x!kernel.ptr<i32>>
  %py = kernel.splat %y : !kernel.ptr<i32> -> tensor<64x!kernel.ptr<i32>>
  %pq = kernel.splat %q : !kernel.ptr<i32> -> tensor<64x!kernel.ptr<i32>>
  %pr = kernel.splat %r : !kernel.ptr<i32> -> tensor<64x!kernel.ptr<i32>>
  %ax = kernel.addptr %px, %offs : tensor<64x!kernel.ptr<i32>>, tensor<64xi32>
  %ay = kernel.addptr %py, %offs : tensor<64x!kernel.ptr<i32>>, tensor<64xi32>
  %aq = kernel.addptr %pq, %offs : tensor<64x!kernel.ptr<i32>>, tensor<64xi32>
  %ar = kernel.addptr %pr, %offs : tensor<64x!kernel.ptr<i32>>, tensor<64xi32>
  %vx = kernel.load %ax, %mask : tensor<64x!kernel.ptr<i32>>
  %vy = kernel.load %ay, %mask : tensor<64x!kernel.ptr<i32>>
  %vq = arith.divsi %vx, %vy : tensor<64xi32>
  %vr = arith.remsi %vx, %vy : tensor<64xi32>
  kernel.store %aq, %vq, %mask : tensor<64x!kernel.ptr<i32>>
  kernel.store %ar, %vr, %mask : tensor<64x!kernel.ptr<i32>>
  kernel.return
}
"#;

#[test]
fn integer_division_of_masked_lanes_does_not_trap() {
    let jit = compile(DIVIDE);
    let kernel = jit.kernel("divide").expect("entry point");
    let n = 100usize; // 2 programs, the last one with 28 masked-off lanes
    let x: Vec<i32> = (0..n as i32).map(|i| i * 37 - 1000).collect();
    // No zero among the real divisors; -1 and MIN / -1 (wrapping) included.
    let mut y: Vec<i32> = (0..n as i32)
        .map(|i| if i % 7 == 3 { -1 } else { i % 9 + 1 })
        .collect();
    let mut x = x;
    x[3] = i32::MIN;
    y[3] = -1;
    let (mut q, mut r) = (vec![0i32; n], vec![0i32; n]);
    let args = [
        x.as_ptr() as u64,
        y.as_ptr() as u64,
        q.as_mut_ptr() as u64,
        r.as_mut_ptr() as u64,
        n as u64,
    ];
    unsafe { launch(kernel, &args, [n.div_ceil(64) as i64, 1, 1], Some(&pool())) };
    for i in 0..n {
        assert_eq!(q[i], x[i].wrapping_div(y[i]), "{i}: {} / {}", x[i], y[i]);
        assert_eq!(r[i], x[i].wrapping_rem(y[i]), "{i}: {} % {}", x[i], y[i]);
    }
}

const SOFTMAX: &str = r#"
kernel.func @softmax(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>, %cols: i32) {
  %row = kernel.program_id x : i32
  %r = kernel.range 0, 128 : tensor<128xi32>
  %base = arith.muli %row, %cols : i32
  %sb = kernel.splat %base : i32 -> tensor<128xi32>
  %offs = arith.addi %sb, %r : tensor<128xi32>
  %sc = kernel.splat %cols : i32 -> tensor<128xi32>
  %ok = arith.cmpi slt, %r, %sc : tensor<128xi32>
  %px = kernel.splat %x : !kernel.ptr<f32> -> tensor<128x!kernel.ptr<f32>>
  %in = kernel.addptr %px, %offs : tensor<128x!kernel.ptr<f32>>, tensor<128xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<128xf32>
  %v = kernel.load %in, %ok, %ninf : tensor<128x!kernel.ptr<f32>>
  %m = kernel.reduce %v axis = 0 {
  ^bb0(%a: f32, %b: f32):
    %mx = arith.maximumf %a, %b : f32
    kernel.yield %mx : f32
  } : tensor<128xf32> -> f32
  %sm = kernel.splat %m : f32 -> tensor<128xf32>
  %d = arith.subf %v, %sm : tensor<128xf32>
  %e = math.exp %d : tensor<128xf32>
  %s = kernel.reduce %e axis = 0 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    kernel.yield %t : f32
  } : tensor<128xf32> -> f32
  %ss = kernel.splat %s : f32 -> tensor<128xf32>
  %o = arith.divf %e, %ss : tensor<128xf32>
  %py = kernel.splat %y : !kernel.ptr<f32> -> tensor<128x!kernel.ptr<f32>>
  %out = kernel.addptr %py, %offs : tensor<128x!kernel.ptr<f32>>, tensor<128xi32>
  kernel.store %out, %o, %ok : tensor<128x!kernel.ptr<f32>>
  kernel.return
}
"#;

#[test]
fn row_softmax_with_masked_columns() {
    let jit = compile(SOFTMAX);
    let kernel = jit.kernel("softmax").expect("entry point");
    let (rows, cols) = (5usize, 100usize);
    let x: Vec<f32> = (0..rows * cols)
        .map(|i| ((i * 37) % 23) as f32 * 0.3 - 3.0)
        .collect();
    let mut y = vec![0.0f32; rows * cols];
    let args = [x.as_ptr() as u64, y.as_mut_ptr() as u64, cols as u64];
    unsafe { launch(kernel, &args, [rows as i64, 1, 1], Some(&pool())) };
    for r in 0..rows {
        let row = &x[r * cols..(r + 1) * cols];
        let m = row.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        let s: f32 = row.iter().map(|v| (v - m).exp()).sum();
        for c in 0..cols {
            let want = (row[c] - m).exp() / s;
            let got = y[r * cols + c];
            assert!((got - want).abs() <= 1e-6, "({r}, {c}): {got} vs {want}");
        }
    }
}

/// C[M, N] = A[M, K] * B[K, N] with 16x16 tiles, K in steps of 8; a 2-D grid.
const MATMUL: &str = r#"
kernel.func @matmul(%a: !kernel.ptr<f32>, %b: !kernel.ptr<f32>, %c: !kernel.ptr<f32>, %M: i32, %N: i32, %K: i32) attributes {grid = 2 : i32} {
  %pm = kernel.program_id x : i32
  %pn = kernel.program_id y : i32
  %c16 = arith.constant 16 : i32
  %c8 = arith.constant 8 : i32
  %c0 = arith.constant 0 : i32
  %m0 = arith.muli %pm, %c16 : i32
  %n0 = arith.muli %pn, %c16 : i32
  %r16 = kernel.range 0, 16 : tensor<16xi32>
  %r8 = kernel.range 0, 8 : tensor<8xi32>
  %sm0 = kernel.splat %m0 : i32 -> tensor<16xi32>
  %sn0 = kernel.splat %n0 : i32 -> tensor<16xi32>
  %rm = arith.addi %sm0, %r16 : tensor<16xi32>
  %rn = arith.addi %sn0, %r16 : tensor<16xi32>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k0 = %c0 to %K step %c8 iter_args(%acc0 = %zero) -> (tensor<16x16xf32>) : i32 {
    %sk0 = kernel.splat %k0 : i32 -> tensor<8xi32>
    %rk = arith.addi %sk0, %r8 : tensor<8xi32>
    // A tile: rows rm, columns rk.
    %rm2 = kernel.expand_dims %rm axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
    %rk2 = kernel.expand_dims %rk axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
    %rmb = kernel.broadcast %rm2 : tensor<16x1xi32> -> tensor<16x8xi32>
    %rkb = kernel.broadcast %rk2 : tensor<1x8xi32> -> tensor<16x8xi32>
    %sK = kernel.splat %K : i32 -> tensor<16x8xi32>
    %rowoff = arith.muli %rmb, %sK : tensor<16x8xi32>
    %aoff = arith.addi %rowoff, %rkb : tensor<16x8xi32>
    %sM = kernel.splat %M : i32 -> tensor<16x8xi32>
    %inm = arith.cmpi slt, %rmb, %sM : tensor<16x8xi32>
    %sK2 = kernel.splat %K : i32 -> tensor<16x8xi32>
    %ink = arith.cmpi slt, %rkb, %sK2 : tensor<16x8xi32>
    %amask = arith.andi %inm, %ink : tensor<16x8xi1>
    %pa = kernel.splat %a : !kernel.ptr<f32> -> tensor<16x8x!kernel.ptr<f32>>
    %aptr = kernel.addptr %pa, %aoff : tensor<16x8x!kernel.ptr<f32>>, tensor<16x8xi32>
    %at = kernel.load %aptr, %amask : tensor<16x8x!kernel.ptr<f32>>
    // B tile: rows rk, columns rn.
    %rk3 = kernel.expand_dims %rk axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
    %rn3 = kernel.expand_dims %rn axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
    %rkb3 = kernel.broadcast %rk3 : tensor<8x1xi32> -> tensor<8x16xi32>
    %rnb3 = kernel.broadcast %rn3 : tensor<1x16xi32> -> tensor<8x16xi32>
    %sN = kernel.splat %N : i32 -> tensor<8x16xi32>
    %boffr = arith.muli %rkb3, %sN : tensor<8x16xi32>
    %boff = arith.addi %boffr, %rnb3 : tensor<8x16xi32>
    %sK3 = kernel.splat %K : i32 -> tensor<8x16xi32>
    %bink = arith.cmpi slt, %rkb3, %sK3 : tensor<8x16xi32>
    %binn = arith.cmpi slt, %rnb3, %sN : tensor<8x16xi32>
    %bmask = arith.andi %bink, %binn : tensor<8x16xi1>
    %pb = kernel.splat %b : !kernel.ptr<f32> -> tensor<8x16x!kernel.ptr<f32>>
    %bptr = kernel.addptr %pb, %boff : tensor<8x16x!kernel.ptr<f32>>, tensor<8x16xi32>
    %bt = kernel.load %bptr, %bmask : tensor<8x16x!kernel.ptr<f32>>
    %next = kernel.dot %at, %bt, %acc0 : tensor<16x8xf32> * tensor<8x16xf32> -> tensor<16x16xf32>
    scf.yield %next : tensor<16x16xf32>
  }
  %rm4 = kernel.expand_dims %rm axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %rn4 = kernel.expand_dims %rn axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %rmb4 = kernel.broadcast %rm4 : tensor<16x1xi32> -> tensor<16x16xi32>
  %rnb4 = kernel.broadcast %rn4 : tensor<1x16xi32> -> tensor<16x16xi32>
  %sN4 = kernel.splat %N : i32 -> tensor<16x16xi32>
  %crow = arith.muli %rmb4, %sN4 : tensor<16x16xi32>
  %coff = arith.addi %crow, %rnb4 : tensor<16x16xi32>
  %sM4 = kernel.splat %M : i32 -> tensor<16x16xi32>
  %cinm = arith.cmpi slt, %rmb4, %sM4 : tensor<16x16xi32>
  %cinn = arith.cmpi slt, %rnb4, %sN4 : tensor<16x16xi32>
  %cmask = arith.andi %cinm, %cinn : tensor<16x16xi1>
  %pc = kernel.splat %c : !kernel.ptr<f32> -> tensor<16x16x!kernel.ptr<f32>>
  %cptr = kernel.addptr %pc, %coff : tensor<16x16x!kernel.ptr<f32>>, tensor<16x16xi32>
  kernel.store %cptr, %acc, %cmask : tensor<16x16x!kernel.ptr<f32>>
  kernel.return
}
"#;

#[test]
fn tiled_matmul_with_ragged_tiles() {
    let jit = compile(MATMUL);
    let kernel = jit.kernel("matmul").expect("entry point");
    let (m, n, k) = (37usize, 21usize, 19usize);
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
    let b: Vec<f32> = (0..k * n)
        .map(|i| ((i * 5) % 13) as f32 * 0.5 - 3.0)
        .collect();
    let mut c = vec![f32::NAN; m * n + 1];
    c[m * n] = 42.0;
    let args = [
        a.as_ptr() as u64,
        b.as_ptr() as u64,
        c.as_mut_ptr() as u64,
        m as u64,
        n as u64,
        k as u64,
    ];
    let grid = [m.div_ceil(16) as i64, n.div_ceil(16) as i64, 1];
    unsafe { launch(kernel, &args, grid, Some(&pool())) };
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            let got = c[i * n + j];
            assert!((got - want).abs() <= 1e-4, "({i}, {j}): {got} vs {want}");
        }
    }
    assert_eq!(c[m * n], 42.0);
}

#[test]
fn an_op_the_host_cannot_compile_is_a_located_error() {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let text =
        "kernel.func @k(%x: i32) {\n  %y = arith.ceildivsi %x, %x : i32\n  kernel.return\n}\n";
    let buffer = strata_ir::SourceBuffer::new("bad.mlir", text);
    let module = parser::parse_source(&mut ctx, &buffer).expect("parses");
    let err = kernel_to_host::compile(&ctx, module)
        .err()
        .expect("an error");
    let d = err.diagnostic().expect("a located diagnostic");
    assert!(
        d.message
            .contains("'arith.ceildivsi' op is not compiled for the host yet"),
        "{}",
        d.message
    );
}

const UNARY: &str = r#"
kernel.func @f(%x: !kernel.ptr<f32>, %e: !kernel.ptr<f32>, %r: !kernel.ptr<f32>, %t: !kernel.ptr<f32>) {
  %i = kernel.range 0, 64 : tensor<64xi32>
  %px = kernel.splat %x : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %ax = kernel.addptr %px, %i : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  %v = kernel.load %ax : tensor<64x!kernel.ptr<f32>>
  %ve = math.exp %v : tensor<64xf32>
  %vr = math.erf %v : tensor<64xf32>
  %vt = math.tanh %v : tensor<64xf32>
  %pe = kernel.splat %e : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %pr = kernel.splat %r : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %pt = kernel.splat %t : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %ae = kernel.addptr %pe, %i : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  %ar = kernel.addptr %pr, %i : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  %at = kernel.addptr %pt, %i : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  kernel.store %ae, %ve : tensor<64x!kernel.ptr<f32>>
  kernel.store %ar, %vr : tensor<64x!kernel.ptr<f32>>
  kernel.store %at, %vt : tensor<64x!kernel.ptr<f32>>
  kernel.return
}
"#;

/// The host's f32 `exp`, `erf` and `tanh` (polynomial approximations)
/// against f64 libm: a few ulp on ordinary values, exact behaviour at the
/// edges (overflow, underflow, infinities, NaN, signed zeros).
#[test]
fn exp_erf_tanh_are_accurate_at_the_edges() {
    let jit = compile(UNARY);
    let kernel = jit.kernel("f").expect("entry point");
    let mut x: Vec<f32> = vec![
        0.0,
        -0.0,
        1e-30,
        -1e-30,
        1e-4,
        3e-4,
        0.5,
        -0.5,
        1.0,
        -1.0,
        2.5,
        -3.7,
        5.0,
        -6.0,
        8.0,
        -9.5,
        20.0,
        -20.0,
        60.0,
        -60.0,
        88.5,
        88.72,
        88.8,
        100.0,
        -87.0,
        -100.0,
        -103.5,
        -110.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MAX,
        f32::MIN,
    ];
    let mut k = 0.0f32;
    while x.len() < 64 {
        x.push(-12.0 + k * 0.77);
        k += 1.0;
    }
    let (mut e, mut r, mut t) = (vec![0f32; 64], vec![0f32; 64], vec![0f32; 64]);
    let args = [
        x.as_ptr() as u64,
        e.as_mut_ptr() as u64,
        r.as_mut_ptr() as u64,
        t.as_mut_ptr() as u64,
    ];
    unsafe { launch(kernel, &args, [1, 1, 1], None) };
    let close = |got: f32, want: f64, what: &str, at: f32| {
        let want32 = want as f32;
        if want32.is_nan() {
            assert!(got.is_nan(), "{what}({at}) = {got}, want NaN");
            return;
        }
        if want32.is_infinite() || want32 == 0.0 {
            assert_eq!(got, want32, "{what}({at})");
            return;
        }
        let tol = 4.0 * f32::EPSILON * want32.abs().max(f32::MIN_POSITIVE);
        assert!(
            (f64::from(got) - want).abs() <= f64::from(tol) + 1e-37,
            "{what}({at}) = {got}, want {want}"
        );
    };
    for i in 0..64 {
        let v = f64::from(x[i]);
        close(e[i], v.exp(), "exp", x[i]);
        close(r[i], libm_erf(v), "erf", x[i]);
        close(t[i], v.tanh(), "tanh", x[i]);
    }
    assert!(
        t[1].is_sign_negative() && r[1].is_sign_negative(),
        "tanh(-0) and erf(-0) are -0"
    );
}

/// erf in f64 (Abramowitz and Stegun are not precise enough: this is the
/// series / continued fraction pair, accurate to ~1e-15).
fn libm_erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let v = if a < 2.5 {
        // Maclaurin series.
        let mut sum = a;
        let mut term = a;
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= -a * a / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() < 1e-17 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // Continued fraction for erfc.
        let mut f = 0.0;
        for k in (1..60).rev() {
            f = (k as f64 / 2.0) / (a + f);
        }
        1.0 - (-a * a).exp() / (std::f64::consts::PI.sqrt() * (a + f))
    };
    v.copysign(x)
}
