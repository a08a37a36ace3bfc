//! `ImageDecoder`: encoded image bytes to pixels, through the `image`
//! crate's codecs (BMP, JPEG, PNG, PNM, TIFF, WebP; not JPEG 2000).

use std::io::Cursor;

use super::{dtype_mismatch, unsupported, KResult};
use crate::{Tensor, TensorData};

/// The channel layout of a decoded image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PixelFormat {
    /// Red, green, blue.
    Rgb,
    /// Blue, green, red.
    Bgr,
    /// One luma channel, `(19595 R + 38470 G + 7471 B + 2^15) >> 16` (the
    /// ITU-R 601 weights in Pillow's fixed point, as ONNX's reference
    /// converts).
    Grayscale,
}

/// The largest image (in decoded bytes) this decodes; a larger one is an
/// error rather than an allocation the machine may not have.
const MAX_DECODED_BYTES: u64 = 1 << 30;

/// Decodes `encoded` (a 1-D `ui8` tensor of a file's bytes) to
/// `[height, width, channels]` `ui8` pixels; bytes that do not decode give
/// `[0, 0, channels]`, as ONNX asks. JPEG 2000, which ONNX lists but this
/// decoder lacks, is an `Unsupported` error.
pub fn image_decode(encoded: &Tensor, format: PixelFormat) -> KResult<Tensor> {
    let TensorData::U8(bytes) = encoded.data() else {
        return Err(dtype_mismatch(
            "image_decode",
            format!("the encoded bytes must be ui8, got {}", encoded.dtype()),
        ));
    };
    let channels = if format == PixelFormat::Grayscale {
        1
    } else {
        3
    };
    if is_jpeg2000(bytes) {
        return Err(unsupported(
            "image_decode",
            "JPEG 2000 images are not supported (strata has no codec for them)",
        ));
    }
    let Some(image) = decode(bytes)? else {
        return Ok(Tensor::from_parts(
            vec![0, 0, channels],
            TensorData::U8(Vec::new()),
        ));
    };
    let (width, height) = (image.width() as usize, image.height() as usize);
    let pixels_bytes = (width as u64) * (height as u64) * 3;
    if pixels_bytes > MAX_DECODED_BYTES {
        return Err(unsupported(
            "image_decode",
            format!("a {width}x{height} image is larger than {MAX_DECODED_BYTES} bytes of pixels"),
        ));
    }
    let rgb = image.to_rgb8().into_raw();
    let pixels: Vec<u8> = match format {
        PixelFormat::Rgb => rgb,
        PixelFormat::Bgr => rgb
            .chunks_exact(3)
            .flat_map(|p| [p[2], p[1], p[0]])
            .collect(),
        PixelFormat::Grayscale => rgb
            .chunks_exact(3)
            .map(|p| {
                let l = 19595 * u32::from(p[0]) + 38470 * u32::from(p[1]) + 7471 * u32::from(p[2]);
                ((l + 0x8000) >> 16) as u8
            })
            .collect(),
    };
    Ok(Tensor::from_parts(
        vec![height, width, channels],
        TensorData::U8(pixels),
    ))
}

/// Whether `bytes` start as a JPEG 2000 file (a JP2 signature box) or
/// codestream (SOC then SIZ markers): a format ONNX lists that this
/// decoder lacks, an error rather than the empty image of bytes that are
/// no image.
fn is_jpeg2000(bytes: &[u8]) -> bool {
    const JP2: [u8; 12] = [
        0, 0, 0, 0x0c, b'j', b'P', b' ', b' ', 0x0d, 0x0a, 0x87, 0x0a,
    ];
    bytes.starts_with(&JP2) || bytes.starts_with(&[0xff, 0x4f, 0xff, 0x51])
}

/// The decoded image: `None` when the bytes are no image of the formats
/// here; an error when one is larger than the size limit.
fn decode(bytes: &[u8]) -> KResult<Option<image::DynamicImage>> {
    let Ok(mut reader) = image::ImageReader::new(Cursor::new(bytes)).with_guessed_format() else {
        return Ok(None);
    };
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(MAX_DECODED_BYTES);
    reader.limits(limits);
    match reader.decode() {
        Ok(image) => Ok(Some(image)),
        Err(image::ImageError::Limits(e)) => Err(unsupported(
            "image_decode",
            format!("the image is larger than this decoder's limit: {e}"),
        )),
        Err(_) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2x1 PPM (P6): red, then blue.
    fn ppm() -> Tensor {
        let mut bytes = b"P6\n2 1\n255\n".to_vec();
        bytes.extend([255, 0, 0, 0, 0, 255]);
        Tensor::from_parts(vec![bytes.len()], TensorData::U8(bytes))
    }

    #[test]
    fn decodes_in_each_pixel_format() {
        let rgb = image_decode(&ppm(), PixelFormat::Rgb).unwrap();
        assert_eq!(rgb.shape(), [1, 2, 3]);
        assert_eq!(rgb.to_i64_vec(), [255, 0, 0, 0, 0, 255]);
        let bgr = image_decode(&ppm(), PixelFormat::Bgr).unwrap();
        assert_eq!(bgr.to_i64_vec(), [0, 0, 255, 255, 0, 0]);
        let gray = image_decode(&ppm(), PixelFormat::Grayscale).unwrap();
        assert_eq!(gray.shape(), [1, 2, 1]);
        // 19595 * 255 / 2^16 and 7471 * 255 / 2^16, rounded.
        assert_eq!(gray.to_i64_vec(), [76, 29]);
    }

    #[test]
    fn jpeg2000_is_refused() {
        let mut bytes = vec![
            0, 0, 0, 0x0c, b'j', b'P', b' ', b' ', 0x0d, 0x0a, 0x87, 0x0a,
        ];
        bytes.extend([0; 8]);
        let jp2 = Tensor::from_parts(vec![bytes.len()], TensorData::U8(bytes));
        let e = image_decode(&jp2, PixelFormat::Rgb).unwrap_err();
        assert!(
            e.to_string().contains("JPEG 2000 images are not supported"),
            "{e}"
        );
    }

    #[test]
    fn bytes_that_do_not_decode_give_an_empty_image() {
        let junk = Tensor::from_parts(vec![4], TensorData::U8(vec![1, 2, 3, 4]));
        let out = image_decode(&junk, PixelFormat::Rgb).unwrap();
        assert_eq!(out.shape(), [0, 0, 3]);
    }
}
