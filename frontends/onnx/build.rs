//! Compiles `proto/onnx.proto` with protox (a pure-Rust protobuf compiler,
//! so no system `protoc` is needed) and prost-build.

fn main() {
    println!("cargo:rerun-if-changed=proto/onnx.proto");
    let descriptors = match protox::compile(["onnx.proto"], ["proto"]) {
        Ok(fds) => fds,
        Err(e) => panic!("compiling proto/onnx.proto: {e}"),
    };
    if let Err(e) = prost_build::Config::new().compile_fds(descriptors) {
        panic!("generating the ONNX protobuf types: {e}");
    }
}
