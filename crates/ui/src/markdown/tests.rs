use std::time::{Duration, Instant};

use ratatui::style::{Color, Modifier};
use ratatui::text::Line;

use super::*;

const SAMPLE: &str = include_str!("testdata/sample.md");

fn theme() -> Theme {
    Theme::default()
}

fn doc(markdown: &str) -> MarkdownDoc {
    MarkdownDoc::parse(markdown, &theme())
}

fn line_text(line: &Line<'_>) -> String {
    line.spans
        .iter()
        .map(|span| span.content.as_ref())
        .collect()
}

fn plain(layout: &DocLayout) -> Vec<String> {
    layout.lines.iter().map(line_text).collect()
}

fn render(markdown: &str, width: u16) -> Vec<String> {
    plain(&doc(markdown).layout(width))
}

/// The style of the span holding `needle` on the first row that has it.
fn span_style(layout: &DocLayout, needle: &str) -> ratatui::style::Style {
    layout
        .lines
        .iter()
        .flat_map(|line| line.spans.iter())
        .find(|span| span.content.contains(needle))
        .map(|span| span.style)
        .unwrap_or_else(|| panic!("no span contains {needle:?} in {:#?}", plain(layout)))
}

fn assert_fits(layout: &DocLayout) {
    for (row, line) in layout.lines.iter().enumerate() {
        assert!(
            line.width() <= usize::from(layout.width),
            "row {row} is {} cells wide at width {}: {:?}",
            line.width(),
            layout.width,
            line_text(line)
        );
    }
}

// ----- constructs -----

#[test]
fn headings_are_styled_ruled_and_listed() {
    let page = doc("# Title\n\ntext\n\n## Part two\n\n### Detail {#detail .x}\n");
    let layout = page.layout(40);
    assert_eq!(
        plain(&layout),
        [
            "Title",
            "═════",
            "",
            "text",
            "",
            "Part two",
            "────────",
            "",
            "Detail"
        ]
    );
    assert!(
        span_style(&layout, "Title")
            .add_modifier
            .contains(Modifier::BOLD)
    );
    assert_eq!(
        page.headings(),
        [
            Heading {
                level: 1,
                text: "Title".into()
            },
            Heading {
                level: 2,
                text: "Part two".into()
            },
            Heading {
                level: 3,
                text: "Detail".into()
            },
        ]
    );
    assert_eq!(layout.heading_rows, [0, 5, 8]);
}

#[test]
fn deep_headings_are_styled_without_markers() {
    let markdown = "### Three\n\n#### Four\n\n##### Five\n\n###### Six\n\nBody\n";
    let layout = doc(markdown).layout(40);
    assert_eq!(
        plain(&layout),
        ["Three", "", "Four", "", "Five", "", "Six", "", "Body"]
    );
    let body = span_style(&layout, "Body");
    for (level, text) in [(3, "Three"), (4, "Four"), (5, "Five"), (6, "Six")] {
        let style = span_style(&layout, text);
        assert_eq!(style, theme().heading(level), "{text}");
        assert_ne!(style, body, "{text} must stand out from body text");
        assert!(
            !style.add_modifier.is_empty(),
            "{text} keeps a modifier for terminals without colour"
        );
    }
}

#[test]
fn inline_styles_carry_meaning() {
    let layout = doc("*it* **bold** ~~gone~~ `code`").layout(40);
    assert_eq!(plain(&layout), ["it bold gone code"]);
    assert!(
        span_style(&layout, "it")
            .add_modifier
            .contains(Modifier::ITALIC)
    );
    assert!(
        span_style(&layout, "bold")
            .add_modifier
            .contains(Modifier::BOLD)
    );
    assert!(
        span_style(&layout, "gone")
            .add_modifier
            .contains(Modifier::CROSSED_OUT)
    );
    assert_eq!(span_style(&layout, "code"), theme().style("inline_code"));
}

#[test]
fn links_show_their_target_unless_it_is_the_text() {
    let layout =
        doc("[Guide](https://x.test/guide) and <https://x.test> and <me@x.test>").layout(80);
    assert_eq!(
        plain(&layout),
        ["Guide ⟨https://x.test/guide⟩ and https://x.test and me@x.test"]
    );
    assert_eq!(span_style(&layout, "Guide"), theme().style("link"));
    assert_eq!(span_style(&layout, "⟨https"), theme().style("link_target"));
}

#[test]
fn images_are_labelled_placeholders() {
    assert_eq!(
        render("![A cat](cat.png)\n\n![](x.png)", 40),
        ["🖼 A cat ⟨cat.png⟩", "", "🖼 image ⟨x.png⟩"]
    );
    assert_eq!(
        render(
            "<figure><img src=\"a.png\" alt=\"Chart\"><figcaption>Q3</figcaption></figure>",
            40
        ),
        ["🖼 Chart ⟨a.png⟩", "", "Q3"]
    );
}

#[test]
fn nested_lists_indent_and_wrapped_items_hang() {
    let markdown = "- one two three four\n  - nested item text\n- last\n";
    assert_eq!(
        render(markdown, 12),
        [
            "• one two",
            "  three four",
            "  ◦ nested",
            "    item",
            "    text",
            "• last"
        ]
    );
}

#[test]
fn numbered_lists_start_at_their_number() {
    assert_eq!(render("3. c\n4. d\n", 20), ["3. c", "4. d"]);
    assert_eq!(
        render("9. nine\n10. ten ten\n", 8),
        ["9. nine", "10. ten", "    ten"]
    );
}

#[test]
fn loose_lists_keep_blank_rows_between_items() {
    assert_eq!(render("- a\n\n- b\n", 20), ["• a", "", "• b"]);
}

#[test]
fn task_lists_show_boxes() {
    let layout = doc("- [x] done\n- [ ] todo\n").layout(20);
    assert_eq!(plain(&layout), ["☑ done", "☐ todo"]);
    assert_eq!(span_style(&layout, "☑"), theme().style("list_marker"));
}

#[test]
fn quotes_have_bars_and_nest() {
    assert_eq!(
        render("> outer\n>\n> > inner\n", 20),
        ["│ outer", "│", "│ │ inner"]
    );
    assert!(
        span_style(&doc("> q").layout(10), "q")
            .add_modifier
            .contains(Modifier::ITALIC)
    );
}

#[test]
fn github_alerts_are_callouts() {
    let layout = doc("> [!TIP]\n> Use the keyboard.\n").layout(30);
    assert_eq!(plain(&layout), ["▌ ✔ Tip", "▌ Use the keyboard."]);
    assert_eq!(
        span_style(&layout, "▌").fg,
        theme().style("hint_success").fg
    );
}

#[test]
fn rules_and_breaks() {
    assert_eq!(render("a\n\n---\n\nb", 5), ["a", "", "─────", "", "b"]);
    assert_eq!(render("a  \nb\\\nc\nd", 20), ["a", "b", "c d"]);
}

#[test]
fn footnotes_are_marked_and_defined_where_they_stand() {
    let lines = render(
        "Text[^1] and[^note].\n\n[^1]: First.\n[^note]: Second.\n",
        30,
    );
    assert_eq!(lines[0], "Text¹ and².");
    assert!(lines.contains(&"¹ First.".to_string()), "{lines:#?}");
    assert!(lines.contains(&"² Second.".to_string()), "{lines:#?}");
}

#[test]
fn footnotes_are_numbered_by_first_reference_across_gitbook_blocks() {
    // The demo's quickstart: a hint block between the reference and the definition puts them
    // in different markdown chunks.
    let markdown = "Limits apply[^limits] and[^Other].\n\n\
                    {% hint style=\"info\" %}\nA hint.\n{% endhint %}\n\n\
                    Again[^limits].\n\n\
                    [^other]: Second note.\n\
                    [^limits]: Burst capacity is twice the rate.\n";
    let lines = render(markdown, 60);
    assert_eq!(lines[0], "Limits apply¹ and².", "{lines:#?}");
    assert!(lines.contains(&"Again¹.".to_string()), "{lines:#?}");
    assert!(lines.contains(&"² Second note.".to_string()), "{lines:#?}");
    assert!(
        lines.contains(&"¹ Burst capacity is twice the rate.".to_string()),
        "{lines:#?}"
    );
    assert!(!lines.iter().any(|line| line.contains("[^")), "{lines:#?}");
    // The placeholders that make the references work are never shown.
    assert!(!lines.iter().any(|line| line.contains(" -")), "{lines:#?}");
}

#[test]
fn front_matter_is_not_shown() {
    assert_eq!(render("---\ntitle: x\n---\n\nBody\n", 20), ["Body"]);
}

#[test]
fn tables_align_columns() {
    let markdown = "| L | C | R |\n|:--|:-:|--:|\n| a | b | c |\n| long | mid | 1 |\n";
    let layout = doc(markdown).layout(40);
    assert_eq!(
        plain(&layout),
        [
            "┌──────┬─────┬───┐",
            "│ L    │  C  │ R │",
            "├──────┼─────┼───┤",
            "│ a    │  b  │ c │",
            "│ long │ mid │ 1 │",
            "└──────┴─────┴───┘",
        ]
    );
    assert!(
        span_style(&layout, "L")
            .add_modifier
            .contains(Modifier::BOLD)
    );
}

#[test]
fn narrow_tables_wrap_cells_then_become_records() {
    let markdown = "| Name | Description |\n|---|---|\n| quire | a terminal reader for docs |\n";
    let wrapped = render(markdown, 24);
    assert!(
        wrapped
            .iter()
            .all(|line| line.starts_with(['┌', '│', '├', '└'])),
        "{wrapped:#?}"
    );
    assert!(wrapped.len() > 5);
    assert_eq!(
        render(markdown, 10),
        [
            "Name:",
            "quire",
            "Descriptio",
            "n: a",
            "terminal",
            "reader for",
            "docs"
        ]
    );
}

// ----- code -----

#[test]
fn code_blocks_have_a_labelled_gutter() {
    let layout = doc("```rust title=\"main.rs\"\nfn main() {\n    go();\n}\n```\n").layout(40);
    assert_eq!(
        plain(&layout),
        [
            "╭─ rust · main.rs",
            "│ fn main() {",
            "│     go();",
            "│ }",
            "╰─"
        ]
    );
    assert_eq!(span_style(&layout, "╭─"), theme().style("code_border"));
}

#[test]
fn long_code_lines_wrap_under_the_gutter() {
    assert_eq!(
        render("```\nabcdefghij\n```", 7),
        ["╭─", "│ abcde", "│ fghij", "╰─"]
    );
}

#[test]
fn highlighting_colours_known_languages_only() {
    let page = doc("```rust\nfn main() { let x = \"s\"; }\n```\n\n```klingon\nnuqneH\n```\n");
    let options = RenderOptions {
        color_depth: ColorDepth::TrueColor,
        ..RenderOptions::default()
    };
    let highlighted = page.highlighted(&theme(), &options);
    let layout = highlighted.layout(60);
    assert_eq!(plain(&layout), plain(&page.layout(60)));
    let code_row = &layout.lines[1];
    assert!(
        code_row
            .spans
            .iter()
            .any(|span| matches!(span.style.fg, Some(Color::Rgb(..)))),
        "{code_row:?}"
    );
    assert_eq!(
        span_style(&layout, "nuqneH").fg,
        theme().style("code_block").fg
    );
}

#[test]
fn without_highlighting_code_stays_plain() {
    let page = doc("```rust\nfn main() { let x = \"s\"; }\n```\n");
    let options = RenderOptions {
        color_depth: ColorDepth::TrueColor,
        highlight: false,
        ..RenderOptions::default()
    };
    let layout = page.highlighted(&theme(), &options).layout(60);
    assert_eq!(layout, page.layout(60));
}

#[test]
fn sixteen_colour_highlighting_uses_named_colours() {
    let page = doc("```python\ndef f(x):\n    return 'y' + 1\n```\n");
    let options = RenderOptions {
        color_depth: ColorDepth::Ansi16,
        ..RenderOptions::default()
    };
    let layout = page.highlighted(&theme(), &options).layout(60);
    let colours: Vec<Color> = layout
        .lines
        .iter()
        .flat_map(|line| line.spans.iter())
        .filter_map(|span| span.style.fg)
        .collect();
    assert!(
        colours
            .iter()
            .any(|colour| *colour != Color::DarkGray && *colour != Color::Reset)
    );
    assert!(
        colours
            .iter()
            .all(|colour| !matches!(colour, Color::Rgb(..) | Color::Indexed(_)))
    );
}

// ----- GitBook blocks -----

#[test]
fn hints_are_callouts_with_rendered_markdown() {
    let layout =
        doc("{% hint style=\"danger\" %}\nDo **not** run this.\n{% endhint %}\n").layout(30);
    assert_eq!(plain(&layout), ["▌ ✖ Danger", "▌ Do not run this."]);
    assert_eq!(span_style(&layout, "▌").fg, theme().style("hint_danger").fg);
    assert!(
        span_style(&layout, "not")
            .add_modifier
            .contains(Modifier::BOLD)
    );
}

#[test]
fn tabs_become_titled_sections() {
    let markdown = "{% tabs %}\n{% tab title=\"A\" %}\nalpha\n{% endtab %}\n{% tab title=\"B\" %}\nbeta\n{% endtab %}\n{% endtabs %}\n";
    let layout = doc(markdown).layout(30);
    assert_eq!(plain(&layout), ["▸ A", "  alpha", "", "▸ B", "  beta"]);
    assert_eq!(span_style(&layout, "▸ A"), theme().style("tab_title"));
}

#[test]
fn code_tags_title_and_number_their_fence() {
    let markdown = "{% code title=\"x.rs\" overflow=\"wrap\" lineNumbers=\"true\" %}\n```rust\na\nb\n```\n{% endcode %}\n";
    assert_eq!(
        render(markdown, 30),
        ["╭─ rust · x.rs", "│ 1 a", "│ 2 b", "╰─"]
    );
}

#[test]
fn embeds_content_refs_and_other_tags_are_labelled() {
    let markdown = "{% embed url=\"https://v.test/1\" %}\n\n{% content-ref url=\"a.md\" %}\n[Advanced](a.md)\n{% endcontent-ref %}\n\n{% include \"x.md\" %}\n\n{% file src=\"f.pdf\" %}\n\n{% openapi src=\"s.yaml\" path=\"/pets\" method=\"get\" %}\n{% endopenapi %}\n\n{% weird a=\"b\" %}\n";
    let lines = render(markdown, 60);
    assert_eq!(
        lines,
        [
            "⧉ Embed: https://v.test/1",
            "",
            "→ Advanced (a.md)",
            "",
            "⤷ Include: x.md",
            "",
            "📎 File: f.pdf",
            "",
            "⚙ OpenAPI: GET /pets (s.yaml)",
            "",
            "◇ weird a=b",
        ]
    );
    assert!(lines.iter().all(|line| !line.contains("{%")));
}

#[test]
fn steppers_and_swagger_blocks_have_labels() {
    let markdown = "{% stepper %}\n{% step %}\nOne\n{% endstep %}\n{% step %}\nTwo\n{% endstep %}\n{% endstepper %}\n\n{% swagger method=\"post\" path=\"/v1/x\" baseUrl=\"https://api.test\" summary=\"Make\" %}\n{% swagger-parameter in=\"body\" name=\"id\" type=\"String\" required=\"true\" %}\nThe id.\n{% endswagger-parameter %}\n{% swagger-response status=\"200: OK\" %}\nok\n{% endswagger-response %}\n{% endswagger %}\n";
    let lines = render(markdown, 60);
    assert!(lines.contains(&"◆ Step 1".to_string()), "{lines:#?}");
    assert!(lines.contains(&"◆ Step 2".to_string()), "{lines:#?}");
    assert!(
        lines.contains(&"⚙ API: POST https://api.test/v1/x — Make".to_string()),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|line| line.contains("• id (body, String, required)")),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|line| line.contains("↩ Response 200: OK")),
        "{lines:#?}"
    );
    assert!(lines.iter().all(|line| !line.contains("{%")));
}

#[test]
fn tags_inside_fenced_code_stay_code() {
    let lines = render("```\n{% hint style=\"info\" %}\n```\n", 40);
    assert_eq!(lines, ["╭─", "│ {% hint style=\"info\" %}", "╰─"]);
}

// ----- safety -----

#[test]
fn page_text_is_sanitized() {
    let hostile = "Title\u{1b}]0;pwned\u{7} [x\u{1b}[2J](http://a\u{9b}b) `c\u{202e}d`\n\n```\nx\u{1b}y\n```\n";
    let layout = doc(hostile).layout(80);
    for line in &layout.lines {
        for span in &line.spans {
            assert!(
                !span
                    .content
                    .chars()
                    .any(|c| c.is_control() || c == '\u{202e}'),
                "{span:?}"
            );
        }
    }
}

#[test]
fn no_row_is_ever_wider_than_the_width() {
    let page = doc(SAMPLE);
    let highlighted = page.highlighted(&theme(), &RenderOptions::default());
    for width in 1..=120 {
        assert_fits(&page.layout(width));
        assert_fits(&highlighted.layout(width));
    }
}

/// Colouring adds runs over the page's text and never copies it: a 1 MB page and its
/// highlighted copy hold one text, one list of runs and one list of blocks between them (the
/// peak of reading a big page), and the plain parse still draws plain.
#[test]
fn the_highlighted_copy_shares_the_plain_parse() {
    let page = doc(SAMPLE);
    let plain_rows = page.layout(60).lines;
    let highlighted = page.highlighted(&theme(), &RenderOptions::default());
    assert!(
        highlighted
            .store
            .buffer
            .shares_text_with(&page.store.buffer)
    );
    assert!(Arc::ptr_eq(&highlighted.store.blocks, &page.store.blocks));
    assert_ne!(
        highlighted.layout(60).lines,
        plain_rows,
        "the copy is coloured"
    );
    assert_eq!(
        page.layout(60).lines,
        plain_rows,
        "the plain parse is as it was"
    );
}

#[test]
fn width_zero_is_empty_and_one_still_works() {
    let page = doc(SAMPLE);
    let empty = page.layout(0);
    assert!(empty.lines.is_empty());
    assert_eq!(empty.heading_rows.len(), page.headings().len());
    let narrow = page.layout(1);
    assert!(!narrow.lines.is_empty());
    assert_eq!(narrow.heading_rows.len(), page.headings().len());
}

#[test]
fn heading_rows_point_at_the_headings() {
    let page = doc(SAMPLE);
    for width in [20, 80] {
        let layout = page.layout(width);
        for (heading, row) in page.headings().iter().zip(&layout.heading_rows) {
            let first_word = heading.text.split_whitespace().next().unwrap_or_default();
            assert!(
                line_text(&layout.lines[*row]).contains(first_word),
                "{heading:?} at row {row}"
            );
        }
    }
}

#[test]
fn the_first_screenful_matches_the_full_layout() {
    let page = doc(SAMPLE);
    let first = page.layout_first(80, 24);
    let full = page.layout(80);
    assert_eq!(first.lines.len(), 24);
    assert_eq!(first.lines[..], full.lines[..24]);
}

// ----- hostile pages: each must finish (a guard against a runaway; speed is benched) -----

fn assert_quick(name: &str, markdown: &str) -> DocLayout {
    let started = Instant::now();
    let page = doc(markdown);
    let layout = page.layout(80);
    let narrow = page.layout(7);
    assert_fits(&layout);
    assert_fits(&narrow);
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(60), "{name} took {elapsed:?}");
    layout
}

#[test]
fn deeply_nested_quotes_finish_and_stop_indenting() {
    let markdown = ">".repeat(100_000) + " deep\n";
    let layout = assert_quick("nested quotes", &markdown);
    let lines = plain(&layout);
    let notices = lines
        .iter()
        .filter(|line| line.contains("nested deeper than"))
        .count();
    assert_eq!(notices, 1, "{lines:#?}");
    assert!(lines.iter().any(|line| line.ends_with("deep")));
}

#[test]
fn deeply_nested_lists_finish() {
    let markdown = "- ".repeat(100_000) + "deep\n";
    let layout = assert_quick("nested lists", &markdown);
    assert!(plain(&layout).iter().any(|line| line.ends_with("deep")));
}

#[test]
fn many_quote_lines_finish() {
    let markdown = "> > > > > > > > > > > > > > > quoted line\n".repeat(100_000);
    assert_quick("quote lines", &markdown);
}

#[test]
fn a_five_megabyte_paragraph_finishes() {
    let words = "lorem ipsum dolor sit amet ".repeat(5 * 1024 * 1024 / 27);
    assert_quick("long paragraph", &words);
    let one_word = "x".repeat(5 * 1024 * 1024);
    let layout = assert_quick("long word", &one_word);
    assert_eq!(layout.lines.len(), (5 * 1024 * 1024usize).div_ceil(80));
}

#[test]
fn a_table_with_a_thousand_columns_finishes() {
    let header: String = (0..1000)
        .map(|index| format!("| h{index} "))
        .collect::<String>()
        + "|\n";
    let rule = "|---".repeat(1000) + "|\n";
    let row: String = (0..1000)
        .map(|index| format!("| v{index} "))
        .collect::<String>()
        + "|\n";
    let markdown = header + &rule + &row.repeat(20);
    let layout = assert_quick("wide table", &markdown);
    assert!(plain(&layout).contains(&"h999: v999".to_string()));
}

#[test]
fn huge_pages_end_with_a_truncation_line() {
    let markdown = "para\n\n".repeat(MAX_ROWS);
    let layout = doc(&markdown).layout(80);
    assert!(layout.lines.len() <= MAX_ROWS + 1);
    assert_eq!(
        layout.lines.last().map(line_text).as_deref(),
        Some("… page truncated")
    );
}

#[test]
fn deep_gitbook_nesting_finishes() {
    let markdown = "{% hint %}\n".repeat(20_000) + "x\n" + &"{% endhint %}\n".repeat(20_000);
    assert_quick("nested hints", &markdown);
}

// ----- find -----

#[test]
fn find_is_case_insensitive_and_counts_cells() {
    let layout = doc("Hello world\n\n日本 HELLO").layout(40);
    assert_eq!(
        layout.find("hello"),
        [
            TextMatch {
                row: 0,
                start: 0,
                end: 5
            },
            TextMatch {
                row: 2,
                start: 5,
                end: 10
            },
        ]
    );
    assert_eq!(
        layout.find("本"),
        [TextMatch {
            row: 2,
            start: 2,
            end: 4
        }]
    );
    assert!(layout.find("").is_empty());
    assert!(layout.find("absent").is_empty());
}

// ----- snapshots -----

#[test]
fn sample_document_at_80_columns() {
    insta::assert_snapshot!(plain(&doc(SAMPLE).layout(80)).join("\n"));
}

#[test]
fn sample_document_at_40_columns() {
    insta::assert_snapshot!(plain(&doc(SAMPLE).layout(40)).join("\n"));
}

#[test]
fn documents_can_cross_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<MarkdownDoc>();
    assert_send_sync::<DocLayout>();
}

// ----- on-demand layout -----

fn kept_and_on_demand(page: &Arc<MarkdownDoc>, width: u16) -> (PageLayout, PageLayout) {
    (
        layout::layout(page, width, MAX_ROWS, true),
        page.page_layout(width),
    )
}

fn texts(lines: &[Line<'_>]) -> Vec<String> {
    lines.iter().map(line_text).collect()
}

/// A page laid out on demand draws, searches and finds headings and links exactly as one with
/// every row kept: read whole, a screenful at a time scrolling down and up, and jumping about.
#[test]
fn an_on_demand_layout_shows_what_a_kept_one_shows() {
    let long = SAMPLE.repeat(12);
    for markdown in [SAMPLE, long.as_str()] {
        let page = Arc::new(doc(markdown).highlighted(&theme(), &RenderOptions::default()));
        for width in [1, 7, 40, 80, 200] {
            let (kept, on_demand) = kept_and_on_demand(&page, width);
            let rows = kept.len();
            assert_eq!(on_demand.len(), rows, "width {width}");
            assert_eq!(on_demand.heading_rows, kept.heading_rows, "width {width}");
            assert_eq!(
                on_demand.lines(0..rows),
                kept.lines(0..rows),
                "width {width}"
            );
            let screen = 23;
            let mut tops: Vec<usize> = (0..rows).step_by(1).take(300).collect();
            tops.extend((0..rows).rev().take(300));
            tops.extend([rows / 2, 0, rows.saturating_sub(1), rows / 3, rows + 5]);
            for top in tops {
                assert_eq!(
                    texts(&on_demand.lines(top..top + screen)),
                    texts(&kept.lines(top..top + screen)),
                    "width {width}, rows from {top}"
                );
            }
            for query in ["the", "e", "table", "zzz-none"] {
                assert_eq!(on_demand.find(query), kept.find(query), "{query:?}");
            }
            assert_eq!(page.link_spots(&on_demand), page.link_spots(&kept));
        }
    }
}

/// The layout the reader keeps of a long page holds the row count of each block, not its rows.
#[test]
fn an_on_demand_layout_keeps_no_rows_until_drawn() {
    let page = Arc::new(doc(&SAMPLE.repeat(40)));
    let (kept, on_demand) = kept_and_on_demand(&page, 80);
    assert!(
        on_demand.heap_bytes() * 4 < kept.heap_bytes(),
        "on demand {} bytes, kept {}",
        on_demand.heap_bytes(),
        kept.heap_bytes()
    );
    let top = on_demand.len() / 2;
    assert_eq!(
        texts(&on_demand.lines(top..top + 24)),
        texts(&kept.lines(top..top + 24))
    );
    assert!(on_demand.heap_bytes() * 2 < kept.heap_bytes());
}

#[test]
fn an_on_demand_layout_of_a_huge_page_ends_with_the_truncation_line() {
    let page = Arc::new(doc(&"para\n\n".repeat(MAX_ROWS)));
    let (kept, on_demand) = kept_and_on_demand(&page, 80);
    assert_eq!(on_demand.len(), kept.len());
    let end = kept.len();
    assert_eq!(
        texts(&on_demand.lines(end - 3..end)),
        texts(&kept.lines(end - 3..end))
    );
    assert_eq!(
        texts(&on_demand.lines(end - 1..end)),
        vec!["… page truncated".to_string()]
    );
    assert_eq!(on_demand.heading_rows, kept.heading_rows);
}
