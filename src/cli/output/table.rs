//! A list for a person (padded columns under a header, fitted to the terminal's width) or for
//! a pipe (one tab-separated line per record, no header, like gh).

use std::io::Write;

use serde_json::Value;
use unicode_width::UnicodeWidthStr;

use super::{Record, Streams};
use crate::ui::sanitize::sanitize;

/// Spaces between two columns of the table.
const GAP: usize = 2;

/// Prints `records` under `columns` as a table on a terminal, as tab-separated lines otherwise.
pub fn print(streams: &mut Streams, columns: &[&str], records: &[Record]) {
    let rows: Vec<Vec<String>> = records
        .iter()
        .map(|record| {
            columns
                .iter()
                .map(|field| cell(record.get(*field)))
                .collect()
        })
        .collect();
    if !streams.out_is_terminal {
        for row in rows {
            let _ = writeln!(streams.out, "{}", row.join("\t"));
        }
        return;
    }
    if rows.is_empty() {
        let _ = writeln!(streams.err, "Nothing to list.");
        return;
    }
    let headers: Vec<String> = columns.iter().map(|field| header(field)).collect();
    let widths = fitted_widths(&headers, &rows, usize::from(streams.width));
    let bold = |text: String| {
        if streams.colour {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text
        }
    };
    let header_line = bold(join_padded(&headers, &widths, &|_, text| text.to_string()));
    let _ = writeln!(streams.out, "{header_line}");
    let colour = streams.colour;
    for row in rows {
        let paint = |column: usize, text: &str| match colour
            .then(|| sgr_of(columns[column], text))
            .flatten()
        {
            Some(sgr) => format!("\x1b[{sgr}m{text}\x1b[0m"),
            None => text.to_string(),
        };
        let _ = writeln!(streams.out, "{}", join_padded(&row, &widths, &paint));
    }
}

/// A value as one line of text: strings as they are, null empty, anything else as JSON. Tabs
/// and newlines become spaces, so a cell never breaks a line or a column.
pub fn cell(value: Option<&Value>) -> String {
    let text = match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(Value::Bool(yes)) => if *yes { "yes" } else { "no" }.to_string(),
        Some(other) => other.to_string(),
    };
    sanitize(&text).into_owned()
}

/// `createdAt` → `CREATED AT`.
fn header(field: &str) -> String {
    let mut text = String::new();
    for c in field.chars() {
        if c.is_uppercase() {
            text.push(' ');
        }
        text.extend(c.to_uppercase());
    }
    text
}

/// Colour of a status cell (SGR parameters), in the 16 colours every terminal has.
fn sgr_of(field: &str, text: &str) -> Option<&'static str> {
    if field != "status" {
        return None;
    }
    match text {
        "open" => Some("32"),
        "merged" => Some("35"),
        "draft" => Some("2"),
        "archived" => Some("90"),
        _ => None,
    }
}

/// The column a person reads a row by: every list puts its subject or title second, after a
/// number or id.
const MAIN_COLUMN: usize = 1;

/// Narrowest a column is cut to.
const MIN_WIDTH: usize = 4;

/// The columns beside the main one are cut to this width before the main column gives way.
const SIDE_WIDTH: usize = 12;

/// Each column's width: as wide as its widest cell, the widest column cut down when the
/// whole is wider than the terminal. The other columns are cut to [`SIDE_WIDTH`] first, so a
/// subject stays readable beside an author's name or a space's id.
fn fitted_widths(headers: &[String], rows: &[Vec<String>], width: usize) -> Vec<usize> {
    let mut widths: Vec<usize> = headers.iter().map(|text| text.width()).collect();
    for row in rows {
        for (column, text) in row.iter().enumerate() {
            widths[column] = widths[column].max(text.width());
        }
    }
    let gaps = GAP * widths.len().saturating_sub(1);
    while widths.iter().sum::<usize>() + gaps > width {
        let weighed = |(column, width): &(usize, &usize)| {
            let beside = *column != MAIN_COLUMN && **width > SIDE_WIDTH;
            (beside, **width)
        };
        let Some((widest, _)) = widths
            .iter()
            .enumerate()
            .filter(|(_, width)| **width > MIN_WIDTH)
            .max_by_key(weighed)
        else {
            break;
        };
        widths[widest] -= 1;
    }
    widths
}

fn join_padded(
    cells: &[String],
    widths: &[usize],
    paint: &dyn Fn(usize, &str) -> String,
) -> String {
    let last = cells.len().saturating_sub(1);
    let mut line = String::new();
    for (column, text) in cells.iter().enumerate() {
        let fitted = fit(text, widths[column]);
        let pad = widths[column].saturating_sub(fitted.width());
        line.push_str(&paint(column, &fitted));
        if column < last {
            line.push_str(&" ".repeat(pad + GAP));
        }
    }
    line
}

/// `text` cut to `width` cells, ending in `…` when it was cut.
fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let mut kept = String::new();
    let mut used = 0;
    for c in text.chars() {
        let cells = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + cells + 1 > width {
            break;
        }
        kept.push(c);
        used += cells;
    }
    kept.push('…');
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_table_is_cut_to_the_terminal() {
        let headers = vec!["NUMBER".to_string(), "SUBJECT".to_string()];
        let rows = vec![vec!["1".to_string(), "x".repeat(100)]];
        let widths = fitted_widths(&headers, &rows, 40);
        assert_eq!(widths.iter().sum::<usize>() + GAP, 40);
        assert_eq!(fit(&"x".repeat(100), 10).width(), 10);
    }

    #[test]
    fn the_subject_keeps_more_room_than_the_columns_beside_it() {
        let headers: Vec<String> = ["NUMBER", "SUBJECT", "STATUS", "AUTHOR", "SPACE"]
            .map(str::to_string)
            .to_vec();
        let row = [
            "1",
            "Rewrite configuration reference for 3.2",
            "open",
            "Fatima Zahra El Idrissi",
            "spc-getting-started",
        ];
        let rows = vec![row.map(str::to_string).to_vec()];
        let widths = fitted_widths(&headers, &rows, 80);
        assert_eq!(widths.iter().sum::<usize>() + GAP * 4, 80);
        assert_eq!(widths, [6, 36, 6, 12, 12]);
        let narrow = fitted_widths(&headers, &rows, 40);
        assert_eq!(narrow.iter().sum::<usize>() + GAP * 4, 40, "{narrow:?}");
        assert_eq!(
            narrow[2],
            "STATUS".len(),
            "the short columns stay whole: {narrow:?}"
        );
    }

    #[test]
    fn cells_never_break_a_line_or_a_column() {
        let text = cell(Some(&Value::String("a\tb\nc".into())));
        assert!(!text.contains('\t') && !text.contains('\n'), "{text}");
        assert_eq!(header("createdAt"), "CREATED AT");
    }
}
