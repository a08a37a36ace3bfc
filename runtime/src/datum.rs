//! [`Datum`]: what a value of a graph holds when it runs: a tensor, a
//! sequence of tensors (`!graph.seq<T>`) or an optional (`!graph.opt<T>`),
//! ONNX's three kinds of values; and a tensor of strings, which is not a
//! [`Tensor`] (see [`crate::strings`]).

use crate::{StringTensor, Tensor};

/// The run-time value of a graph value.
#[derive(Clone, Debug, PartialEq)]
pub enum Datum {
    /// A tensor.
    Tensor(Tensor),
    /// A sequence of tensors (of one dtype), in order.
    Sequence(Vec<Tensor>),
    /// An optional: a tensor or a sequence, or nothing.
    Optional(Option<Box<Datum>>),
    /// A tensor of strings (`tensor<...x!graph.string>`).
    Strings(StringTensor),
}

impl Datum {
    /// The tensor, if this is one.
    pub fn as_tensor(&self) -> Option<&Tensor> {
        match self {
            Datum::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// The tensor, if this is one (otherwise `Err(self)`).
    pub fn into_tensor(self) -> Result<Tensor, Datum> {
        match self {
            Datum::Tensor(t) => Ok(t),
            other => Err(other),
        }
    }

    /// What kind of value this is, for messages: `tensor`, `sequence`,
    /// `optional` or `string tensor`.
    pub fn kind(&self) -> &'static str {
        match self {
            Datum::Tensor(_) => "tensor",
            Datum::Sequence(_) => "sequence",
            Datum::Optional(_) => "optional",
            Datum::Strings(_) => "string tensor",
        }
    }

    /// A short description: `tensor f32 [2, 3]`, `sequence of 2 tensors`,
    /// `empty optional`.
    pub fn describe(&self) -> String {
        match self {
            Datum::Tensor(t) => format!("tensor {} {:?}", t.dtype().name(), t.shape()),
            Datum::Sequence(s) => format!("sequence of {} tensors", s.len()),
            Datum::Optional(None) => "empty optional".to_string(),
            Datum::Optional(Some(d)) => format!("optional {}", d.describe()),
            Datum::Strings(t) => format!("tensor string {:?}", t.shape()),
        }
    }
}

impl From<StringTensor> for Datum {
    fn from(t: StringTensor) -> Datum {
        Datum::Strings(t)
    }
}

impl From<Tensor> for Datum {
    fn from(t: Tensor) -> Datum {
        Datum::Tensor(t)
    }
}
