//! A POSIX extended regular expression engine with LLVM's syntax and error
//! messages (a port of the ERE half of LLVM's `regcomp.c`), for
//! `expected-*-re` directives. Matching is on bytes, with backtracking.

/// Unbounded repetition.
const INF: u32 = u32::MAX;

/// A node of a POSIX ERE as parsed by LLVM's `regcomp.c`.
enum Node {
    Set(Box<[bool; 256]>),
    Bol,
    Eol,
    Bow,
    Eow,
    Group(usize, Vec<Vec<Piece>>),
    Backref(usize),
}

/// A node with its repetition bounds.
struct Piece {
    node: Node,
    min: u32,
    max: u32,
}

/// A POSIX extended regex with LLVM's syntax and error messages, matched on bytes.
pub(super) struct Regex {
    alts: Vec<Vec<Piece>>,
    groups: usize,
}

fn byte_set(pred: impl Fn(u8) -> bool) -> Node {
    let mut set = Box::new([false; 256]);
    for b in 0..=255u8 {
        set[usize::from(b)] = pred(b);
    }
    Node::Set(set)
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

const EBRACK: &str = "brackets ([ ]) not balanced";
const EPAREN: &str = "parentheses not balanced";
const BADRPT: &str = "repetition-operator operand invalid";
const BADBR: &str = "invalid repetition count(s)";
const ERANGE: &str = "invalid character range";
const ECTYPE: &str = "invalid character class";
const ECOLLATE: &str = "invalid collating element";

/// Port of the ERE half of LLVM's `regcomp.c`: the first error wins.
struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    nsub: usize,
    closed: [bool; 10],
}

type PResult<T> = Result<T, &'static str>;

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn peek2(&self) -> Option<u8> {
        self.s.get(self.i + 1).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        self.i += usize::from(hit);
        hit
    }
    fn eat_two(&mut self, a: u8, b: u8) -> bool {
        let hit = self.peek() == Some(a) && self.peek2() == Some(b);
        self.i += 2 * usize::from(hit);
        hit
    }
    fn next(&mut self) -> PResult<u8> {
        let c = self.peek().ok_or(EBRACK)?;
        self.i += 1;
        Ok(c)
    }

    fn ere(&mut self, stop: Option<u8>) -> PResult<Vec<Vec<Piece>>> {
        let mut alts = Vec::new();
        loop {
            let mut seq = Vec::new();
            while let Some(c) = self.peek().filter(|&c| c != b'|' && Some(c) != stop) {
                seq.push(self.piece(c)?);
            }
            if seq.iter().all(|p| p.max == 0) {
                return Err("empty (sub)expression");
            }
            alts.push(seq);
            if !self.eat(b'|') {
                return Ok(alts);
            }
        }
    }

    fn is_rep(&self) -> bool {
        matches!(self.peek(), Some(b'*' | b'+' | b'?'))
            || (self.peek() == Some(b'{') && self.peek2().is_some_and(|c| c.is_ascii_digit()))
    }

    fn piece(&mut self, c: u8) -> PResult<Piece> {
        self.i += 1;
        let node = match c {
            b'(' => {
                if self.peek().is_none() {
                    return Err(EPAREN);
                }
                self.nsub += 1;
                let n = self.nsub;
                let alts = if self.peek() == Some(b')') {
                    vec![Vec::new()]
                } else {
                    self.ere(Some(b')'))?
                };
                if n < 10 {
                    self.closed[n] = true;
                }
                if !self.eat(b')') {
                    return Err(EPAREN);
                }
                Node::Group(n, alts)
            }
            b')' => return Err(EPAREN),
            b'^' => Node::Bol,
            b'$' => Node::Eol,
            b'*' | b'+' | b'?' => return Err(BADRPT),
            b'.' => byte_set(|_| true),
            b'[' => self.bracket()?,
            b'\\' => {
                let c = self.peek().ok_or("trailing backslash (\\)")?;
                self.i += 1;
                if (b'1'..=b'9').contains(&c) {
                    let n = usize::from(c - b'0');
                    if !self.closed[n] {
                        return Err("invalid backreference number");
                    }
                    Node::Backref(n)
                } else {
                    byte_set(|b| b == c)
                }
            }
            b'{' if self.peek().is_some_and(|c| c.is_ascii_digit()) => return Err(BADRPT),
            _ => byte_set(|b| b == c),
        };
        if !self.is_rep() {
            return Ok(Piece {
                node,
                min: 1,
                max: 1,
            });
        }
        let op = self.next()?;
        if matches!(node, Node::Bol) {
            return Err(BADRPT);
        }
        let (min, max) = match op {
            b'*' => (0, INF),
            b'+' => (1, INF),
            b'?' => (0, 1),
            _ => {
                let min = self.count()?;
                let max = if self.eat(b',') {
                    if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        let max = self.count()?;
                        if min > max {
                            return Err(BADBR);
                        }
                        max
                    } else {
                        INF
                    }
                } else {
                    min
                };
                if !self.eat(b'}') {
                    while self.peek().is_some_and(|c| c != b'}') {
                        self.i += 1;
                    }
                    return Err(if self.peek().is_none() {
                        "braces not balanced"
                    } else {
                        BADBR
                    });
                }
                (min, max)
            }
        };
        if self.is_rep() {
            return Err(BADRPT);
        }
        Ok(Piece { node, min, max })
    }

    fn count(&mut self) -> PResult<u32> {
        let (mut count, mut digits) = (0u32, 0);
        while let Some(c) = self.peek().filter(|c| c.is_ascii_digit() && count <= 255) {
            count = count * 10 + u32::from(c - b'0');
            digits += 1;
            self.i += 1;
        }
        if digits == 0 || count > 255 {
            return Err(BADBR);
        }
        Ok(count)
    }

    fn bracket(&mut self) -> PResult<Node> {
        let rest = &self.s[self.i..];
        if rest.len() > 5 && (rest.starts_with(b"[:<:]]") || rest.starts_with(b"[:>:]]")) {
            self.i += 6;
            return Ok(if rest[2] == b'<' {
                Node::Bow
            } else {
                Node::Eow
            });
        }
        let mut set = Box::new([false; 256]);
        let invert = self.eat(b'^');
        if self.eat(b']') {
            set[usize::from(b']')] = true;
        } else if self.eat(b'-') {
            set[usize::from(b'-')] = true;
        }
        while self.peek().is_some_and(|c| c != b']')
            && !(self.peek() == Some(b'-') && self.peek2() == Some(b']'))
        {
            self.term(&mut set)?;
        }
        if self.eat(b'-') {
            set[usize::from(b'-')] = true;
        }
        if self.next()? != b']' {
            return Err(EBRACK);
        }
        if invert {
            set.iter_mut().for_each(|b| *b = !*b);
        }
        Ok(Node::Set(set))
    }

    fn term(&mut self, set: &mut [bool; 256]) -> PResult<()> {
        let kind = match self.peek() {
            Some(b'[') => self.peek2(),
            Some(b'-') => return Err(ERANGE),
            _ => None,
        };
        match kind {
            Some(b':') => {
                self.i += 2;
                if matches!(self.peek().ok_or(EBRACK)?, b'-' | b']') {
                    return Err(ECTYPE);
                }
                let start = self.i;
                while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                    self.i += 1;
                }
                let pred: fn(u8) -> bool = match &self.s[start..self.i] {
                    b"alnum" => |b| b.is_ascii_alphanumeric(),
                    b"alpha" => |b| b.is_ascii_alphabetic(),
                    b"blank" => |b| b == b' ' || b == b'\t',
                    b"cntrl" => |b| (1..32).contains(&b) || b == 127,
                    b"digit" => |b| b.is_ascii_digit(),
                    b"graph" => |b| b.is_ascii_graphic(),
                    b"lower" => |b| b.is_ascii_lowercase(),
                    b"print" => |b| b.is_ascii_graphic() || b == b' ',
                    b"punct" => |b| b.is_ascii_punctuation(),
                    b"space" => |b| b"\t\n\x0b\x0c\r ".contains(&b),
                    b"upper" => |b| b.is_ascii_uppercase(),
                    b"xdigit" => |b| b.is_ascii_hexdigit(),
                    _ => return Err(ECTYPE),
                };
                (0..=255u8)
                    .filter(|&b| pred(b))
                    .for_each(|b| set[usize::from(b)] = true);
                self.peek().ok_or(EBRACK)?;
                if !self.eat_two(b':', b']') {
                    return Err(ECTYPE);
                }
            }
            Some(b'=') => {
                self.i += 2;
                if matches!(self.peek().ok_or(EBRACK)?, b'-' | b']') {
                    return Err(ECOLLATE);
                }
                set[usize::from(self.coll_elem(b'=')?)] = true;
                self.peek().ok_or(EBRACK)?;
                if !self.eat_two(b'=', b']') {
                    return Err(ECOLLATE);
                }
            }
            _ => {
                let start = self.symbol()?;
                let finish = if self.peek() == Some(b'-') && self.peek2().is_some_and(|c| c != b']')
                {
                    self.i += 1;
                    if self.eat(b'-') {
                        b'-'
                    } else {
                        self.symbol()?
                    }
                } else {
                    start
                };
                // regcomp compares plain (signed) chars.
                let (lo, hi) = (start as i8, finish as i8);
                if lo > hi {
                    return Err(ERANGE);
                }
                (lo..=hi).for_each(|c| set[usize::from(c as u8)] = true);
            }
        }
        Ok(())
    }

    fn symbol(&mut self) -> PResult<u8> {
        if self.eat_two(b'[', b'.') {
            let c = self.coll_elem(b'.')?;
            return if self.eat_two(b'.', b']') {
                Ok(c)
            } else {
                Err(ECOLLATE)
            };
        }
        self.next()
    }

    /// Collating element names (`[.space.]`) are not supported, only single bytes.
    fn coll_elem(&mut self, end: u8) -> PResult<u8> {
        let start = self.i;
        while self.peek().is_some() && !(self.peek() == Some(end) && self.peek2() == Some(b']')) {
            self.i += 1;
        }
        self.peek().ok_or(EBRACK)?;
        match &self.s[start..self.i] {
            [c] => Ok(*c),
            _ => Err(ECOLLATE),
        }
    }
}

type Caps = Vec<Option<(usize, usize)>>;

impl Regex {
    pub(super) fn new(pattern: &str) -> Result<Regex, &'static str> {
        let mut p = Parser {
            s: pattern.as_bytes(),
            i: 0,
            nsub: 0,
            closed: [false; 10],
        };
        let alts = p.ere(None)?;
        Ok(Regex {
            alts,
            groups: p.nsub,
        })
    }

    pub(super) fn is_match(&self, s: &[u8]) -> bool {
        let mut caps: Caps = vec![None; self.groups + 1];
        (0..=s.len()).any(|start| alts(s, &self.alts, start, &mut caps, &mut |_, _| true))
    }
}

fn alts(
    s: &[u8],
    alts: &[Vec<Piece>],
    i: usize,
    caps: &mut Caps,
    k: &mut dyn FnMut(usize, &mut Caps) -> bool,
) -> bool {
    alts.iter().any(|alt| seq(s, alt, i, caps, k))
}

fn seq(
    s: &[u8],
    ps: &[Piece],
    i: usize,
    caps: &mut Caps,
    k: &mut dyn FnMut(usize, &mut Caps) -> bool,
) -> bool {
    match ps.split_first() {
        None => k(i, caps),
        Some((p, rest)) => {
            if let Node::Set(set) = &p.node {
                // Single-byte atoms repeat iteratively (greedy, then backtrack).
                let max = usize::try_from(p.max).unwrap_or(usize::MAX);
                let run = s[i..]
                    .iter()
                    .take(max)
                    .take_while(|&&b| set[usize::from(b)])
                    .count();
                let min = usize::try_from(p.min).unwrap_or(usize::MAX);
                return run >= min && (min..=run).rev().any(|n| seq(s, rest, i + n, caps, k));
            }
            repeat(s, p, 0, i, caps, &mut |j, c| seq(s, rest, j, c, k))
        }
    }
}

fn repeat(
    s: &[u8],
    p: &Piece,
    count: u32,
    i: usize,
    caps: &mut Caps,
    k: &mut dyn FnMut(usize, &mut Caps) -> bool,
) -> bool {
    if count < p.max
        && node(s, &p.node, i, caps, &mut |j, c| {
            (j != i || count < p.min) && repeat(s, p, count + 1, j, c, k)
        })
    {
        return true;
    }
    count >= p.min && k(i, caps)
}

fn node(
    s: &[u8],
    n: &Node,
    i: usize,
    caps: &mut Caps,
    k: &mut dyn FnMut(usize, &mut Caps) -> bool,
) -> bool {
    let word_before = i > 0 && is_word(s[i - 1]);
    let word_after = s.get(i).is_some_and(|&b| is_word(b));
    match n {
        Node::Set(set) => s.get(i).is_some_and(|&b| set[usize::from(b)]) && k(i + 1, caps),
        Node::Bol => i == 0 && k(i, caps),
        Node::Eol => i == s.len() && k(i, caps),
        Node::Bow => !word_before && word_after && k(i, caps),
        Node::Eow => word_before && !word_after && k(i, caps),
        Node::Group(g, body) => alts(s, body, i, caps, &mut |j, c| {
            let old = c[*g].replace((i, j));
            k(j, c) || {
                c[*g] = old;
                false
            }
        }),
        Node::Backref(g) => match caps.get(*g).copied().flatten() {
            Some((a, b)) => s[i..].starts_with(&s[a..b]) && k(i + (b - a), caps),
            None => false,
        },
    }
}
