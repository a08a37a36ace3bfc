//! Signal processing: `dft`; and `image_decode` (ONNX `ImageDecoder`).

use strata_ir::ods::constraints::{I64Attr, StrAttr};
use strata_ir::op;

use super::{AnyTensor, BoolAttr, FloatTensor, IntTensor};
use crate::graph::fold::fold_graph;
use crate::graph::infer::{self, verify_shapes, ShapeFunction};

/// The discrete Fourier transform (ONNX `DFT`) along `axis` of a signal
/// whose last dimension holds real (1) or complex (2) values; `length`
/// zero-pads or truncates it; `inverse` and `onesided` as ONNX (an inverse
/// one-sided transform gives a real signal). The axis is the `axis`
/// attribute, or the scalar `axis_value` operand when given (ONNX's run-time
/// axis input).
#[op("graph.dft",
     traits(Pure),
     format = "$input (`length` $length^)? (`axis` $axis_value^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_dft)))]
pub struct DftOp {
    input: Operand<FloatTensor>,
    length: Optional<IntTensor>,
    axis_value: Optional<IntTensor>,
    #[default = "1"]
    axis: Attr<I64Attr>,
    #[default = "false"]
    inverse: Attr<BoolAttr>,
    #[default = "false"]
    onesided: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

/// Decodes an encoded image (ONNX `ImageDecoder`): `encoded` is the bytes
/// of a BMP, JPEG, PNG, PNM, TIFF or WebP file (`tensor<?xui8>`); the
/// result is its pixels, `[height, width, 3]` in `pixel_format` `"RGB"`
/// (the default) or `"BGR"`, `[height, width, 1]` in `"Grayscale"`
/// (`ui8`). Bytes that are no image give an empty `[0, 0, C]` result, as
/// ONNX specifies; JPEG 2000 (no codec here) is refused when it runs.
#[op("graph.image_decode",
     traits(Pure),
     format = "$encoded attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_image_decode)))]
pub struct ImageDecodeOp {
    encoded: Operand<AnyTensor>,
    pixel_format: OptionalAttr<StrAttr>,
    output: Result<AnyTensor>,
}
