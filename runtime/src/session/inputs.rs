//! The model's inputs as its signature declares them, and the checks of
//! what a run gives against them.

use strata_ir::{Context, TypeKind};

use super::SessionError;
use crate::{interp, DType, Datum, Tensor, TensorView};

/// One input of the model, as its signature declares it.
#[derive(Clone, Debug, PartialEq)]
pub struct InputSpec {
    /// Its name (`onnx.name`, else `input_<i>`).
    pub name: String,
    /// Its element type, when it is a tensor of one strata runs.
    pub dtype: Option<DType>,
    /// Its dimensions (-1: any size), when it is a ranked tensor.
    pub shape: Option<Vec<i64>>,
    /// Its type as written in the IR.
    pub type_text: String,
}

impl InputSpec {
    /// The input `name` of type `ty` (in `ctx`).
    pub fn of(ctx: &Context, name: String, ty: strata_ir::Type) -> InputSpec {
        let (shape, element) = match ctx.type_kind(ty) {
            TypeKind::RankedTensor { shape, element, .. } => (Some(shape.clone()), *element),
            _ => (None, ty),
        };
        InputSpec {
            name,
            dtype: interp::dtype_of(ctx, element),
            shape,
            type_text: strata_ir::printer::type_to_string(ctx, ty),
        }
    }

    /// Whether `value` fits: a tensor as [`InputSpec::check`] says, a
    /// tensor of strings by its shape, a sequence or an optional where the
    /// model takes no tensor.
    pub fn check_value(&self, value: &Datum) -> Result<(), SessionError> {
        let error = |message: String| SessionError::Input {
            name: self.name.clone(),
            message,
        };
        match value {
            Datum::Tensor(t) => self.check(t),
            Datum::Strings(s) => self.check_shape(s.shape()),
            Datum::Sequence(_) | Datum::Optional(_) if self.shape.is_some() => {
                let what = if matches!(value, Datum::Sequence(_)) {
                    "a sequence"
                } else {
                    "an optional"
                };
                Err(error(format!(
                    "is {what}, but the model takes {}",
                    self.type_text
                )))
            }
            Datum::Sequence(_) | Datum::Optional(_) => Ok(()),
        }
    }

    /// Whether `shape` has the rank and the static dimensions declared.
    fn fits(&self, shape: &[usize]) -> bool {
        self.shape.as_ref().is_none_or(|s| {
            s.len() == shape.len()
                && s.iter()
                    .zip(shape)
                    .all(|(&d, &g)| d < 0 || usize::try_from(d) == Ok(g))
        })
    }

    /// Whether `t` fits: the dtype, the rank and every static dimension
    /// (an error naming the input, what it is and what the model takes).
    pub fn check(&self, t: &Tensor) -> Result<(), SessionError> {
        self.check_view(&t.view())
    }

    /// [`InputSpec::check`] of an input held elsewhere.
    pub fn check_view(&self, t: &TensorView<'_>) -> Result<(), SessionError> {
        let error = |message: String| SessionError::Input {
            name: self.name.clone(),
            message,
        };
        if let Some(want) = self.dtype.filter(|&d| d != t.dtype()) {
            return Err(error(format!(
                "is {} {:?}, but the model takes {} ({})",
                t.dtype().name(),
                t.shape(),
                want.name(),
                self.type_text
            )));
        }
        self.check_shape(t.shape())
    }

    /// Whether `shape` has the rank and the static dimensions declared (an
    /// error naming the input otherwise).
    fn check_shape(&self, shape: &[usize]) -> Result<(), SessionError> {
        if self.fits(shape) {
            return Ok(());
        }
        Err(SessionError::Input {
            name: self.name.clone(),
            message: format!(
                "has shape {shape:?}, which the model's {} does not admit",
                self.type_text
            ),
        })
    }
}

/// The dimensions of a value in a plan's key: a tensor's shape (strings
/// too); none for a sequence or an optional, whose type is the model's.
pub(super) fn datum_dims(d: &Datum) -> &[usize] {
    match d {
        Datum::Tensor(t) => t.shape(),
        Datum::Strings(s) => s.shape(),
        Datum::Sequence(_) | Datum::Optional(_) => &[],
    }
}
