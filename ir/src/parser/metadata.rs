//! Parsing the file metadata section (`{-# dialect_resources: ... #-}`).

use super::lexer::Tok;
use super::{unescape, PResult, Parser};

impl Parser<'_> {
    /// `{-# dialect_resources: { builtin: { key: "0x..." } } #-}`
    pub(super) fn parse_file_metadata(&mut self) -> PResult<()> {
        self.bump();
        if self.consume_if(Tok::FileMetadataEnd) {
            return Ok(());
        }
        loop {
            let key_pos = self.tok.start;
            if !self.is(Tok::BareId) {
                return Err(self.error_here("expected identifier key in file metadata dictionary"));
            }
            let key = self.spelling();
            self.bump();
            self.expect(Tok::Colon, "':'")?;
            match key {
                "dialect_resources" => self.parse_dialect_resources()?,
                "external_resources" => self.parse_external_resources()?,
                _ => {
                    return Err(self.error_at(
                        key_pos,
                        format!("unknown key '{key}' in file metadata dictionary"),
                    ));
                }
            }
            if !self.consume_if(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::FileMetadataEnd, "',' or '#-}'")
    }

    fn parse_dialect_resources(&mut self) -> PResult<()> {
        self.expect(Tok::LBrace, "'{'")?;
        if self.consume_if(Tok::RBrace) {
            return Ok(());
        }
        loop {
            let name_pos = self.tok.start;
            if !self.is(Tok::BareId) {
                return Err(self.error_here("expected identifier key for 'resource' entry"));
            }
            let dialect = self.spelling();
            self.bump();
            self.expect(Tok::Colon, "':'")?;
            self.expect(Tok::LBrace, "'{'")?;
            if dialect != "builtin" {
                return Err(self.error_at(name_pos, format!("dialect '{dialect}' is unknown")));
            }
            if !self.consume_if(Tok::RBrace) {
                loop {
                    let key = self.parse_resource_key()?;
                    self.expect(Tok::Colon, "':'")?;
                    let blob = self.parse_resource_blob(&key)?;
                    let key = self.ctx.ident(&key);
                    self.ctx.set_resource_blob(key, blob);
                    if !self.consume_if(Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RBrace, "',' or '}'")?;
            }
            if !self.consume_if(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RBrace, "',' or '}'")
    }

    /// `{ group: { key: value, ... }, ... }`: kept and printed back, as MLIR's
    /// fallback resource map does for groups without a handler.
    fn parse_external_resources(&mut self) -> PResult<()> {
        self.expect(Tok::LBrace, "'{'")?;
        if self.consume_if(Tok::RBrace) {
            return Ok(());
        }
        loop {
            if !self.is(Tok::BareId) {
                return Err(self.error_here("expected identifier key for 'resource' entry"));
            }
            let group = self.spelling().to_string();
            self.bump();
            self.expect(Tok::Colon, "':'")?;
            self.expect(Tok::LBrace, "'{'")?;
            if !self.consume_if(Tok::RBrace) {
                loop {
                    let key = self.parse_resource_key()?;
                    self.expect(Tok::Colon, "':'")?;
                    let value =
                        if matches!(self.spelling(), "true" | "false") && self.is(Tok::BareId) {
                            let value = self.spelling() == "true";
                            self.bump();
                            crate::context::ResourceValue::Bool(value)
                        } else if self.spelling().starts_with("\"0x") {
                            crate::context::ResourceValue::Blob(self.parse_resource_blob(&key)?)
                        } else if self.is(Tok::String) {
                            let value = unescape(self.spelling());
                            self.bump();
                            crate::context::ResourceValue::String(value)
                        } else {
                            return Err(
                                self.error_here(format!("expected string value for key '{key}'"))
                            );
                        };
                    self.ctx.set_external_resource(&group, &key, value);
                    if !self.consume_if(Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RBrace, "',' or '}'")?;
            }
            if !self.consume_if(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RBrace, "',' or '}'")
    }

    /// A resource key: a keyword or a string.
    pub(crate) fn parse_resource_key(&mut self) -> PResult<String> {
        let key = match self.tok.kind {
            Tok::BareId => self.spelling().to_string(),
            Tok::String => String::from_utf8_lossy(&unescape(self.spelling())).into_owned(),
            _ => return Err(self.error_here("expected identifier key for 'resource' entry")),
        };
        self.bump();
        Ok(key)
    }

    pub(super) fn parse_resource_blob(&mut self, key: &str) -> PResult<Vec<u8>> {
        let pos = self.tok.start;
        let spelling = self.spelling();
        let hex = (self.is(Tok::String) && spelling.starts_with("\"0x"))
            .then(|| &spelling[3..spelling.len() - 1])
            .filter(|h| h.len() % 2 == 0 && h.bytes().all(|b| b.is_ascii_hexdigit()));
        let Some(hex) = hex else {
            return Err(self.error_at(pos, format!("expected hex string blob for key '{key}'")));
        };
        let blob: Vec<u8> = hex
            .as_bytes()
            .chunks(2)
            .map(|p| {
                let d = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
                d(p[0]) * 16 + d(p[1])
            })
            .collect();
        self.bump();
        if blob.len() < 4 {
            return Err(self.error_at(
                pos,
                format!(
                    "expected hex string blob for key '{key}' to encode alignment in first 4 bytes"
                ),
            ));
        }
        let align = u32::from_le_bytes([blob[0], blob[1], blob[2], blob[3]]);
        if align != 0 && !align.is_power_of_two() {
            return Err(self.error_at(
                pos,
                format!(
                    "expected hex string blob for key '{key}' to encode alignment in first 4 bytes, but got non-power-of-2 value: {align}"
                ),
            ));
        }
        Ok(blob)
    }
}
