//! The deployed runtime binary: what it links (the C library only: no LLVM,
//! no CUDA; cudarc opens the driver at run time), how large it is, and its
//! answer on a machine without a GPU.

use std::path::Path;
use std::process::Command;

const BINARY: &str = env!("CARGO_BIN_EXE_strata-run");

/// The shared libraries the binary may need: the C runtime's.
const ALLOWED: &[&str] = &[
    "linux-vdso.so",
    "libc.so",
    "libm.so",
    "libgcc_s.so",
    "libpthread.so",
    "libdl.so",
    "librt.so",
    "ld-linux-x86-64.so",
];

#[test]
fn it_links_nothing_but_the_c_runtime() {
    let out = Command::new("ldd")
        .arg(BINARY)
        .output()
        .unwrap_or_else(|e| panic!("ldd: {e}"));
    assert!(out.status.success(), "ldd failed: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let libs: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(libs.iter().any(|l| l.starts_with("libc.so")), "{text}");
    for lib in &libs {
        let name = Path::new(lib)
            .file_name()
            .map_or(*lib, |n| n.to_str().unwrap_or(lib));
        assert!(
            ALLOWED.iter().any(|a| name.starts_with(a)),
            "strata-run links {name}, which a GPU machine without strata's build tools lacks:\n{text}"
        );
    }
}

#[test]
fn stripped_it_is_small() {
    let stripped = std::env::temp_dir().join(format!("strata-run-{}", std::process::id()));
    let status = Command::new("strip")
        .arg("-o")
        .arg(&stripped)
        .arg(BINARY)
        .status()
        .unwrap_or_else(|e| panic!("strip: {e}"));
    assert!(status.success());
    let bytes = std::fs::metadata(&stripped).map(|m| m.len()).unwrap_or(0);
    let _ = std::fs::remove_file(&stripped);
    // The release build is smaller still (docs/gpu.md); a debug build
    // without debug information stays under 16 MiB.
    assert!(bytes > 0 && bytes < 16 << 20, "{bytes} bytes stripped");
}

#[test]
fn without_a_device_it_says_so() {
    let out = Command::new(BINARY)
        .arg("probe")
        .env("STRATA_NO_CUDA", "1")
        .output()
        .unwrap_or_else(|e| panic!("{BINARY}: {e}"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "no CUDA device: STRATA_NO_CUDA is set"
    );
}

#[test]
fn it_asks_for_no_glibc_newer_than_2_34() {
    // The newest symbol version it needs decides the oldest system it runs
    // on: 2.34 is Ubuntu 22.04's, Debian 12's (2.36) and RHEL 9's floor.
    let out = Command::new("objdump")
        .arg("-T")
        .arg(BINARY)
        .output()
        .unwrap_or_else(|e| panic!("objdump: {e}"));
    assert!(out.status.success(), "objdump failed: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let newest = text
        .split("GLIBC_")
        .skip(1)
        .filter_map(|rest| {
            let version: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
            Some((parts.next()??, parts.next().flatten().unwrap_or(0)))
        })
        .max();
    assert!(newest.is_some(), "no GLIBC symbol versions in:\n{text}");
    assert!(
        newest <= Some((2, 34)),
        "strata-run needs GLIBC_{:?}",
        newest
    );
}
