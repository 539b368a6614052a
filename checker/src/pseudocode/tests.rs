//! The parser on the notations of the document, one construct at a time;
//! C's precedence; recovery from errors; and the printer's round trip, by
//! property.

use proptest::prelude::*;

use super::ast::*;
use super::*;

fn lines(text: &str) -> Vec<SourceLine<'_>> {
    text.lines().enumerate().map(|(k, t)| SourceLine { number: k + 1, text: t }).collect()
}

fn vocabulary() -> Vocabulary {
    Vocabulary { operators: vec!["CmpOp".into(), "BoolOp".into()] }
}

fn parse_text(text: &str) -> Parsed {
    parse(&lines(text), &vocabulary())
}

/// The block printed back, one statement a line; it must parse cleanly.
fn printed(text: &str) -> String {
    let p = parse_text(text);
    assert!(p.diagnostics.is_empty(), "{text}: {:?}", p.diagnostics);
    print::block(&p.statements)
}

/// An expression with every operation in parentheses, to show how it
/// groups.
fn grouped(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Binary(op, l, r) => format!("({} {} {})", grouped(l), op.symbol(), grouped(r)),
        ExprKind::Placeholder { name, lhs, rhs } => format!("({} {name} {})", grouped(lhs), grouped(rhs)),
        ExprKind::Conditional(c, t, f) => format!("({} ? {} : {})", grouped(c), grouped(t), grouped(f)),
        ExprKind::Assign(op, t, v) => format!("({} {} {})", grouped(t), op.symbol(), grouped(v)),
        ExprKind::Unary(op, x) => format!("{}{}", op.symbol(), grouped(x)),
        ExprKind::Paren(x) => grouped(x),
        ExprKind::Abs(x) => format!("|{}|", grouped(x)),
        ExprKind::Slice { base, first, second, notation: SliceNotation::Brackets } => {
            format!("{}[{}:{}]", grouped(base), grouped(first), grouped(second))
        }
        ExprKind::Slice { base, first, second, notation: SliceNotation::Angles } => {
            format!("{}<{}..{}>", grouped(base), grouped(first), grouped(second))
        }
        ExprKind::Index(b, i) => format!("{}[{}]", grouped(b), grouped(i)),
        ExprKind::Call(f, args) => {
            format!("{}({})", grouped(f), args.iter().map(grouped).collect::<Vec<_>>().join(", "))
        }
        ExprKind::Prose(words) => format!("«{}»", words.join(" ")),
        ExprKind::Comma(l, r) => format!("({}, {})", grouped(l), grouped(r)),
        _ => e.to_string(),
    }
}

/// The one expression of a one-statement block, grouped.
fn expr(text: &str) -> String {
    let p = parse_text(text);
    assert!(p.diagnostics.is_empty(), "{text}: {:?}", p.diagnostics);
    match &p.statements[..] {
        [Stmt { kind: StmtKind::Expr(e), .. }] => grouped(e),
        other => panic!("{text}: not one expression statement: {other:?}"),
    }
}

#[test]
fn c_precedence_and_associativity() {
    // C's trap in clz's loop: `==` binds tighter than `&`.
    assert_eq!(expr("x = a&mask == 0;"), "(x = (a & (mask == 0)))");
    assert_eq!(expr("d = (b << n) | (a >> (32-n));"), "(d = ((b << n) | (a >> (32 - n))))");
    assert_eq!(expr("d = a + b * c - d / e % f;"), "(d = ((a + (b * c)) - ((d / e) % f)))");
    assert_eq!(expr("d = a || b && c | d ^ e & f;"), "(d = (a || (b && (c | (d ^ (e & f))))))");
    assert_eq!(expr("d = a < b == c > d;"), "(d = ((a < b) == (c > d)))");
    assert_eq!(expr("d = 1 << 2 + 3;"), "(d = (1 << (2 + 3)))");
    // `?:` and `=` group to the right.
    assert_eq!(expr("d = a ? b : c ? e : f;"), "(d = (a ? b : (c ? e : f)))");
    assert_eq!(expr("ctl[0] = ctl[1] = c & 3;"), "(ctl[0] = (ctl[1] = (c & 3)))");
    assert_eq!(expr("d += Va[i] * Vb[b_select + i];"), "(d += (Va[i] * Vb[(b_select + i)]))");
    assert_eq!(expr("d = -~!a;"), "(d = -~!a)");
    assert_eq!(expr("x = a, y = b;"), "((x = a), (y = b))");
    // A load's memory and a variable's address, beside the binary `*` and `&`.
    assert_eq!(expr("d = *(&a + off) * b & c;"), "(d = ((*(&a + off) * b) & c))");
}

#[test]
fn the_dialects_notations() {
    // Slices, each with its bounds as written.
    assert_eq!(expr("d = t<2n-1..n>;"), "(d = t<((2 * n) - 1)..n>)");
    assert_eq!(expr("iA[0] = a[0:15];"), "(iA[0] = a[0:15])");
    assert_eq!(expr("tmp[07:00] = x;"), "(tmp[07:00] = x)");
    // `<` is a comparison where no `..` follows.
    assert_eq!(expr("d = c + ((a<b) ? b-a : a-b);"), "(d = (c + ((a < b) ? (b - a) : (a - b))))");
    assert_eq!(expr("count = |offset| - 1;"), "(count = (|offset| - 1))");
    assert_eq!(expr("d = |a| | |b|;"), "(d = (|a| | |b|))");
    // Qualifiers as values, members, and bracketed names.
    assert_eq!(
        expr("n = (.mode == .clamp) ? min(c, 32) : c & 0x1f;"),
        "(n = ((.mode == .clamp) ? min(c, 32) : (c & 0x1f)))"
    );
    assert_eq!(expr("d = a + b + CC.CF;"), "(d = ((a + b) + CC.CF))");
    assert_eq!(expr("lane[4:0] = [Thread].laneid;"), "(lane[4:0] = [Thread].laneid)");
    // The section's placeholders between operands, and prose.
    assert_eq!(expr("p = (d != 0) BoolOp q;"), "(p = ((d != 0) BoolOp q))");
    assert_eq!(expr("t = (a CmpOp b) ? 1 : 0;"), "(t = ((a CmpOp b) ? 1 : 0))");
    assert_eq!(expr("n = bitwidth of type;"), "(n = «bitwidth of type»)");
    assert_eq!(expr("d = BoolOp(t, c) ? 1.0f : 0x00000000;"), "(d = (BoolOp(t, c) ? 1.0f : 0x00000000))");
    let p = parse_text("n = bitwidth of type;\nd = t<2n-1..n> + |a| + x[4:0] + [Thread].laneid;\np = a BoolOp b;");
    let kinds: Vec<Notation> = p.notations.iter().map(|(_, n)| n.clone()).collect();
    assert_eq!(
        kinds,
        vec![
            Notation::Prose,
            Notation::Slice { notation: SliceNotation::Angles, order: None },
            Notation::ImplicitProduct,
            Notation::AbsoluteValue,
            Notation::Slice { notation: SliceNotation::Brackets, order: Some(SliceOrder::HighFirst) },
            Notation::BracketedName,
            Notation::PlaceholderOperator("BoolOp".into()),
        ]
    );
    assert_eq!(p.notations[1].0, Pos { line: 2, column: 6 });
}

#[test]
fn constants_as_c_reads_them() {
    let value = |text: &str| match &parse_text(&format!("x = {text};")).statements[0].kind {
        StmtKind::Expr(Expr { kind: ExprKind::Assign(_, _, v), .. }) => match &v.kind {
            ExprKind::Int { value, .. } => *value,
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    assert_eq!(value("0x1f"), 31);
    assert_eq!(value("0xffffffffffffffff"), u64::MAX as u128);
    assert_eq!(value("010"), 8, "a leading 0 is octal");
    assert_eq!(value("32u"), 32);
    assert_eq!(value("0"), 0);
    let p = parse_text("tmp[15:08] = x;");
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(p.diagnostics[0].pos, Pos { line: 1, column: 8 });
    assert!(p.diagnostics[0].message.contains("no octal digit"), "{}", p.diagnostics[0]);
}

#[test]
fn statements() {
    assert_eq!(printed(".u32  d = 0;\nu32 n = c & 0x1f;"), ".u32 d = 0;\nu32 n = c & 0x1f;\n");
    assert_eq!(
        printed("for (.s32 i=msb; i>=0; i--) {\n    if (a & (1<<i))  { d = i; break; }\n}"),
        "for (.s32 i = msb; i >= 0; i--) {\n    if (a & (1 << i)) {\n        d = i;\n        break;\n    }\n}\n"
    );
    assert_eq!(
        printed("if (x) y = 1;\nelse if (z) y = 2;\nelse y = 3;"),
        "if (x)\n    y = 1;\nelse if (z)\n    y = 2;\nelse\n    y = 3;\n"
    );
    assert_eq!(
        printed("while (a != 0) {\n  if (a & 0x1)  d++;\n  a = a >> 1;\n}"),
        "while (a != 0) {\n    if (a & 0x1)\n        d++;\n    a = a >> 1;\n}\n"
    );
    assert_eq!(printed("do { x--; } while (x);"), "do {\n    x--;\n} while (x);\n");
    assert_eq!(printed("for (i = 0; i < 4; ++i) d += x;"), "for (i = 0; i < 4; ++i)\n    d += x;\n");
    assert_eq!(printed("unsigned int x = 1, y[4];"), "unsigned int x = 1, y[4];\n");
    assert_eq!(printed("x = (u32) y;"), "x = (u32)y;\n");
    assert_eq!(
        printed("def f (z, x) {\n  return z;\n}\nd = f(d, a);"),
        "def f (z, x) {\n    return z;\n}\nd = f(d, a);\n"
    );
}

#[test]
fn helpers_defined_in_three_ways() {
    // `def`, C's definition, and a signature with its body (the forms the
    // document and the proposed fixes write).
    let p = parse_text(
        "def f (z, x) {\n  return z;\n}\nu32 min(u32 x, u32 y) {  // the smaller\n  return (x < y) ? x : y;\n}\n\
         ext_4(x, type) {  // element i\n}\nd = min(a, b);",
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let heads: Vec<String> = p.statements.iter().map(|s| s.to_string().lines().next().unwrap().to_string()).collect();
    assert_eq!(heads, ["def f (z, x) {", "u32 min(u32 x, u32 y) {", "def ext_4 (x, type) {", "d = min(a, b);"]);
    let StmtKind::Function { params, returns, .. } = &p.statements[1].kind else { panic!() };
    assert_eq!(returns.as_ref().map(|t| t.spelled.as_str()), Some("u32"));
    assert_eq!(params[1].ty.as_ref().map(|t| t.ptx()), Some(Some(('u', 32))));
    let defined = p.notations.iter().filter(|(_, n)| *n == Notation::HelperDefinition).count();
    assert_eq!(defined, 2, "`def` and the signature; C's own form is C");
    // A call of something other than names, before a brace, is no signature.
    assert_eq!(diagnostics("f(x + 1) {\n}"), ["1:10: expected `;` or an operator, found `{`"]);
}

#[test]
fn an_atomic_block_helpers_defined_by_equations_and_a_store_through_an_address_parse() {
    let p = parse_text(
        "atomic {\n    d = *a;\n    *a = (op == cas) ? op(*a, b, c) : op(*a, b);\n}\nwhere\n    \
         inc(r, s) = (r >= s) ? 0 : r+1;\n    cas(r,s,t) = (r == s) ? t : r;",
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let heads: Vec<String> = p.statements.iter().map(|s| s.to_string().lines().next().unwrap().to_string()).collect();
    assert_eq!(heads, ["{", ";", "def inc (r, s) {", "def cas (r, s, t) {"]);
    let StmtKind::Function { body, .. } = &p.statements[2].kind else { panic!() };
    assert_eq!(body[0].to_string(), "return (r >= s) ? 0 : r + 1;");
    let kinds: Vec<Notation> = p.notations.iter().map(|(_, n)| n.clone()).collect();
    assert_eq!(kinds, [Notation::AtomicBlock, Notation::EquationDefinition, Notation::EquationDefinition]);
    // A word that is no helper's name before `(`: an expression, as before.
    assert_eq!(
        diagnostics("f(x + 1) = 2;"),
        ["1:1: `f(x + 1)` cannot be assigned to: it is not a variable, element or slice"]
    );
    // `atomic` and `where` are names elsewhere.
    assert!(parse_text("atomic = 1;\nwhere = atomic;").diagnostics.is_empty());
}

#[test]
fn switch_keeps_its_labels_in_order_with_and_without_break() {
    let text = "switch (shf.dir) {  // the pair\n  case shf.l:     // msbs\n     u32 d = a;\n  case shf.r:\n     u32 d = b; break;\n  default: break;\n}";
    let p = parse_text(text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let StmtKind::Switch { subject, body } = &p.statements[0].kind else { panic!("{:?}", p.statements[0]) };
    assert_eq!(subject.to_string(), "shf.dir");
    let shapes: Vec<String> = body.iter().map(|s| s.to_string()).collect();
    assert_eq!(shapes, ["case shf.l:", "u32 d = a;", "case shf.r:", "u32 d = b;", "break;", "default:", "break;"]);
    // The comment that ends a label's line is the label's.
    assert_eq!(body[0].comment.as_ref().map(|c| c.text.as_str()), Some("msbs"));
    assert_eq!(p.comments.len(), 2);
}

#[test]
fn trailing_comments_belong_to_their_statement() {
    let p = parse_text("t = a * b;\nd = t;            // for .wide\nd = t<2n-1..n>;   // for .hi variant");
    let comments: Vec<Option<&str>> =
        p.statements.iter().map(|s| s.comment.as_ref().map(|c| c.text.as_str())).collect();
    assert_eq!(comments, [None, Some("for .wide"), Some("for .hi variant")]);
    let p = parse_text("/* a\n   b */ x = 1; /* c */");
    assert_eq!(p.comments.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), ["a b", "c"]);
    assert!(p.diagnostics.is_empty());
}

#[test]
fn positions_are_the_documents() {
    let p = parse(
        &[SourceLine { number: 40, text: "" }, SourceLine { number: 41, text: "    d = a   + b;" }],
        &Vocabulary::default(),
    );
    let s = &p.statements[0];
    assert_eq!((s.span.start, s.span.end), (Pos { line: 41, column: 5 }, Pos { line: 41, column: 17 }));
    let StmtKind::Expr(Expr { kind: ExprKind::Assign(_, _, sum), .. }) = &s.kind else { panic!() };
    assert_eq!(sum.span.start, Pos { line: 41, column: 9 });
}

/// Every diagnostic as `line:column message`.
fn diagnostics(text: &str) -> Vec<String> {
    parse_text(text).diagnostics.iter().map(|d| d.to_string()).collect()
}

#[test]
fn errors_are_placed_and_the_rest_is_read() {
    // szext: `?` with no `:`.
    let p = parse_text("x = 1;\nd = (a & ~mask) | (sign_bit ? mask | 0);\ny = 2;");
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(p.diagnostics[0].pos, Pos { line: 2, column: 39 });
    assert!(p.diagnostics[0].message.contains("has no `:`"));
    let kinds: Vec<String> = p.statements.iter().map(|s| s.to_string()).collect();
    assert_eq!(kinds, ["x = 1;", "/* malformed */", "y = 2;"]);
    // bmsk: a hyphenated name assigned to.
    assert_eq!(
        diagnostics("sum-overflow = sum >= 32 ? true : false;\nbit-width-overflow = false;"),
        [
            "1:1: `sum-overflow` cannot be assigned to: C reads the hyphenated name as a subtraction",
            "2:1: `bit-width-overflow` cannot be assigned to: C reads the hyphenated name as a subtraction"
        ]
    );
    // A line with no `;` stands; the next is read.
    assert_eq!(
        diagnostics("d = f(d, a, b)\nif (x) {\n  d = g(d)\n}"),
        [
            "1:14: the statement does not end with `;` (none after the `)` here)",
            "3:10: the statement does not end with `;` (none after the `)` here)"
        ]
    );
    // Two operands side by side, in a condition: the body is still read.
    let p = parse_text("if (.x && !f(c) !g(d)) {\n    h(d, x);\n}");
    assert_eq!(p.diagnostics.len(), 1, "{:?}", p.diagnostics);
    assert!(p.diagnostics[0].message.starts_with("two operands with no operator"), "{}", p.diagnostics[0]);
    assert_eq!(p.diagnostics[0].pos, Pos { line: 1, column: 17 });
    let StmtKind::If { cond, then, .. } = &p.statements[0].kind else { panic!() };
    assert_eq!(cond.kind, ExprKind::Malformed);
    assert_eq!(then.to_string(), "{\n    h(d, x);\n}");
    // Braces that do not match, a stray character, a stray else.
    assert_eq!(diagnostics("if (x) {\n  y = 1;"), ["1:8: the `{` at 1:8 is never closed"]);
    assert_eq!(diagnostics("y = 1;\n}\nz = 2;"), ["2:1: a `}` that closes no `{`"]);
    assert_eq!(diagnostics("y = a @ b;"), ["1:7: `@` is not a character of C's syntax"]);
    assert_eq!(
        diagnostics("y = f(a) 2;"),
        ["1:10: two operands with no operator between them: `2` follows the operand that ends at 1:9"]
    );
    assert_eq!(diagnostics("else y = 1;\nz = 2;"), ["1:1: `else` with no `if` before it"]);
    assert_eq!(diagnostics("x = (a + b;\nz = 2;"), ["1:11: expected `)` to close the `(` at 1:5, found `;`"]);
    assert_eq!(diagnostics("/* open\nx = 1;"), ["1:1: a comment opened with `/*` is never closed"]);
    // A control character is named, not written out.
    assert_eq!(diagnostics("y = a \u{1b} b;"), ["1:7: U+001B is not a character of C's syntax"]);
}

#[test]
fn nesting_and_chains_past_the_limits_stop_the_statement_where_they_pass_them() {
    use super::parser::{MAX_HEIGHT, MAX_NESTING};
    // Within the limits, read; one level more, a diagnostic at the place.
    let parens = |n: usize| format!("d = {}a{};\nz = 2;", "(".repeat(n), ")".repeat(n));
    // A parenthesis costs three levels (assignment, conditional, unary),
    // and the statement with its first operand four.
    let within = parse_text(&parens((MAX_NESTING - 4) / 3));
    assert!(within.diagnostics.is_empty(), "{:?}", within.diagnostics);
    let past = parse_text(&parens(MAX_NESTING));
    assert_eq!(past.diagnostics.len(), 1, "{:?}", past.diagnostics);
    assert_eq!(past.diagnostics[0].code, "too-deep");
    // The statement after it is read.
    assert_eq!(past.statements.len(), 2);
    assert_eq!(past.statements[1].to_string(), "z = 2;");
    let sum = |n: usize| format!("d = {};", vec!["a"; n].join(" + "));
    let read = parse_text(&sum(MAX_HEIGHT as usize - 1));
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    let StmtKind::Expr(e) = &read.statements[0].kind else { panic!() };
    assert_eq!(e.height, MAX_HEIGHT);
    let long = parse_text(&sum(MAX_HEIGHT as usize + 1));
    assert_eq!(long.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), ["too-long"]);
    // Blocks in blocks, and operands of prefix operators.
    assert_eq!(parse_text(&format!("{}d = a;{}", "{ ".repeat(100), " }".repeat(100))).diagnostics[0].code, "too-deep");
    assert_eq!(parse_text(&format!("d = {}a;", "- ".repeat(100))).diagnostics[0].code, "too-deep");
}

#[test]
fn slice_notations_mixed_in_one_block() {
    let p = parse_text("iA[0] = a[0:15];\nlane[4:0] = b;");
    let ((p1, n1), (p2, n2)) = p.mixed_slices().unwrap();
    assert_eq!((p1.line, p2.line), (1, 2));
    assert_eq!((n1.describe(), n2.describe()), ("a slice `x[lo:hi]`".to_string(), "a slice `x[hi:lo]`".to_string()));
    assert!(parse_text("x = a[4:0] | b[12:8] | c[i:j];").mixed_slices().is_none());
    assert!(parse_text("x = a[4:0] | t<47..16>;").mixed_slices().is_some());
}

#[test]
fn the_syntax_names_the_placeholders() {
    let v = Vocabulary::of_syntax([
        ".CmpOp  = { eq, ne,",
        ".BoolOp = { and, or, xor };",
        ".type   = { .b16 };",
        "setp.CmpOp.type p, a, b;",
    ]);
    assert_eq!(v.operators, ["CmpOp", "BoolOp"]);
    // Without them, the words are prose, not an operator.
    let p = parse(&lines("t = a CmpOp b;"), &Vocabulary::default());
    assert!(
        matches!(&p.statements[0].kind, StmtKind::Expr(Expr { kind: ExprKind::Assign(_, _, v), .. }) if matches!(v.kind, ExprKind::Prose(_)))
    );
}

// The printer's round trip: any tree printed and parsed again is the same
// tree (parentheses aside, which the printer adds where C needs them).

fn leaf() -> impl Strategy<Value = Expr> {
    let e = |kind| Expr::new(kind, Span::default());
    prop_oneof![
        (0u128..70000).prop_map(move |v| e(ExprKind::Int { text: v.to_string(), value: v })),
        prop::sample::select(vec!["a", "b", "d", "msb", "SourceA"]).prop_map(move |n| e(ExprKind::Name(n.into()))),
        prop::sample::select(vec!["mode", "clamp", "type"]).prop_map(move |q| e(ExprKind::Qualifier(q.into()))),
        Just(e(ExprKind::Float("1.0f".into()))),
        Just(e(ExprKind::Bracketed("Thread".into()))),
        Just(e(ExprKind::Prose(vec!["bitwidth".into(), "of".into(), "type".into()]))),
    ]
}

fn tree() -> impl Strategy<Value = Expr> {
    let e = |kind| Expr::new(kind, Span::default());
    leaf().prop_recursive(5, 48, 3, move |inner| {
        let b = Box::new;
        prop_oneof![
            (prop::sample::select(BinaryOp::ALL.to_vec()), inner.clone(), inner.clone())
                .prop_map(move |(op, l, r)| e(ExprKind::Binary(op, b(l), b(r)))),
            (
                prop::sample::select(vec![UnaryOp::Plus, UnaryOp::Minus, UnaryOp::Not, UnaryOp::Complement]),
                inner.clone()
            )
                .prop_map(move |(op, x)| e(ExprKind::Unary(op, b(x)))),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(move |(c, t, f)| e(ExprKind::Conditional(
                b(c),
                b(t),
                b(f)
            ))),
            (inner.clone(), inner.clone()).prop_map(move |(l, r)| e(ExprKind::Placeholder {
                name: "CmpOp".into(),
                lhs: b(l),
                rhs: b(r)
            })),
            inner.clone().prop_map(move |x| e(ExprKind::Abs(b(x)))),
            (inner.clone(), inner.clone()).prop_map(move |(x, i)| e(ExprKind::Index(b(x), b(i)))),
            (inner.clone(), inner.clone(), inner.clone(), any::<bool>()).prop_map(move |(x, f, s, angles)| {
                let notation = if angles { SliceNotation::Angles } else { SliceNotation::Brackets };
                e(ExprKind::Slice { base: b(x), first: b(f), second: b(s), notation })
            }),
            (inner.clone(), prop::collection::vec(inner.clone(), 0..3))
                .prop_map(move |(f, args)| e(ExprKind::Call(b(f), args))),
            inner.clone().prop_map(move |x| e(ExprKind::Member(b(x), "laneid".into()))),
            (inner.clone(), any::<bool>(), any::<bool>()).prop_map(move |(x, prefix, up)| {
                let op = if up { StepOp::Increment } else { StepOp::Decrement };
                e(ExprKind::Step { op, prefix, target: b(x) })
            }),
            inner.clone().prop_map(move |x| e(ExprKind::Cast(TypeName { spelled: "u32".into() }, b(x)))),
            inner.clone().prop_map(move |x| e(ExprKind::Paren(b(x)))),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn printed_trees_parse_back_to_themselves(value in tree(), target in prop::sample::select(vec!["d", "x"])) {
        let b = Box::new;
        let e = |kind| Expr::new(kind, Span::default());
        let assign = e(ExprKind::Assign(AssignOp(None), b(e(ExprKind::Name(target.into()))), b(value)));
        let stmt = Stmt { kind: StmtKind::Expr(assign), span: Span::default(), comment: None };
        let text = print::block(std::slice::from_ref(&stmt));
        let p = parse_text(&text);
        prop_assert!(p.diagnostics.is_empty(), "{text}: {:?}", p.diagnostics);
        prop_assert_eq!(p.statements.len(), 1, "{}", text);
        prop_assert_eq!(p.statements[0].shape(), stmt.shape(), "{}", text);
    }
}
