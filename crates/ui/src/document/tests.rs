use proptest::prelude::*;
use serde_json::{Value, json};

use super::inline::{Inline, Leaf, Mark, to_nodes};
use super::*;

fn leaf(text: &str, marks: &[&str]) -> Value {
    let marks: Vec<Value> = marks
        .iter()
        .map(|mark| json!({"object": "mark", "type": mark}))
        .collect();
    json!({"object": "leaf", "text": text, "marks": marks})
}

fn text_node(leaves: Vec<Value>) -> Value {
    json!({"object": "text", "leaves": leaves})
}

fn block(kind: &str, nodes: Vec<Value>) -> Value {
    json!({"object": "block", "type": kind, "key": "k", "data": {}, "nodes": nodes})
}

fn paragraph(text: &str) -> Value {
    block("paragraph", vec![text_node(vec![leaf(text, &[])])])
}

fn document(nodes: Vec<Value>) -> Value {
    json!({"object": "document", "data": {"schemaVersion": 1}, "nodes": nodes})
}

/// A real-looking description: every convertible kind, marks, a link, and two blocks quire
/// cannot edit (an image and a hint).
fn rich() -> Value {
    let link = json!({"object": "inline", "type": "link", "isVoid": false,
        "data": {"ref": {"kind": "url", "url": "https://docs.example/scopes"}},
        "nodes": [text_node(vec![leaf("scopes", &["bold"])])]});
    document(vec![
        block("heading-1", vec![text_node(vec![leaf("Why", &[])])]),
        block(
            "paragraph",
            vec![
                text_node(vec![
                    leaf("Calls fail with ", &[]),
                    leaf("403", &["code"]),
                    leaf(": read the ", &[]),
                ]),
                link,
                text_node(vec![leaf(".", &[])]),
            ],
        ),
        json!({"object": "block", "type": "images", "isVoid": true, "data": {}, "nodes": []}),
        block(
            "list-unordered",
            vec![
                block("list-item", vec![paragraph("says fleet:write up front")]),
                block(
                    "list-item",
                    vec![block(
                        "paragraph",
                        vec![text_node(vec![
                            leaf("adds ", &[]),
                            leaf("Token scopes", &["italic"]),
                        ])],
                    )],
                ),
            ],
        ),
        block(
            "list-ordered",
            vec![block("list-item", vec![paragraph("first")])],
        ),
        json!({"object": "block", "type": "code", "data": {"syntax": "bash"}, "nodes": [
            block("code-line", vec![text_node(vec![leaf("curl -s $URL \\", &[])])]),
            block("code-line", vec![text_node(vec![leaf("  | jq .scopes", &[])])]),
        ]}),
        block("blockquote", vec![paragraph("Quoted"), paragraph("twice")]),
        json!({"object": "block", "type": "hint", "data": {"style": "info"},
            "nodes": [paragraph("Careful")]}),
    ])
}

#[test]
fn a_rich_description_as_text() {
    let editable = to_text(&rich());
    assert_eq!(
        editable.text,
        "# Why\n\n\
         Calls fail with `403`: read the [**scopes**](https://docs.example/scopes).\n\n\
         <!-- quire:keep 1 -->\n\n\
         - says fleet:write up front\n- adds _Token scopes_\n\n\
         1. first\n\n\
         ```bash\ncurl -s $URL \\\n  | jq .scopes\n```\n\n\
         > Quoted\n>\n> twice\n\n\
         <!-- quire:keep 2 -->"
    );
    assert_eq!(editable.kept.len(), 2);
    assert_eq!(editable.kept[0]["type"], "images");
    assert_eq!(editable.kept[1]["type"], "hint");
    assert_eq!(
        kept_notice(editable.kept.len()).as_deref(),
        Some("2 blocks quire cannot edit are kept as they are")
    );
}

#[test]
fn kept_blocks_come_back_unchanged_where_their_placeholders_are() {
    let editable = to_text(&rich());
    let edited = editable.text.replace("# Why", "## Why now");
    let back = from_text(&edited, &editable.kept).unwrap();
    let nodes = back["nodes"].as_array().unwrap();
    assert_eq!(nodes[0]["type"], "heading-2");
    assert_eq!(nodes[2], rich()["nodes"][2], "the image block, untouched");
    assert_eq!(nodes.last(), rich()["nodes"].as_array().unwrap().last());
    // Text → Document → text is stable.
    assert_eq!(to_text(&back).text, edited);
}

#[test]
fn a_placeholder_naming_no_kept_block_is_refused() {
    let error = from_text("hello\n\n<!-- quire:keep 3 -->", &[json!({})]).unwrap_err();
    assert!(
        error.contains("line 3") && error.contains("only 1"),
        "{error}"
    );
}

#[test]
fn unconvertible_inside_a_block_keeps_the_whole_block() {
    let underline = block(
        "paragraph",
        vec![text_node(vec![leaf("u", &["underline"])])],
    );
    let page_link = block(
        "paragraph",
        vec![json!({"object": "inline", "type": "link",
            "data": {"ref": {"kind": "page", "page": "p1"}},
            "nodes": [text_node(vec![leaf("page", &[])])]})],
    );
    let nested = block(
        "list-unordered",
        vec![block(
            "list-item",
            vec![
                paragraph("a"),
                block(
                    "list-unordered",
                    vec![block("list-item", vec![paragraph("b")])],
                ),
            ],
        )],
    );
    let centered = json!({"object": "block", "type": "paragraph", "data": {"align": "center"},
        "nodes": [text_node(vec![leaf("c", &[])])]});
    let soft_break = paragraph("two\nlines");
    for block in [underline, page_link, nested, centered, soft_break] {
        let editable = to_text(&document(vec![block.clone()]));
        assert_eq!(editable.text, placeholder(1));
        assert_eq!(editable.kept, vec![block]);
    }
}

#[test]
fn special_characters_are_escaped_and_read_back() {
    let tricky = [
        "# not a heading",
        "- not a list",
        "1. not a list",
        "> not a quote",
        "<!-- quire:keep 1 -->",
        "a *star* and _under_ and `tick` and ~~strike~~ and [bracket](x) \\ back",
    ];
    for text in tricky {
        let original = document(vec![paragraph(text)]);
        let editable = to_text(&original);
        let back = from_text(&editable.text, &editable.kept).unwrap();
        assert_eq!(
            back["nodes"][0]["nodes"][0]["leaves"][0]["text"], text,
            "{}",
            editable.text
        );
    }
}

#[test]
fn hand_typed_text_reads_like_markdown() {
    let back = from_text(
        "Intro line\ncontinues here with snake_case\n\n* star item\n- dash item\n\n\
         ```\ncode\n```\n\n>quote",
        &[],
    )
    .unwrap();
    let nodes = back["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 4);
    assert_eq!(
        nodes[0]["nodes"][0]["leaves"][0]["text"],
        "Intro line continues here with snake_case"
    );
    assert_eq!(nodes[1]["type"], "list-unordered");
    assert_eq!(nodes[1]["nodes"].as_array().map(Vec::len), Some(2));
    assert_eq!(nodes[2]["type"], "code");
    assert_eq!(nodes[3]["type"], "blockquote");
}

#[test]
fn the_seed_shapes_read_too() {
    // The sandbox's and the seed's: code as one text child, marks as plain strings, a
    // markdown Document, and a Document inside `{document}`.
    let code = json!({"object": "block", "type": "code", "nodes": [
        {"object": "text", "leaves": [{"text": "a\nb", "marks": []}]}]});
    assert_eq!(to_text(&document(vec![code])).text, "```\na\nb\n```");
    let marked = block(
        "paragraph",
        vec![json!({"object": "text", "text": "b", "marks": ["bold"]})],
    );
    assert_eq!(to_text(&document(vec![marked])).text, "**b**");
    assert_eq!(to_text(&json!({"markdown": "# M"})).text, "# M");
    let wrapped = json!({"document": document(vec![paragraph("w")])});
    assert_eq!(to_text(&wrapped).text, "w");
    assert_eq!(to_text(&json!(null)).text, "");
}

#[test]
fn display_markdown_names_kept_blocks() {
    let markdown = display_markdown(&rich());
    assert!(markdown.contains("*[a images block, shown in the web app]*"));
    assert!(markdown.contains("*[a hint block, shown in the web app]*"));
    assert!(markdown.starts_with("# Why"));
}

// ---------------------------------------------------------------------------------------------
// Document → text → Document is the identity for convertible documents.

/// Text for leaves: letters, spaces and every character the text form gives a meaning to.
fn leaf_text() -> impl Strategy<Value = String> {
    proptest::string::string_regex(r"[a-zA-Z0-9 #>*_`~\[\]()\\<!.:-]{1,12}")
        .expect("valid regex")
        .prop_filter("visible", |text| !text.trim().is_empty())
}

fn marks() -> impl Strategy<Value = Vec<Mark>> {
    proptest::sample::subsequence(Mark::ALL.to_vec(), 0..=2)
}

fn leaves() -> impl Strategy<Value = Vec<Leaf>> {
    proptest::collection::vec(
        (leaf_text(), marks()).prop_map(|(text, marks)| Leaf { text, marks }),
        1..4,
    )
    .prop_map(merge_leaves)
}

/// Neighbours with the same marks are one leaf in a canonical Document.
fn merge_leaves(leaves: Vec<Leaf>) -> Vec<Leaf> {
    let mut merged: Vec<Leaf> = Vec::new();
    for leaf in leaves {
        match merged.last_mut() {
            Some(last) if last.marks == leaf.marks => last.text.push_str(&leaf.text),
            _ => merged.push(leaf),
        }
    }
    merged
}

fn inlines() -> impl Strategy<Value = Vec<Inline>> {
    let link = (
        proptest::string::string_regex(r"https://[a-z]{1,8}\.example/[a-z0-9_\-]{0,8}")
            .expect("valid regex"),
        leaves(),
    )
        .prop_map(|(url, leaves)| vec![Inline::Link { url, leaves }]);
    let text = leaves().prop_map(|leaves| leaves.into_iter().map(Inline::Text).collect());
    proptest::collection::vec(prop_oneof![3 => text, 1 => link], 1..4).prop_map(|groups| {
        let mut inlines: Vec<Inline> = Vec::new();
        for inline in groups.into_iter().flatten() {
            match (inlines.last_mut(), inline) {
                (Some(Inline::Text(last)), Inline::Text(leaf)) if last.marks == leaf.marks => {
                    last.text.push_str(&leaf.text)
                }
                (_, inline) => inlines.push(inline),
            }
        }
        inlines
    })
}

fn canonical_block(kind: &str, data: Value, nodes: Vec<Value>) -> Value {
    json!({"object": "block", "type": kind, "isVoid": false, "data": data, "nodes": nodes})
}

fn inline_block(kind: &str, inlines: &[Inline]) -> Value {
    canonical_block(kind, json!({}), to_nodes(inlines))
}

fn top_block() -> impl Strategy<Value = Value> {
    let paragraph = inlines().prop_map(|i| inline_block("paragraph", &i));
    let heading = (1..=3usize, inlines())
        .prop_map(|(level, i)| inline_block(&format!("heading-{level}"), &i));
    let list = (
        prop_oneof![Just("list-unordered"), Just("list-ordered")],
        proptest::collection::vec(inlines(), 1..4),
    )
        .prop_map(|(kind, items)| {
            let items = items
                .iter()
                .map(|i| {
                    canonical_block("list-item", json!({}), vec![inline_block("paragraph", i)])
                })
                .collect();
            canonical_block(kind, json!({}), items)
        });
    let code = (
        proptest::option::of("[a-z]{1,6}"),
        proptest::collection::vec("[ -~]{0,16}", 0..4),
    )
        .prop_filter("no fence inside", |(_, lines)| {
            lines
                .iter()
                .all(|line| !line.trim_start().starts_with("```"))
        })
        .prop_map(|(syntax, lines)| {
            let data = syntax.map_or(json!({}), |syntax| json!({"syntax": syntax}));
            let lines = lines
                .iter()
                .map(|line| {
                    canonical_block(
                        "code-line",
                        json!({}),
                        vec![json!({"object": "text", "leaves": [
                            {"object": "leaf", "text": line, "marks": []}]})],
                    )
                })
                .collect();
            canonical_block("code", data, lines)
        });
    let quote = proptest::collection::vec(inlines(), 1..3).prop_map(|paragraphs| {
        let paragraphs = paragraphs
            .iter()
            .map(|i| inline_block("paragraph", i))
            .collect();
        canonical_block("blockquote", json!({}), paragraphs)
    });
    prop_oneof![3 => paragraph, 1 => heading, 1 => list, 1 => code, 1 => quote]
}

proptest! {
    #[test]
    fn document_to_text_and_back_is_the_identity(
        blocks in proptest::collection::vec(top_block(), 0..6),
    ) {
        let document = json!({"object": "document", "data": {}, "nodes": blocks});
        let editable = to_text(&document);
        prop_assert!(editable.kept.is_empty(), "{}", editable.text);
        let back = from_text(&editable.text, &editable.kept).unwrap();
        prop_assert_eq!(back, document, "{}", editable.text);
    }

    #[test]
    fn any_text_reads_without_panicking_and_is_stable(text in "[ -~\n]{0,80}") {
        let document = from_text(&text, &[]);
        if let Ok(document) = document {
            // Once written by quire, the text form is a fixed point.
            let editable = to_text(&document);
            let again = from_text(&editable.text, &editable.kept).unwrap();
            prop_assert_eq!(to_text(&again).text, editable.text);
        }
    }
}

#[test]
fn a_paragraph_with_control_characters_is_shown_not_hidden() {
    let document = json!({
        "object": "document",
        "nodes": [
            {"object": "block", "type": "paragraph", "data": {}, "nodes": [
                {"object": "text", "leaves": [{"object": "leaf", "text": "bell\u{7} and\r\nbreak", "marks": []}]}
            ]}
        ]
    });
    let markdown = display_markdown(&document);
    assert!(!markdown.contains("shown in the web app"), "{markdown}");
    assert!(markdown.contains("bell\u{7} and  break"), "{markdown:?}");
}
