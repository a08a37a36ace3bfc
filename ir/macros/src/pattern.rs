//! `pattern!`: one-line rewrites, in the spirit of MLIR's DRR.
//!
//! ```ignore
//! pattern! {
//!     /// `extsi(extui(x))` is `extui(x)`.
//!     pub(crate) ExtSIOfExtUI: (ExtSIOp (ExtUIOp $x)) => (ExtUIOp $x);
//!
//!     TruncIExtSIToExtSI: (TruncIOp (ExtSIOp $x)) => (ExtSIOp $x)
//!         if narrower(ctx, x, root);
//! }
//! ```
//!
//! Each rule becomes a unit struct implementing `RewritePattern` under its
//! own name. Grammar:
//!
//! ```text
//! rule     := attrs vis Name ':' match '=>' result ('if' rust-expr)? ';'
//! match    := '(' op attrs? arg* ')'
//! arg      := '$'x           bind the operand (again: must be the same value)
//!           | '_'            any operand
//!           | '(' 'const' '$'c ')'   a constant operand, its attribute bound to c
//!           | match          an operand defined by that op
//! attrs    := '{' name ':' '$'a '?'? , ... '}'   bind inherent attributes
//!                                                 (`?`: optional, an Option)
//! result   := '$'x | '(' op rattrs? result* (':' '$'x)? ')'
//! rattrs   := '{' name ':' ('$'a | '{' rust-expr '}') , ... '}'
//! op       := a path to an op type (its `NAME`) or a string literal
//! ```
//!
//! The condition sees `ctx: &Context`, `root: Operation` and the bindings
//! (values as `Value`, constants and attributes as `Attribute`); an
//! attribute expression sees `ctx: &mut Context` and gives an
//! `Option<Attribute>` (`None`: the pattern does not apply). New ops take
//! the root's result type unless `: $x` gives `x`'s, and the declared
//! defaults of the attributes not given.

use proc_macro2::{Delimiter, Span, TokenStream as TokenStream2, TokenTree};
use quote::{format_ident, quote, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Ident, LitStr, Path, Token, Visibility};

enum OpRef {
    Path(Path),
    Name(LitStr),
}

impl OpRef {
    fn name_tokens(&self) -> TokenStream2 {
        match self {
            OpRef::Path(p) => quote!(<#p>::NAME),
            OpRef::Name(s) => quote!(#s),
        }
    }
}

impl Parse for OpRef {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(LitStr) {
            Ok(OpRef::Name(input.parse()?))
        } else {
            Ok(OpRef::Path(Path::parse_mod_style(input)?))
        }
    }
}

struct AttrBind {
    name: Ident,
    var: Ident,
    optional: bool,
}

enum MatchArg {
    Bind(Ident),
    Any,
    Const(Ident),
    Op(MatchOp),
}

struct MatchOp {
    op: OpRef,
    attrs: Vec<AttrBind>,
    args: Vec<MatchArg>,
}

enum AttrValue {
    Bound(Ident),
    Native(TokenStream2),
}

enum Result_ {
    Value(Ident),
    Op(ResultOp),
}

struct ResultOp {
    op: OpRef,
    attrs: Vec<(Ident, AttrValue)>,
    args: Vec<Result_>,
    ty: Option<Ident>,
}

struct Rule {
    attrs: Vec<Attribute>,
    vis: Visibility,
    name: Ident,
    root: MatchOp,
    result: Result_,
    condition: Option<TokenStream2>,
}

pub(crate) struct Rules(Vec<Rule>);

fn parse_var(input: ParseStream) -> syn::Result<Ident> {
    input.parse::<Token![$]>()?;
    input.parse()
}

impl Parse for MatchOp {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let content;
        syn::parenthesized!(content in input);
        let op: OpRef = content.parse()?;
        let mut attrs = Vec::new();
        if content.peek(syn::token::Brace) {
            let inner;
            syn::braced!(inner in content);
            while !inner.is_empty() {
                let name: Ident = inner.parse()?;
                inner.parse::<Token![:]>()?;
                let var = parse_var(&inner)?;
                let optional = inner.parse::<Option<Token![?]>>()?.is_some();
                attrs.push(AttrBind {
                    name,
                    var,
                    optional,
                });
                if inner.is_empty() {
                    break;
                }
                inner.parse::<Token![,]>()?;
            }
        }
        let mut args = Vec::new();
        while !content.is_empty() {
            args.push(if content.peek(Token![$]) {
                MatchArg::Bind(parse_var(&content)?)
            } else if content.peek(Token![_]) {
                content.parse::<Token![_]>()?;
                MatchArg::Any
            } else if content.peek(syn::token::Paren) {
                let fork = content.fork();
                let inner;
                syn::parenthesized!(inner in fork);
                if inner.peek(Token![const]) {
                    let inner;
                    syn::parenthesized!(inner in content);
                    inner.parse::<Token![const]>()?;
                    let var = parse_var(&inner)?;
                    if !inner.is_empty() {
                        return Err(inner.error("expected `(const $name)`"));
                    }
                    MatchArg::Const(var)
                } else {
                    MatchArg::Op(content.parse()?)
                }
            } else {
                return Err(content.error("expected `$name`, `_`, `(const $name)` or `(op ...)`"));
            });
        }
        Ok(MatchOp { op, attrs, args })
    }
}

impl Parse for Result_ {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(Token![$]) {
            return Ok(Result_::Value(parse_var(input)?));
        }
        let content;
        syn::parenthesized!(content in input);
        let op: OpRef = content.parse()?;
        let mut attrs = Vec::new();
        if content.peek(syn::token::Brace) {
            let inner;
            syn::braced!(inner in content);
            while !inner.is_empty() {
                let name: Ident = inner.parse()?;
                inner.parse::<Token![:]>()?;
                let value = if inner.peek(Token![$]) {
                    AttrValue::Bound(parse_var(&inner)?)
                } else if inner.peek(syn::token::Brace) {
                    let expr;
                    syn::braced!(expr in inner);
                    AttrValue::Native(expr.parse()?)
                } else {
                    return Err(inner.error("expected `$name` or `{ expression }`"));
                };
                attrs.push((name, value));
                if inner.is_empty() {
                    break;
                }
                inner.parse::<Token![,]>()?;
            }
        }
        let mut args = Vec::new();
        let mut ty = None;
        while !content.is_empty() {
            if content.peek(Token![:]) {
                content.parse::<Token![:]>()?;
                ty = Some(parse_var(&content)?);
                if !content.is_empty() {
                    return Err(content.error("the result type `: $name` comes last"));
                }
                break;
            }
            args.push(content.parse()?);
        }
        Ok(Result_::Op(ResultOp {
            op,
            attrs,
            args,
            ty,
        }))
    }
}

impl Parse for Rules {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut rules = Vec::new();
        while !input.is_empty() {
            let attrs = input.call(Attribute::parse_outer)?;
            let vis: Visibility = input.parse()?;
            let name: Ident = input.parse()?;
            input.parse::<Token![:]>()?;
            let root: MatchOp = input.parse()?;
            input.parse::<Token![=>]>()?;
            let result: Result_ = input.parse()?;
            let condition = if input.peek(Token![if]) {
                input.parse::<Token![if]>()?;
                let mut tokens = TokenStream2::new();
                while !input.is_empty() && !input.peek(Token![;]) {
                    let tt: TokenTree = input.parse()?;
                    tokens.extend(std::iter::once(tt));
                }
                if tokens.is_empty() {
                    return Err(input.error("expected a condition after `if`"));
                }
                Some(tokens)
            } else {
                None
            };
            if !input.is_empty() {
                input.parse::<Token![;]>()?;
            }
            rules.push(Rule {
                attrs,
                vis,
                name,
                root,
                result,
                condition,
            });
        }
        Ok(Rules(rules))
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Value,
    Attr,
    OptAttr,
}

struct Gen {
    binds: Vec<(String, Kind)>,
    /// Phase 1: structural matching (with `ctx: &Context`).
    matching: Vec<TokenStream2>,
    /// Constant operands to look up: (binding, operand value).
    constants: Vec<(Ident, Ident)>,
    /// Attribute expressions to evaluate before creating anything.
    natives: Vec<TokenStream2>,
    /// Ops to create, innermost first.
    creates: Vec<TokenStream2>,
    counter: usize,
}

impl Gen {
    fn fresh(&mut self, prefix: &str) -> Ident {
        self.counter += 1;
        format_ident!("__{}{}", prefix, self.counter)
    }

    fn kind(&self, var: &Ident) -> Option<Kind> {
        let name = var.to_string();
        self.binds.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
    }

    fn bind(&mut self, var: &Ident, kind: Kind) -> syn::Result<()> {
        if self.kind(var).is_some() {
            return Err(syn::Error::new_spanned(
                var,
                format!("`${var}` is bound twice"),
            ));
        }
        self.binds.push((var.to_string(), kind));
        Ok(())
    }

    fn expect(&self, var: &Ident, kinds: &[Kind], what: &str) -> syn::Result<Kind> {
        match self.kind(var) {
            Some(k) if kinds.contains(&k) => Ok(k),
            Some(_) => Err(syn::Error::new_spanned(
                var,
                format!("`${var}` is not {what}"),
            )),
            None => Err(syn::Error::new_spanned(
                var,
                format!("`${var}` is not bound by the match"),
            )),
        }
    }

    fn match_op(&mut self, op: &Ident, m: &MatchOp) -> syn::Result<()> {
        let krate = quote!(::strata_ir);
        let n = m.args.len();
        self.matching.push(quote! {
            if ctx.num_operands(#op) != #n {
                return false;
            }
        });
        for bind in &m.attrs {
            let (var, key) = (&bind.var, bind.name.to_string());
            if bind.optional {
                self.bind(var, Kind::OptAttr)?;
                self.matching.push(quote! {
                    let #var: Option<#krate::Attribute> = #krate::ods::inherent_attr(ctx, #op, #key);
                });
            } else {
                self.bind(var, Kind::Attr)?;
                self.matching.push(quote! {
                    let Some(#var) = #krate::ods::inherent_attr(ctx, #op, #key) else {
                        return false;
                    };
                });
            }
        }
        for (i, arg) in m.args.iter().enumerate() {
            match arg {
                MatchArg::Any => {}
                MatchArg::Bind(var) => match self.kind(var) {
                    None => {
                        self.bind(var, Kind::Value)?;
                        self.matching
                            .push(quote!(let #var: #krate::Value = ctx.operand(#op, #i);));
                    }
                    Some(Kind::Value) => self.matching.push(quote! {
                        if ctx.operand(#op, #i) != #var {
                            return false;
                        }
                    }),
                    Some(_) => {
                        return Err(syn::Error::new_spanned(
                            var,
                            format!("`${var}` is bound to an attribute"),
                        ))
                    }
                },
                MatchArg::Const(var) => {
                    self.bind(var, Kind::Attr)?;
                    let value = self.fresh("value");
                    self.matching
                        .push(quote!(let #value: #krate::Value = ctx.operand(#op, #i);));
                    self.constants.push((var.clone(), value));
                }
                MatchArg::Op(inner) => {
                    let def = self.fresh("op");
                    let name = inner.op.name_tokens();
                    self.matching.push(quote! {
                        let Some(#def) = #krate::rewrite::declarative::defining_op_named(
                            ctx, ctx.operand(#op, #i), #name,
                        ) else {
                            return false;
                        };
                    });
                    self.match_op(&def, inner)?;
                }
            }
        }
        Ok(())
    }

    /// The value of `result`, creating its ops (innermost first).
    fn result(&mut self, result: &Result_) -> syn::Result<TokenStream2> {
        let krate = quote!(::strata_ir);
        match result {
            Result_::Value(var) => {
                self.expect(var, &[Kind::Value], "a value")?;
                Ok(quote!(#var))
            }
            Result_::Op(r) => {
                let mut operands = Vec::new();
                for arg in &r.args {
                    operands.push(self.result(arg)?);
                }
                let mut props = Vec::new();
                for (key, value) in &r.attrs {
                    let key = key.to_string();
                    match value {
                        AttrValue::Bound(var) => {
                            let kind =
                                self.expect(var, &[Kind::Attr, Kind::OptAttr], "an attribute")?;
                            props.push(if kind == Kind::Attr {
                                quote!((#key, Some(#var)))
                            } else {
                                quote!((#key, #var))
                            });
                        }
                        AttrValue::Native(expr) => {
                            let var = self.fresh("attr");
                            self.natives.push(quote! {
                                let #var: Option<#krate::Attribute> = {
                                    let ctx: &mut #krate::Context = rewriter.ctx_mut();
                                    #expr
                                };
                                let Some(#var) = #var else {
                                    return false;
                                };
                            });
                            props.push(quote!((#key, Some(#var))));
                        }
                    }
                }
                let ty = match &r.ty {
                    None => quote!(__root_type),
                    Some(var) => {
                        self.expect(var, &[Kind::Value], "a value")?;
                        quote!(rewriter.ctx().value_type(#var))
                    }
                };
                let name = r.op.name_tokens();
                let value = self.fresh("new");
                let ty_var = self.fresh("type");
                self.creates.push(quote! {
                    let #ty_var = #ty;
                    let #value = #krate::rewrite::declarative::create_op(
                        rewriter, #name, __loc, &[#(#operands),*], #ty_var, &[#(#props),*],
                    );
                });
                Ok(quote!(#value))
            }
        }
    }
}

fn expand_rule(rule: &Rule) -> syn::Result<TokenStream2> {
    let krate = quote!(::strata_ir);
    let mut gen = Gen {
        binds: Vec::new(),
        matching: Vec::new(),
        constants: Vec::new(),
        natives: Vec::new(),
        creates: Vec::new(),
        counter: 0,
    };
    let root = Ident::new("root", Span::call_site());
    gen.match_op(&root, &rule.root)?;
    let value = gen.result(&rule.result)?;
    let Gen {
        matching,
        constants,
        natives,
        creates,
        ..
    } = gen;
    let constants = constants.iter().map(|(var, value)| {
        quote! {
            let Some(#var) = #krate::rewrite::constant_value(rewriter.ctx_mut(), #value) else {
                return false;
            };
        }
    });
    let condition = rule.condition.as_ref().map(|cond| {
        quote! {
            {
                let ctx: &#krate::Context = rewriter.ctx();
                if !(#cond) {
                    return false;
                }
            }
        }
    });
    let (attrs, vis, name) = (&rule.attrs, &rule.vis, &rule.name);
    let root_name = rule.root.op.name_tokens();
    let label = name.to_string();
    let doc = if attrs.iter().any(|a| a.path().is_ident("doc")) {
        quote!()
    } else {
        let text = format!("The `{label}` rewrite pattern.");
        quote!(#[doc = #text])
    };
    let text = rule_text(rule);
    let text_doc = format!("\n\n`{text}`");
    Ok(quote! {
        #(#attrs)*
        #doc
        #[doc = #text_doc]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #name;

        impl #krate::rewrite::RewritePattern for #name {
            fn root_name(&self) -> Option<&str> {
                Some(#root_name)
            }

            fn name(&self) -> &str {
                #label
            }

            #[allow(unused_variables, clippy::needless_borrow)]
            fn match_and_rewrite(
                &self,
                root: #krate::Operation,
                rewriter: &mut #krate::rewrite::PatternRewriter<'_>,
            ) -> bool {
                let ctx: &#krate::Context = rewriter.ctx();
                if ctx.op_name_str(root) != #root_name || ctx.num_results(root) != 1 {
                    return false;
                }
                #(#matching)*
                #(#constants)*
                #condition
                #(#natives)*
                let __loc = rewriter.ctx().op_loc(root);
                let __root_type = {
                    let ctx = rewriter.ctx();
                    ctx.value_type(ctx.result(root, 0))
                };
                #(#creates)*
                rewriter.replace_op(root, &[#value]);
                true
            }
        }
    })
}

/// The rule as written (for its documentation).
fn rule_text(rule: &Rule) -> String {
    fn squash(tokens: TokenStream2) -> String {
        let text = tokens.to_string();
        text.replace("$ ", "$")
            .replace("( ", "(")
            .replace(" )", ")")
            .replace(" ?", "?")
            .replace(" :", ":")
            .replace("{ ", "{")
            .replace(" }", "}")
            .replace(" ,", ",")
    }
    let mut tokens = TokenStream2::new();
    match_tokens(&rule.root, &mut tokens);
    let mut out = squash(tokens);
    out.push_str(" => ");
    let mut tokens = TokenStream2::new();
    result_tokens(&rule.result, &mut tokens);
    out.push_str(&squash(tokens));
    if let Some(cond) = &rule.condition {
        out.push_str(" if ");
        out.push_str(&squash(cond.clone()));
    }
    out
}

fn op_tokens(op: &OpRef, out: &mut TokenStream2) {
    match op {
        OpRef::Path(p) => p.to_tokens(out),
        OpRef::Name(s) => s.to_tokens(out),
    }
}

fn group(delimiter: Delimiter, inner: TokenStream2, out: &mut TokenStream2) {
    out.extend(std::iter::once(TokenTree::Group(proc_macro2::Group::new(
        delimiter, inner,
    ))));
}

fn match_tokens(m: &MatchOp, out: &mut TokenStream2) {
    let mut inner = TokenStream2::new();
    op_tokens(&m.op, &mut inner);
    if !m.attrs.is_empty() {
        let binds = m.attrs.iter().map(|b| {
            let (name, var) = (&b.name, &b.var);
            if b.optional {
                quote!(#name: $#var?)
            } else {
                quote!(#name: $#var)
            }
        });
        group(Delimiter::Brace, quote!(#(#binds),*), &mut inner);
    }
    for arg in &m.args {
        match arg {
            MatchArg::Bind(v) => inner.extend(quote!($#v)),
            MatchArg::Any => inner.extend(quote!(_)),
            MatchArg::Const(v) => group(Delimiter::Parenthesis, quote!(const $#v), &mut inner),
            MatchArg::Op(m) => match_tokens(m, &mut inner),
        }
    }
    group(Delimiter::Parenthesis, inner, out);
}

fn result_tokens(r: &Result_, out: &mut TokenStream2) {
    match r {
        Result_::Value(v) => out.extend(quote!($#v)),
        Result_::Op(r) => {
            let mut inner = TokenStream2::new();
            op_tokens(&r.op, &mut inner);
            if !r.attrs.is_empty() {
                let attrs = r.attrs.iter().map(|(name, value)| match value {
                    AttrValue::Bound(v) => quote!(#name: $#v),
                    AttrValue::Native(e) => quote!(#name: { #e }),
                });
                group(Delimiter::Brace, quote!(#(#attrs),*), &mut inner);
            }
            for arg in &r.args {
                result_tokens(arg, &mut inner);
            }
            if let Some(ty) = &r.ty {
                inner.extend(quote!(: $#ty));
            }
            group(Delimiter::Parenthesis, inner, out);
        }
    }
}

pub(crate) fn expand(rules: Rules) -> syn::Result<TokenStream2> {
    let mut out = TokenStream2::new();
    for rule in &rules.0 {
        out.extend(expand_rule(rule)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> syn::Result<Rules> {
        syn::parse_str(text)
    }

    #[test]
    fn rules_parse_and_document_themselves() {
        let parsed = rules(
            "/// Doc.\npub(crate) A: (X {f: $f?} $a (Y $b (const $c)) _) => (Z {f: $f, g: {g(ctx)}} $a (W $b : $a)) if ok(ctx, c);\nB: (\"t.x\" $y) => $y",
        )
        .expect("parses");
        assert_eq!(parsed.0.len(), 2);
        assert_eq!(
            rule_text(&parsed.0[0]),
            "(X {f: $f?} $a (Y $b (const $c)) _) => (Z {f: $f, g: {g (ctx)}} $a (W $b: $a)) if ok (ctx, c)"
        );
        assert_eq!(rule_text(&parsed.0[1]), "(\"t.x\" $y) => $y");
        assert!(expand(parsed).is_ok());
    }

    #[test]
    fn bad_rules_are_compile_errors() {
        let error = |text: &str| match rules(text).and_then(expand) {
            Ok(_) => String::from("no error"),
            Err(e) => e.to_string(),
        };
        assert_eq!(error("A: (X $a) => $b"), "`$b` is not bound by the match");
        assert_eq!(error("A: (X (const $c)) => $c"), "`$c` is not a value");
        assert_eq!(
            error("A: (X {f: $f} $f) => $f"),
            "`$f` is bound to an attribute"
        );
        assert_eq!(
            error("A: (X (const $c) (const $c)) => (Y)"),
            "`$c` is bound twice"
        );
        assert_eq!(
            error("A: (X $a) => (Y {f: $a} $a)"),
            "`$a` is not an attribute"
        );
        assert!(error("A: (X $a) => (Y $a : $a $a)").contains("comes last"));
        assert!(error("A: (X 3) => $a").contains("expected `$name`"));
    }
}
