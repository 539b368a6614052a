//! The tokens of a Semantics block, each at its line and column in the
//! document, with what C's lexical rules make of them (a leading `0` is
//! octal) and what the dialect adds: qualifiers written with their dot
//! (`.mode`, `.u32`), the slice dots `..`, and comments kept with their
//! place, since a trailing comment can say which variant a line is for.

use super::ast::{Comment, Pos};
use super::{Diagnostic, SourceLine};

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A C identifier or keyword: `a`, `if`, `u32`.
    Word,
    /// A qualifier or PTX type with its dot: `.mode`, `.u32`. After an
    /// expression and with no space before it, it is a member (`shf.dir`).
    Dotted,
    /// An integer constant as written, with its value.
    Int { value: u128 },
    /// A floating-point constant as written (`1.0f`).
    Float,
    /// An operator or punctuation mark.
    Punct,
}

/// One token: its kind, its text as written, where it starts, and whether
/// white space (or a line break) comes before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub text: String,
    pub pos: Pos,
    /// The position just after it, on its line.
    pub end: Pos,
    pub space_before: bool,
}

impl Token {
    pub fn is(&self, punct: &str) -> bool {
        self.kind == TokenKind::Punct && self.text == punct
    }
    pub fn is_word(&self, word: &str) -> bool {
        self.kind == TokenKind::Word && self.text == word
    }
}

/// C's operators and punctuation of three, two and one characters, longest
/// first, with the slice dots `..` of the dialect.
const PUNCT: &[&str] = &[
    "<<=", ">>=", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<",
    ">>", "->", "..", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=", "?", ":", ";", ",", "(", ")",
    "[", "]", "{", "}", ".",
];

/// The tokens and comments of some code lines; characters C has no use
/// for, a malformed constant and an unclosed comment are diagnostics.
pub fn lex(lines: &[SourceLine<'_>]) -> (Vec<Token>, Vec<Comment>, Vec<Diagnostic>) {
    let mut tokens = Vec::new();
    let mut comments: Vec<Comment> = Vec::new();
    let mut diagnostics = Vec::new();
    // An open `/* ...`: where it began, and its text so far.
    let mut open_comment: Option<(Pos, String)> = None;
    for line in lines {
        let chars: Vec<char> = line.text.chars().collect();
        let at = |k: usize| Pos { line: line.number, column: k + 1 };
        let mut k = 0;
        let mut space_before = true;
        while k < chars.len() {
            if let Some((start, mut text)) = open_comment.take() {
                let rest: String = chars[k..].iter().collect();
                match rest.find("*/") {
                    Some(close) => {
                        text.push_str(&rest[..close]);
                        comments.push(Comment { pos: start, text: words(&text) });
                        k += rest[..close].chars().count() + 2;
                        space_before = true;
                    }
                    None => {
                        text.push_str(&rest);
                        text.push(' ');
                        open_comment = Some((start, text));
                        k = chars.len();
                    }
                }
                continue;
            }
            let c = chars[k];
            if c.is_whitespace() {
                space_before = true;
                k += 1;
                continue;
            }
            let next = chars.get(k + 1).copied();
            if c == '/' && next == Some('/') {
                let text: String = chars[k + 2..].iter().collect();
                comments.push(Comment { pos: at(k), text: words(&text) });
                break;
            }
            if c == '/' && next == Some('*') {
                open_comment = Some((at(k), String::new()));
                k += 2;
                continue;
            }
            let start = k;
            let kind = if is_word_start(c) {
                k += 1 + chars[k + 1..].iter().take_while(|x| is_word_char(**x)).count();
                TokenKind::Word
            } else if c == '.' && next.is_some_and(is_word_start) {
                k += 2 + chars[k + 2..].iter().take_while(|x| is_word_char(**x)).count();
                TokenKind::Dotted
            } else if c.is_ascii_digit() {
                let (len, kind, problem) = number(&chars[k..]);
                if let Some(problem) = problem {
                    let text: String = chars[k..k + len].iter().collect();
                    diagnostics.push(Diagnostic::new(at(k), &text, "bad-constant", problem));
                }
                k += len;
                kind
            } else if let Some(p) = PUNCT.iter().find(|p| chars[k..].iter().take(p.len()).copied().eq(p.chars())) {
                k += p.len();
                TokenKind::Punct
            } else {
                diagnostics.push(Diagnostic::new(
                    at(k),
                    &c.to_string(),
                    "bad-character",
                    if c.is_control()
                        || ('\u{202a}'..='\u{202e}').contains(&c)
                        || ('\u{2066}'..='\u{2069}').contains(&c)
                    {
                        // Named, not written: it would act on the reader's terminal.
                        format!("U+{:04X} is not a character of C's syntax", c as u32)
                    } else {
                        format!("`{c}` is not a character of C's syntax")
                    },
                ));
                k += 1;
                space_before = true;
                continue;
            };
            let text: String = chars[start..k].iter().collect();
            tokens.push(Token { kind, text, pos: at(start), end: at(k), space_before });
            space_before = false;
        }
    }
    if let Some((start, text)) = open_comment {
        diagnostics.push(Diagnostic::new(
            start,
            "/*",
            "unclosed-comment",
            "a comment opened with `/*` is never closed",
        ));
        comments.push(Comment { pos: start, text: words(&text) });
    }
    (tokens, comments, diagnostics)
}

/// A comment's text with each run of white space one space (a comment over
/// several lines reads as one).
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn is_word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

pub fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A numeric constant at the start of `chars`: its length, its kind, and
/// what is wrong with it under C's rules, if anything. A run of letters
/// straight after the digits that is no suffix (`2n`) is not part of it:
/// the parser reads that as a product.
fn number(chars: &[char]) -> (usize, TokenKind, Option<String>) {
    let digits = |from: usize, ok: fn(char) -> bool| from + chars[from..].iter().take_while(|c| ok(**c)).count();
    let hex = chars.len() > 2 && chars[0] == '0' && matches!(chars[1], 'x' | 'X') && chars[2].is_ascii_hexdigit();
    if hex {
        let end = digits(2, |c| c.is_ascii_hexdigit());
        let text: String = chars[2..end].iter().collect();
        let end = suffix(chars, end);
        return match u128::from_str_radix(&text, 16) {
            Ok(value) => (end, TokenKind::Int { value }, None),
            Err(_) => (end, TokenKind::Int { value: 0 }, Some("the constant does not fit 128 bits".into())),
        };
    }
    let end = digits(0, |c| c.is_ascii_digit());
    // `1.0`, `1.0f`: a fraction (but not `1..2`, the slice dots).
    if chars.get(end) == Some(&'.') && chars.get(end + 1).is_some_and(char::is_ascii_digit) {
        let end = digits(end + 1, |c| c.is_ascii_digit());
        let end = if chars.get(end).is_some_and(|c| matches!(c, 'f' | 'F')) { end + 1 } else { end };
        return (end, TokenKind::Float, None);
    }
    let text: String = chars[..end].iter().collect();
    let after = suffix(chars, end);
    // C reads a leading 0 as octal: `010` is eight, and `08` no constant.
    if text.len() > 1 && text.starts_with('0') {
        return match u128::from_str_radix(&text, 8) {
            Ok(value) => (after, TokenKind::Int { value }, None),
            Err(_) => {
                let value = text.parse::<u128>().unwrap_or(0);
                let problem = format!(
                    "`{text}` is not a C constant: a leading 0 makes it octal, and {} is no octal digit",
                    text.chars().find(|c| matches!(c, '8' | '9')).unwrap_or('8')
                );
                (after, TokenKind::Int { value }, Some(problem))
            }
        };
    }
    match text.parse::<u128>() {
        Ok(value) => (after, TokenKind::Int { value }, None),
        Err(_) => (after, TokenKind::Int { value: 0 }, Some("the constant does not fit 128 bits".into())),
    }
}

/// The end of an integer suffix (`u`, `L`, `ull`...) at `from`, where one
/// stands alone there; letters that go on (`2n`) are no suffix.
fn suffix(chars: &[char], from: usize) -> usize {
    let run = chars[from..].iter().take_while(|c| is_word_char(**c)).count();
    let word: String = chars[from..from + run].iter().collect::<String>().to_ascii_lowercase();
    if matches!(word.as_str(), "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu") {
        from + run
    } else {
        from
    }
}
