use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{ResultRow, SearchScreen};
use crate::screens::look::Look;
use crate::ui::hit::Canvas;
use crate::ui::sanitize::sanitize;
use crate::ui::theme::Theme;
use crate::ui::{status, text};

/// Characters of a section's text kept before its first match, so the match shows even when
/// the text is long and the terminal narrow.
const CONTEXT_BEFORE_MATCH: usize = 12;

pub(super) fn draw(screen: &SearchScreen, frame: &mut Canvas, area: Rect, look: &Look) {
    let theme = look.theme;
    let [input_area, status_area, body] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
    ])
    .areas(area);
    draw_input(screen, frame, input_area, theme);
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(
            summary(screen),
            theme.style(if screen.problem.is_some() {
                "error"
            } else {
                "muted"
            }),
        ))),
        status_area,
    );
    if let Some(error) = &screen.results.error
        && screen.rows.is_empty()
    {
        // The query field takes `r` as a letter: `enter` sends the query again.
        status::error_retried_by(frame, body, look, error, "enter");
        return;
    }
    if screen.rows.is_empty() {
        let message = if screen.query().is_empty() {
            "Type to search; ↑↓ choose a result, enter reads it at that section."
        } else if screen.results.is_loading() || screen.searched.as_deref() != Some(screen.query())
        {
            "Searching…"
        } else {
            "Nothing found."
        };
        status::empty(frame, body, look, message);
        return;
    }
    let range = screen
        .selection
        .visible_range(screen.rows.len(), body.height as usize);
    frame
        .hits
        .record_rows(body, range.clone(), screen.selection.selected);
    let query = screen.searched.clone().unwrap_or_default();
    let lines: Vec<Line> = screen.rows[range.clone()]
        .iter()
        .enumerate()
        .map(|(offset, row)| {
            let selected = range.start + offset == screen.selection.selected;
            row_line(screen, *row, &query, selected, theme)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), body);
}

fn draw_input(screen: &SearchScreen, frame: &mut Frame, area: Rect, theme: &Theme) {
    let label = if screen.scope.is_organization() {
        "Search the organization: "
    } else {
        "Search the space: "
    };
    let query_style = if screen.typing {
        theme.style("text")
    } else {
        theme.style("muted")
    };
    let line = Line::from(vec![
        Span::styled(label, theme.style("accent")),
        Span::styled(sanitize(&screen.input.text).into_owned(), query_style),
    ]);
    frame.render_widget(Paragraph::new(line), area);
    if screen.typing {
        let x = area.x + (text::width(label) + screen.input.cursor_column()) as u16;
        if x < area.right() {
            frame.set_cursor_position(Position::new(x, area.y));
        }
    }
}

/// "12 pages in 3 spaces · more below", a loading note, or why the query was not sent.
fn summary(screen: &SearchScreen) -> String {
    if let Some(problem) = &screen.problem {
        return problem.clone();
    }
    let pages: usize = screen
        .results
        .items
        .iter()
        .map(|space| space.pages.len())
        .sum();
    if screen.searched.is_none() || !screen.results.loaded_once() {
        return String::new();
    }
    let mut text = match (screen.scope.is_organization(), pages) {
        (_, 1) => "1 page".to_string(),
        (true, _) => format!(
            "{pages} pages in {}",
            crate::ui::time::plural(screen.results.items.len() as i64, "space", "spaces")
        ),
        (false, _) => format!("{pages} pages"),
    };
    if screen.results.has_more() {
        text.push_str(" · more below");
    }
    if screen.results.is_loading() {
        text.push_str(" · searching…");
    }
    text
}

fn row_line(
    screen: &SearchScreen,
    row: ResultRow,
    query: &str,
    selected: bool,
    theme: &Theme,
) -> Line<'static> {
    let Some((space, page, section)) = screen.hit(row) else {
        return Line::default();
    };
    let base = if selected {
        theme.style("selection")
    } else {
        theme.style("text")
    };
    let matched = theme.style("match");
    let mut spans = Vec::new();
    match (page, section) {
        (None, _) => {
            let style = if selected { base } else { theme.style("title") };
            spans.push(Span::styled(format!("▸ {}", sanitize(&space.title)), style));
        }
        (Some(page), None) => {
            spans.push(Span::styled("  ", base));
            spans.extend(text::highlight(
                &sanitize(&page.title),
                query,
                base,
                matched,
            ));
            let crumbs: Vec<String> = page
                .ancestors
                .iter()
                .map(|ancestor| sanitize(&ancestor.title).into_owned())
                .collect();
            if !crumbs.is_empty() {
                let muted = if selected { base } else { theme.style("muted") };
                spans.push(Span::styled(format!("  · {}", crumbs.join(" › ")), muted));
            }
        }
        (Some(_), Some(section)) => {
            spans.push(Span::styled("    § ", base));
            spans.extend(text::highlight(
                &sanitize(&section.title),
                query,
                base,
                matched,
            ));
            if let Some(body) = section.body.as_deref().filter(|body| !body.is_empty()) {
                let muted = if selected { base } else { theme.style("muted") };
                spans.push(Span::styled(" — ", muted));
                let body = around_first_match(&sanitize(&plain_text(body)), query);
                spans.extend(text::highlight(&body, query, muted, matched));
            }
        }
    }
    Line::from(spans)
}

/// A section's text as a reader sees it: markdown marks, links' addresses and GitBook's
/// `{% … %}` tags left out.
fn plain_text(markdown: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser};
    let without_tags = without_gitbook_tags(markdown);
    // Tables, strikethrough and task lists as GitBook writes them, so their marks go too.
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut text = String::new();
    for event in Parser::new_ext(&without_tags, options) {
        match event {
            Event::Text(piece) | Event::Code(piece) => text.push_str(&piece),
            Event::SoftBreak | Event::HardBreak | Event::End(_) => text.push(' '),
            _ => {}
        }
    }
    text
}

/// `markdown` without GitBook's `{% … %}` tags, on a line of their own or inside one.
fn without_gitbook_tags(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut rest = markdown;
    while let Some(start) = rest.find("{%") {
        let Some(length) = rest[start..].find("%}") else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push(' ');
        rest = &rest[start + length + 2..];
    }
    out.push_str(rest);
    out
}

/// `text` from a little before the first case-insensitive match of `query`, with `…` when
/// the start was cut.
fn around_first_match(text: &str, query: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let characters: Vec<char> = flat.chars().collect();
    let lower: Vec<char> = characters
        .iter()
        .map(|character| character.to_lowercase().next().unwrap_or(*character))
        .collect();
    let needle: Vec<char> = query
        .chars()
        .map(|character| character.to_lowercase().next().unwrap_or(character))
        .collect();
    let first = if needle.is_empty() {
        None
    } else {
        lower
            .windows(needle.len())
            .position(|window| window == needle)
    };
    match first {
        Some(at) if at > CONTEXT_BEFORE_MATCH => {
            let start = at - CONTEXT_BEFORE_MATCH;
            let rest: String = characters[start..].iter().collect();
            // Start at a word when one begins close by.
            let rest = match rest.find(' ') {
                Some(space) if space < CONTEXT_BEFORE_MATCH => rest[space + 1..].to_string(),
                _ => rest,
            };
            format!("…{rest}")
        }
        _ => flat,
    }
}

#[cfg(test)]
mod tests {
    use super::{around_first_match, plain_text};

    #[test]
    fn snippets_are_plain_text() {
        let markdown = "{% hint style=\"info\" %}\nUse **scoped** tokens, see [Token scopes](token-scopes.md) and `fleet:write`.\n{% endhint %}\n\n- one\n- two";
        let plain = plain_text(markdown);
        let words = plain.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            words,
            "Use scoped tokens, see Token scopes and fleet:write. one two"
        );
    }

    #[test]
    fn snippets_leave_out_tables_strikes_and_inline_tags() {
        let markdown = "| Scope | Grants |\n| --- | --- |\n| `fleet:write` | ~~all~~ missions |\n\nSee {% content-ref url=\"a.md\" %}the guide{% endcontent-ref %} now.\n\n- [x] done";
        let plain = plain_text(markdown);
        let words = plain.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            words,
            "Scope Grants fleet:write all missions See the guide now. done"
        );
    }

    #[test]
    fn the_text_starts_near_its_first_match() {
        let text = "one two three four five six seven eight nine ten token here";
        let cut = around_first_match(text, "TOKEN");
        assert!(cut.starts_with('…'), "{cut}");
        assert!(cut.contains("token here"));
        assert!(cut.len() < text.len());
        assert_eq!(around_first_match("token first", "token"), "token first");
        assert_eq!(
            around_first_match("İİİİİİİİİİİİİİİİİİİİ x", "x"),
            "…İİİİİİİİİİİ x"
        );
    }
}
