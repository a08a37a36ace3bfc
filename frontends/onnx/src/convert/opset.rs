//! The oldest opset each supported op type is imported from.

/// The oldest opset whose definition of `op` the importer converts: the
/// op's version current at opset 13, or an older one when the versions in
/// between only added element types (bfloat16 at 13, integers at 12) or
/// attributes the importer reads by name (Squeeze's, Split's and the
/// reductions' `axes` attributes before they became inputs at 13). Older
/// models use older definitions (Softmax coerced its input to 2-D before
/// 13; binary ops did not broadcast before 7).
pub(super) fn min_opset(op: &str) -> i64 {
    match op {
        "Constant" | "GlobalAveragePool" | "GlobalMaxPool" | "Identity" | "Not" | "Shape"
        | "Size" | "Softplus" | "Transpose" => 1,
        "Reshape" => 5,
        // If-11 and Loop-11 relaxed checks the importer does not make;
        // sequences (13) and optionals (16) are other types.
        "If" | "Loop" => 1,
        // Scan-8 has a batch axis (`super::control`'s `scan_v8`).
        "Scan" => 9,
        "Abs" | "Cast" | "Ceil" | "Elu" | "Exp" | "Floor" | "HardSigmoid" | "LeakyRelu" | "Log"
        | "Neg" | "Reciprocal" | "Relu" | "Sigmoid" | "Sqrt" | "Tanh" | "Tile" => 6,
        "Acos" | "Add" | "And" | "Asin" | "Atan" | "Cos" | "Div" | "Dropout" | "Equal"
        | "Greater" | "Less" | "Mul" | "Or" | "Pow" | "Sin" | "Sub" | "Xor" => 7,
        "Expand" | "Max" | "Mean" | "Min" | "Sum" => 8,
        "BatchNormalization" | "ConstantOfShape" | "Erf" | "MatMul" | "Sign" | "Where" => 9,
        "Mod" | "Slice" => 10,
        "AveragePool" | "Clip" | "Concat" | "Conv" | "ConvTranspose" | "Flatten" | "Gather"
        | "LpPool" | "Gemm" | "Pad" | "Range" | "ReduceL1" | "ReduceL2" | "ReduceLogSumExp"
        | "ReduceMax" | "ReduceMean" | "ReduceMin" | "ReduceProd" | "ReduceSum"
        | "ReduceSumSquare" | "Split" | "Squeeze" | "Unsqueeze" => 11,
        "ArgMax" | "ArgMin" | "GreaterOrEqual" | "LessOrEqual" | "MaxPool" => 12,
        "LpNormalization" | "Softsign" | "SpaceToDepth" => 1,
        "InstanceNormalization" | "Selu" => 6,
        "LRN" => 1,
        "CenterCropPad" => 18,
        "BlackmanWindow" | "DFT" | "HammingWindow" | "HannWindow" | "MelWeightMatrix" | "STFT" => {
            17
        }
        "GridSample" => 16,
        "NonMaxSuppression" => 11,
        // NonZero-13 and Compress-11 added types and negative axes.
        "NonZero" | "Compress" => 9,
        "Unique" => 11,
        "ReverseSequence" => 10,
        // `coordinate_transformation_mode` (16) defaults to the older form
        // below 16.
        "RoiAlign" => 10,
        // Deprecated at 10 (Resize replaces it).
        "Upsample" => 7,
        "ConvInteger" | "MatMulInteger" | "QLinearConv" | "QLinearMatMul" => 10,
        // Scatter (deprecated at 11) is ScatterElements without reduction.
        "Scatter" => 9,
        "Tan" => 7,
        // `layout` (14) is read by name, its default the older behavior.
        "RNN" | "GRU" | "LSTM" => 7,
        "Acosh"
        | "Asinh"
        | "Atanh"
        | "Cosh"
        | "EyeLike"
        | "IsNaN"
        | "MeanVarianceNormalization"
        | "PRelu"
        | "Shrink"
        | "Sinh" => 9,
        // Per-axis parameters (13) and blocks (21) are read by name.
        "DequantizeLinear" | "IsInf" | "QuantizeLinear" | "ThresholdedRelu" => 10,
        "CumSum"
        | "DepthToSpace"
        | "DynamicQuantizeLinear"
        | "GatherElements"
        | "GatherND"
        | "OneHot"
        | "ReduceLogSum"
        | "Resize"
        | "Round"
        | "ScatterElements"
        | "ScatterND"
        | "TopK" => 11,
        "Celu" | "Einsum" | "NegativeLogLikelihoodLoss" | "SoftmaxCrossEntropyLoss" => 12,
        "Det" => 11,
        "Col2Im" => 18,
        "AffineGrid" => 20,
        "CausalConvWithState" | "LinearAttention" => 27,
        "TensorScatter" => 24,
        "RandomUniformLike" => 1,
        "Bernoulli" => 15,
        "DeformConv" => 19,
        // MaxUnpool-11 added nothing the importer reads differently.
        "MaxUnpool" => 9,
        "TfIdfVectorizer" => 9,
        "StringNormalizer" => 10,
        "BitShift" => 11,
        "BitwiseAnd" | "BitwiseNot" | "BitwiseOr" | "BitwiseXor" => 18,
        // Scale and bias became per channel (from per group) at 21.
        "GroupNormalization" => 21,
        "ConcatFromSequence" | "SequenceAt" | "SequenceConstruct" | "SequenceEmpty"
        | "SequenceErase" | "SequenceInsert" | "SequenceLength" | "SplitToSequence" => 11,
        // 18 lets OptionalGetElement and OptionalHasElement take tensors
        // and sequences too, read by their types.
        "Optional" | "OptionalGetElement" | "OptionalHasElement" => 15,
        "SequenceMap" => 17,
        // Ops introduced after opset 13 exist only in their own versions.
        "Attention" | "BitCast" | "CastLike" | "Gelu" | "HardSwish" | "LayerNormalization"
        | "Mish" | "RMSNormalization" | "RotaryEmbedding" | "Swish" | "Trilu" | "CumProd" => 1,
        _ => 13,
    }
}
