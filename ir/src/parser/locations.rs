//! Parsing locations (mlir/lib/AsmParser/LocationParser.cpp).

use super::lexer::Tok;
use super::{unescape, PResult, Parser};
use crate::attributes::{AttrKind, LocKind};
use crate::context::Location;

impl Parser<'_> {
    // ----- locations -----

    /// The inside of `loc(...)`.
    pub(crate) fn parse_location_instance(&mut self) -> PResult<Location> {
        self.enter_nesting()?;
        let result = self.parse_location_instance_inner();
        self.depth -= 1;
        result
    }

    pub(crate) fn parse_location_instance_inner(&mut self) -> PResult<Location> {
        match self.tok.kind {
            Tok::HashId => {
                let start = self.tok.start;
                let attr = self.parse_extended_attr()?;
                if !self.ctx.is_location(attr) {
                    let printed = crate::printer::attribute_to_string(self.ctx, attr);
                    return Err(self.error_at(
                        start,
                        format!("expected location attribute, but got{printed}"),
                    ));
                }
                Ok(attr)
            }
            Tok::String => self.parse_name_or_file_loc(),
            Tok::BareId => match self.spelling() {
                "callsite" => self.parse_callsite_loc(),
                "fused" => self.parse_fused_loc(),
                "unknown" => {
                    self.bump();
                    Ok(self.ctx.unknown_loc())
                }
                _ => Err(self.wrong_token("expected location instance")),
            },
            _ => Err(self.wrong_token("expected location instance")),
        }
    }

    fn parse_location_number(&mut self, message: &str) -> PResult<u32> {
        if !self.is(Tok::Integer) {
            return Err(self.wrong_token(message));
        }
        let value = self
            .spelling()
            .parse::<u32>()
            .map_err(|_| self.error_here(message.to_string()))?;
        self.bump();
        Ok(value)
    }

    fn parse_name_or_file_loc(&mut self) -> PResult<Location> {
        let name = unescape(self.spelling());
        self.bump();
        if self.consume_if(Tok::Colon) {
            let line =
                self.parse_location_number("expected integer line number in FileLineColRange")?;
            if !self.consume_if(Tok::Colon) {
                return Ok(self.file_loc(name, line, 0, None));
            }
            let col =
                self.parse_location_number("expected integer column number in FileLineColRange")?;
            if !self.consume_keyword("to") {
                return Ok(self.file_loc(name, line, col, None));
            }
            let mut end_line = line;
            if self.is(Tok::Integer) {
                end_line =
                    self.parse_location_number("expected integer line number in FileLineColRange")?;
            }
            if !self.consume_if(Tok::Colon) {
                return Err(self
                    .wrong_token("expected either integer or `:` post `to` in FileLineColRange"));
            }
            let end_col =
                self.parse_location_number("expected integer column number in FileLineColRange")?;
            return Ok(self.file_loc(name, line, col, Some((end_line, end_col))));
        }
        let mut child = None;
        if self.consume_if(Tok::LParen) {
            let loc = self.parse_location_instance()?;
            self.expect(Tok::RParen, "')' after child location of NameLoc")?;
            if !matches!(
                self.ctx.attr_kind(loc),
                AttrKind::Location(LocKind::Unknown)
            ) {
                child = Some(loc);
            }
        }
        Ok(self.ctx.intern_attr(AttrKind::Location(LocKind::Name {
            name: name.into(),
            child,
        })))
    }

    fn file_loc(
        &mut self,
        file: Vec<u8>,
        line: u32,
        col: u32,
        end: Option<(u32, u32)>,
    ) -> Location {
        let end = end.filter(|&e| e != (line, col));
        // File names are interned strings; a name that is not UTF-8 is kept lossily.
        let file = self.ctx.ident(&String::from_utf8_lossy(&file));
        self.ctx
            .intern_attr(AttrKind::Location(LocKind::FileLineCol {
                file,
                line,
                col,
                end,
            }))
    }

    fn parse_callsite_loc(&mut self) -> PResult<Location> {
        self.bump();
        self.expect(Tok::LParen, "'(' in callsite location")?;
        let callee = self.parse_location_instance()?;
        self.expect_keyword("at", "expected 'at' in callsite location")?;
        let caller = self.parse_location_instance()?;
        self.expect(Tok::RParen, "')' in callsite location")?;
        Ok(self
            .ctx
            .intern_attr(AttrKind::Location(LocKind::CallSite { callee, caller })))
    }

    fn parse_fused_loc(&mut self) -> PResult<Location> {
        self.bump();
        let mut metadata = None;
        if self.consume_if(Tok::Less) {
            metadata = Some(self.parse_attribute(None)?);
            self.expect(Tok::Greater, "'>' after fused location metadata")?;
        }
        self.expect(Tok::LSquare, "'[' in fused location")?;
        let mut locs = Vec::new();
        if !self.consume_if(Tok::RSquare) {
            loop {
                locs.push(self.parse_location_instance()?);
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RSquare, "']' in fused location")?;
        }
        Ok(self.ctx.fused_loc(&locs, metadata))
    }
}
