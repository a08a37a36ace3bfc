//! NumPy `.npy` files: read format versions 1.0, 2.0 and 3.0, write 1.0
//! (2.0 when the header needs it). C order and little-endian only.

use std::path::{Path, PathBuf};

use crate::{DType, Tensor};

const MAGIC: &[u8] = b"\x93NUMPY";
const SUPPORTED: &str = "<f2, <f4, <f8, |b1, |i1, <i2, <i4, <i8, |u1, <u2, <u4, <u8";

/// Why a `.npy` file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum NpyError {
    /// The file does not start with the `.npy` magic string.
    #[error("not a .npy file (bad magic bytes)")]
    BadMagic,
    /// The format version is not 1.0, 2.0 or 3.0.
    #[error("unsupported .npy format version {major}.{minor} (expected 1.0, 2.0 or 3.0)")]
    Version {
        /// Major version byte.
        major: u8,
        /// Minor version byte.
        minor: u8,
    },
    /// The header is truncated or is not the expected Python dict literal.
    #[error("malformed .npy header: {0}")]
    Header(String),
    /// The `descr` is not one this crate maps to a [`DType`].
    #[error("unsupported .npy dtype '{0}' (supported: {SUPPORTED})")]
    DType(String),
    /// The array is stored in Fortran (column-major) order.
    #[error("fortran_order arrays are not supported (save the array in C order)")]
    FortranOrder,
    /// The data section does not hold exactly the elements of the shape.
    #[error(".npy data has {actual} bytes but shape {shape:?} of {dtype} needs {expected}")]
    DataLength {
        /// Shape from the header.
        shape: Vec<usize>,
        /// Element type from the header.
        dtype: DType,
        /// Bytes the shape needs.
        expected: usize,
        /// Bytes present.
        actual: usize,
    },
    /// The tensor's dtype has no NumPy equivalent (`bf16`, the narrow
    /// dtypes).
    #[error("{0} has no NumPy dtype and cannot be written to .npy")]
    Unwritable(DType),
    /// Reading or writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file at `path` is not a valid `.npy` file.
    #[error("{}: {source}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: Box<NpyError>,
    },
}

/// Reads the `.npy` file at `path`; errors name the path.
pub fn load(path: &Path) -> Result<Tensor, NpyError> {
    let bytes = std::fs::read(path).map_err(|source| NpyError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read_npy(&bytes).map_err(|e| NpyError::InFile {
        path: path.to_path_buf(),
        source: Box::new(e),
    })
}

/// Writes `t` to `path` as a `.npy` file; errors name the path.
pub fn save(path: &Path, t: &Tensor) -> Result<(), NpyError> {
    let bytes = write_npy(t).map_err(|e| NpyError::InFile {
        path: path.to_path_buf(),
        source: Box::new(e),
    })?;
    std::fs::write(path, bytes).map_err(|source| NpyError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Decodes a `.npy` file held in memory.
pub fn read_npy(bytes: &[u8]) -> Result<Tensor, NpyError> {
    let rest = bytes.strip_prefix(MAGIC).ok_or(NpyError::BadMagic)?;
    let truncated = || NpyError::Header("file ends inside the header".into());
    let (&[major, minor], rest) = (rest.get(..2).ok_or_else(truncated)?, &rest[2..]) else {
        return Err(truncated());
    };
    let (len_bytes, utf8) = match (major, minor) {
        (1, 0) => (2, false),
        (2, 0) => (4, false),
        (3, 0) => (4, true),
        _ => return Err(NpyError::Version { major, minor }),
    };
    let len_field = rest.get(..len_bytes).ok_or_else(truncated)?;
    let header_len = len_field
        .iter()
        .rev()
        .fold(0usize, |acc, &b| (acc << 8) | b as usize);
    let rest = &rest[len_bytes..];
    let header = rest.get(..header_len).ok_or_else(truncated)?;
    let data = &rest[header_len..];
    let text: String = if utf8 {
        std::str::from_utf8(header)
            .map_err(|_| NpyError::Header("version 3.0 header is not UTF-8".into()))?
            .to_owned()
    } else {
        header.iter().map(|&b| b as char).collect() // latin-1
    };
    let h = parse_header(&text)?;
    if h.fortran_order {
        return Err(NpyError::FortranOrder);
    }
    let dtype = dtype_from_descr(&h.descr)?;
    let expected = crate::tensor::num_elements(&h.shape)
        .and_then(|n| n.checked_mul(dtype.byte_size()))
        .ok_or_else(|| NpyError::Header(format!("shape {:?} is too large", h.shape)))?;
    if data.len() != expected {
        return Err(NpyError::DataLength {
            shape: h.shape,
            dtype,
            expected,
            actual: data.len(),
        });
    }
    Tensor::from_le_bytes(dtype, &h.shape, data).map_err(|e| NpyError::Header(e.to_string()))
}

/// Encodes `t` as a `.npy` file (version 1.0, or 2.0 for huge headers).
pub fn write_npy(t: &Tensor) -> Result<Vec<u8>, NpyError> {
    let descr = match t.dtype() {
        DType::F16 => "<f2",
        DType::F32 => "<f4",
        DType::F64 => "<f8",
        DType::I1 => "|b1",
        DType::I8 => "|i1",
        DType::I16 => "<i2",
        DType::I32 => "<i4",
        DType::I64 => "<i8",
        DType::U8 => "|u1",
        DType::U16 => "<u2",
        DType::U32 => "<u4",
        DType::U64 => "<u8",
        d => return Err(NpyError::Unwritable(d)),
    };
    let shape = match t.shape() {
        [] => "()".to_string(),
        [d] => format!("({d},)"),
        dims => format!(
            "({})",
            dims.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Pad with spaces and a final newline so the data starts 64-aligned.
    let (version, len_bytes) = if header.len() + 1 + MAGIC.len() + 4 <= u16::MAX as usize {
        (1u8, 2)
    } else {
        (2u8, 4)
    };
    let unpadded = MAGIC.len() + 2 + len_bytes + header.len() + 1;
    header.extend(std::iter::repeat_n(
        ' ',
        unpadded.next_multiple_of(64) - unpadded,
    ));
    header.push('\n');
    let mut out =
        Vec::with_capacity(MAGIC.len() + 6 + header.len() + t.len() * t.dtype().byte_size());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    }
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&t.to_le_bytes());
    Ok(out)
}

fn dtype_from_descr(descr: &str) -> Result<DType, NpyError> {
    let (order, code) = descr.split_at(descr.len().min(1));
    let dtype = match code {
        "f2" => DType::F16,
        "f4" => DType::F32,
        "f8" => DType::F64,
        "b1" => DType::I1,
        "i1" => DType::I8,
        "i2" => DType::I16,
        "i4" => DType::I32,
        "i8" => DType::I64,
        "u1" => DType::U8,
        "u2" => DType::U16,
        "u4" => DType::U32,
        "u8" => DType::U64,
        _ => return Err(NpyError::DType(descr.to_string())),
    };
    let ok_order = match order {
        "<" => true,
        "|" => dtype.byte_size() == 1,
        ">" => dtype.byte_size() == 1,
        _ => false,
    };
    if !ok_order {
        return Err(NpyError::DType(format!(
            "{descr} (only little-endian data is supported)"
        )));
    }
    Ok(dtype)
}

/// The three keys of a `.npy` header.
struct Header {
    descr: String,
    fortran_order: bool,
    shape: Vec<usize>,
}

/// Parses the header's Python dict literal, e.g.
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }`.
fn parse_header(text: &str) -> Result<Header, NpyError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    p.expect(b'{')?;
    loop {
        p.skip_ws();
        if p.eat(b'}') {
            break;
        }
        let key = p.string()?;
        p.expect(b':')?;
        match key.as_str() {
            "descr" => descr = Some(p.string()?),
            "fortran_order" => fortran = Some(p.boolean()?),
            "shape" => shape = Some(p.shape()?),
            other => return Err(NpyError::Header(format!("unexpected key '{other}'"))),
        }
        p.skip_ws();
        if !p.eat(b',') {
            p.expect(b'}')?;
            break;
        }
    }
    p.skip_ws();
    if p.i != p.s.len() {
        return Err(NpyError::Header("text after the dict".into()));
    }
    let missing = |k: &str| NpyError::Header(format!("missing key '{k}'"));
    Ok(Header {
        descr: descr.ok_or_else(|| missing("descr"))?,
        fortran_order: fortran.ok_or_else(|| missing("fortran_order"))?,
        shape: shape.ok_or_else(|| missing("shape"))?,
    })
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> NpyError {
        NpyError::Header(format!("expected {what} at byte {}", self.i))
    }

    fn skip_ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), NpyError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(&format!("'{}'", c as char)))
        }
    }

    /// A quoted string without escapes (all `.npy` keys and descrs).
    fn string(&mut self) -> Result<String, NpyError> {
        self.skip_ws();
        let quote = match self.s.get(self.i) {
            Some(&q @ (b'\'' | b'"')) => q,
            _ => return Err(self.err("a quoted string")),
        };
        let start = self.i + 1;
        let len = self.s[start..]
            .iter()
            .position(|&c| c == quote || c == b'\\')
            .ok_or_else(|| self.err("a closing quote"))?;
        if self.s[start + len] == b'\\' {
            return Err(self.err("a string without escapes"));
        }
        self.i = start + len + 1;
        Ok(self.s[start..start + len]
            .iter()
            .map(|&b| b as char)
            .collect())
    }

    fn boolean(&mut self) -> Result<bool, NpyError> {
        self.skip_ws();
        for (word, value) in [(&b"True"[..], true), (&b"False"[..], false)] {
            if self.s[self.i..].starts_with(word) {
                self.i += word.len();
                return Ok(value);
            }
        }
        Err(self.err("True or False"))
    }

    /// A tuple of non-negative integers: `()`, `(3,)`, `(2, 3)`; Python 2's
    /// `3L` is accepted.
    fn shape(&mut self) -> Result<Vec<usize>, NpyError> {
        self.expect(b'(')?;
        let mut dims = Vec::new();
        let mut trailing_comma = false;
        loop {
            if self.eat(b')') {
                break;
            }
            let start = self.i;
            while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
                self.i += 1;
            }
            let digits =
                std::str::from_utf8(&self.s[start..self.i]).map_err(|_| self.err("a dimension"))?;
            let dim = digits
                .parse::<usize>()
                .map_err(|_| self.err("a dimension"))?;
            dims.push(dim);
            self.eat(b'L');
            trailing_comma = self.eat(b',');
            if !trailing_comma {
                self.expect(b')')?;
                break;
            }
        }
        if dims.len() == 1 && !trailing_comma {
            return Err(self.err("a comma in a one-element tuple"));
        }
        Ok(dims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handcrafted(major: u8, header: &str, data: &[u8]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[major, 0]);
        if major == 1 {
            out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        } else {
            out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        }
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn round_trip_every_writable_dtype() {
        for dtype in DType::ALL {
            let t = Tensor::from_f64_vec(dtype, &[2, 3], &[0.0, 1.0, -2.0, 3.5, 4.0, -5.0]);
            // NumPy has no bf16, nor the narrow dtypes (ml_dtypes adds them).
            if dtype == DType::BF16 || dtype.is_narrow() {
                assert!(matches!(write_npy(&t), Err(NpyError::Unwritable(_))));
                continue;
            }
            let bytes = write_npy(&t).unwrap();
            let data_start = bytes.len() - t.len() * dtype.byte_size();
            assert_eq!(data_start % 64, 0, "{dtype}: data not aligned");
            assert_eq!(read_npy(&bytes).unwrap(), t, "{dtype}");
        }
        for shape in [vec![], vec![4], vec![0, 3], vec![1, 1, 1, 2]] {
            let n: usize = shape.iter().product();
            let t = Tensor::from_i64(shape.clone(), (0..n as i64).collect()).unwrap();
            assert_eq!(read_npy(&write_npy(&t).unwrap()).unwrap(), t, "{shape:?}");
        }
    }

    #[test]
    fn header_text_matches_numpy() {
        let t = Tensor::from_f32(vec![3], vec![1.0, 2.0, 3.0]).unwrap();
        let bytes = write_npy(&t).unwrap();
        assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
        let hlen = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
        let header = std::str::from_utf8(&bytes[10..10 + hlen]).unwrap();
        assert!(header.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"));
        assert!(header.ends_with(" \n"));
        let s = write_npy(&Tensor::scalar_f64(DType::F64, 1.0)).unwrap();
        assert!(String::from_utf8_lossy(&s).contains("'shape': (), }"));
    }

    #[test]
    fn reads_handcrafted_headers() {
        // Keys in another order, double quotes, no trailing comma, version 2.
        let data: Vec<u8> = [7i32, -1].iter().flat_map(|v| v.to_le_bytes()).collect();
        let h = "{\"shape\": (2,), 'fortran_order':False,'descr': '<i4'}   \n";
        let t = read_npy(&handcrafted(2, h, &data)).unwrap();
        assert_eq!(t, Tensor::from_i32(vec![2], vec![7, -1]).unwrap());
        let t = read_npy(&handcrafted(3, h, &data)).unwrap();
        assert_eq!(t.shape(), &[2]);
        let h = "{'descr': '|b1', 'fortran_order': False, 'shape': (1L, 2L), }\n";
        let t = read_npy(&handcrafted(1, h, &[1, 0])).unwrap();
        assert_eq!(t, Tensor::from_bool(vec![1, 2], vec![true, false]).unwrap());
    }

    #[test]
    fn rejects_bad_files() {
        let ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }\n";
        let four = [0u8; 4];
        assert!(read_npy(&handcrafted(1, ok, &four)).is_ok());
        assert!(matches!(read_npy(b"NUMPY"), Err(NpyError::BadMagic)));
        assert!(matches!(
            read_npy(&handcrafted(4, ok, &four)),
            Err(NpyError::Version { .. })
        ));
        assert!(matches!(
            read_npy(&handcrafted(1, ok, &[0; 3])),
            Err(NpyError::DataLength { .. })
        ));
        let bad = |h: &str| read_npy(&handcrafted(1, h, &four)).unwrap_err();
        assert!(matches!(
            bad("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }"),
            NpyError::FortranOrder
        ));
        let e = bad("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }");
        assert!(e.to_string().contains("supported: <f2"), "{e}");
        assert!(matches!(
            bad("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }"),
            NpyError::DType(_)
        ));
        assert!(matches!(
            bad("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}"),
            NpyError::Header(_)
        ));
        for h in [
            "",
            "{",
            "{'descr': '<f4', 'fortran_order': False}",
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}",
            "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,)}",
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1)}",
            "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}",
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} extra",
            "{'descr': '<f4, 'fortran_order': False, 'shape': (1,)}",
            "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
        ] {
            assert!(matches!(bad(h), NpyError::Header(_)), "{h}");
        }
        // Truncated in every possible place: errors, never panics.
        let full = handcrafted(1, ok, &four);
        for cut in 0..full.len() {
            assert!(read_npy(&full[..cut]).is_err());
        }
    }

    #[test]
    fn load_and_save_name_the_path() {
        let dir = std::env::temp_dir().join(format!("strata-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.npy");
        let t = Tensor::from_i8(vec![2], vec![-1, 2]).unwrap();
        save(&path, &t).unwrap();
        assert_eq!(load(&path).unwrap(), t);
        let missing = dir.join("missing.npy");
        let err = load(&missing).unwrap_err().to_string();
        assert!(err.contains("missing.npy"), "{err}");
        std::fs::write(&path, b"junk").unwrap();
        assert!(load(&path).unwrap_err().to_string().contains("t.npy"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
