# lit configuration for strata's test suite (see docs/testing.md).
#
# Tests are .mlir files with RUN lines, run by the shell test format. The tools
# they use (strata-opt, FileCheck, not, ...) are found on PATH; test/tests/lit.rs
# (run by `cargo test`) puts the built strata tools and LLVM 22's bin directory
# in front of it. To run lit by hand, set PATH the same way:
#   PATH=$PWD/target/debug:/usr/lib/llvm-22/bin:$PATH lit -v test/IR/generic.mlir

import os
import shutil

import lit.formats

config.name = "strata"
config.test_format = lit.formats.ShTest(execute_external=True)
# Recipe tests (test/Recipe) are .toml files whose RUN lines are TOML comments.
config.suffixes = [".mlir", ".toml"]
# conformance/ holds inputs of test/tests/conformance.rs, not lit tests; Inputs/
# directories hold files that lit tests read.
config.excludes = ["conformance", "Inputs", "lit.cfg.py", "Cargo.toml", "tests", "target"]
config.test_source_root = os.path.dirname(__file__)

config.environment["PATH"] = os.environ.get("PATH", "")

# `-Dmlir_opt_self_check=1` (test/tests/lit.rs passes it when STRATA_OPT names
# another tool, e.g. mlir-opt): `strata-opt` on PATH is that tool, so only the
# tests meant to match mlir-opt run. A test of strata's own test dialect,
# passes, flags or graph dialect says `// REQUIRES: strata-opt`.
if lit_config.params.get("mlir_opt_self_check", "0") in ("", "0"):
    config.available_features.add("strata-opt")

for tool in ["strata-opt", "strata", "strata-translate", "strata-run", "FileCheck", "not"]:
    if shutil.which(tool, path=config.environment["PATH"]) is None:
        lit_config.fatal(
            f"'{tool}' is not on PATH. Run the suite with `cargo test -p strata-test --test lit` "
            "(after `cargo build --workspace --bins`), or put target/debug and "
            "/usr/lib/llvm-22/bin on PATH (scripts/setup installs LLVM 22)."
        )

# ptxas (scripts/setup-cuda fetches it into .local/cuda): every PTX a test
# produces is assembled by it (`%ptxas`, for tests that `REQUIRES: ptxas`).
# Without it the suite stops, unless STRATA_SKIP_CUDA_TOOLS=1 asks to skip
# those tests (lit then reports them UNSUPPORTED).
_ptxas = os.environ.get("STRATA_PTXAS") or os.path.join(
    os.path.dirname(config.test_source_root), ".local", "cuda", "bin", "ptxas"
)
if not os.path.isfile(_ptxas):
    _ptxas = shutil.which("ptxas", path=config.environment["PATH"])
if _ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", _ptxas))
elif os.environ.get("STRATA_SKIP_CUDA_TOOLS", "0") in ("", "0"):
    lit_config.fatal(
        "ptxas not found: run scripts/setup-cuda (or set STRATA_PTXAS), "
        "or STRATA_SKIP_CUDA_TOOLS=1 to skip the PTX tests"
    )
config.environment["STRATA_LIBDEVICE"] = os.environ.get(
    "STRATA_LIBDEVICE",
    os.path.join(os.path.dirname(config.test_source_root), ".local", "cuda", "nvvm", "libdevice", "libdevice.10.bc"),
)

# A CUDA device (`strata-run probe` finds a driver and a device): the tests
# that run on the GPU say `REQUIRES: cuda`; without one lit reports them
# UNSUPPORTED. STRATA_NO_CUDA=1 makes the probe report no device.
_strata_run = shutil.which("strata-run", path=config.environment["PATH"])
if _strata_run:
    import subprocess

    _probe = subprocess.run([_strata_run, "probe"], capture_output=True, text=True)
    if _probe.returncode == 0:
        config.available_features.add("cuda")
        lit_config.note("CUDA device: " + _probe.stdout.strip())
    else:
        lit_config.note("no CUDA device: the tests that need one are UNSUPPORTED (" + _probe.stderr.strip() + ")")
