//! Table columns sized by their content: each column has a least width, a natural width (its
//! widest value or its header, measured over the rows) and a priority; the flexible column
//! (a subject, a title) takes what the others leave. Columns that do not fit even at their
//! least width are left out, least important first, so a value is never cut without an
//! ellipsis and a table never runs past its width.

use ratatui::style::Style;
use ratatui::text::Line;

use crate::text;

/// How one column is sized. Its cells are drawn by [`text::columns`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub header: &'static str,
    /// The least it is shown at; its values are cut (with `…`) down to it. Ignored for a
    /// column whose values stay whole.
    least: u16,
    /// Lower stays longer and grows first.
    priority: u8,
    /// Takes what is left once the other columns have their natural width.
    flex: bool,
    /// Never cut: as wide as its widest value, or left out.
    whole: bool,
}

impl Column {
    /// A column whose values may be cut with an ellipsis, down to `least` cells (never below
    /// its header's width).
    pub const fn cut(header: &'static str, least: u16, priority: u8) -> Column {
        Column {
            header,
            least,
            priority,
            flex: false,
            whole: false,
        }
    }

    /// A column whose values are never cut (numbers, dates, short words): it is as wide as
    /// its widest value or its header, or it is not shown.
    pub const fn whole(header: &'static str, priority: u8) -> Column {
        Column {
            header,
            least: 0,
            priority,
            flex: false,
            whole: true,
        }
    }

    /// The column that takes the room the others leave.
    pub const fn flex(mut self) -> Column {
        self.flex = true;
        self
    }
}

/// The columns shown (their indices, in table order) and the width of each.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sizing {
    pub shown: Vec<usize>,
    pub widths: Vec<u16>,
}

impl Sizing {
    /// The shown columns' headers.
    pub fn headers(&self, columns: &[Column]) -> Vec<&'static str> {
        self.shown
            .iter()
            .filter_map(|index| columns.get(*index).map(|column| column.header))
            .collect()
    }

    /// The shown cells of a row that has one cell per column.
    pub fn pick<'a, S: AsRef<str>>(&self, cells: &'a [S]) -> Vec<&'a str> {
        self.shown
            .iter()
            .map(|index| cells.get(*index).map_or("", AsRef::as_ref))
            .collect()
    }

    /// The header row.
    pub fn header_line(&self, columns: &[Column], style: Style) -> Line<'static> {
        text::columns(&self.headers(columns), &self.widths, style)
    }

    /// One row, its shown cells fitted to their widths.
    pub fn line<S: AsRef<str>>(&self, cells: &[S], style: Style) -> Line<'static> {
        text::columns(&self.pick(cells), &self.widths, style)
    }

    /// Cells the table takes: the widths and one space between columns.
    pub fn total(&self) -> usize {
        let cells: usize = self.widths.iter().map(|w| usize::from(*w)).sum();
        cells + self.widths.len().saturating_sub(1)
    }
}

/// Sizes `columns` for `rows` (one cell per column, as drawn) in `width` cells.
pub fn size<R, S>(columns: &[Column], rows: R, width: u16) -> Sizing
where
    R: IntoIterator,
    R::Item: AsRef<[S]>,
    S: AsRef<str>,
{
    let naturals = natural_widths(columns, rows);
    size_by_naturals(columns, &naturals, width)
}

/// The widest of each column's header and values, in cells; 0 for a column with rows but
/// not one value, which is left out rather than shown empty.
pub fn natural_widths<R, S>(columns: &[Column], rows: R) -> Vec<u16>
where
    R: IntoIterator,
    R::Item: AsRef<[S]>,
    S: AsRef<str>,
{
    let mut values = vec![0usize; columns.len()];
    let mut any_row = false;
    for row in rows {
        any_row = true;
        for (widest, cell) in values.iter_mut().zip(row.as_ref()) {
            let cells = text::width(&crate::sanitize::sanitize(cell.as_ref()));
            *widest = (*widest).max(cells);
        }
    }
    columns
        .iter()
        .zip(values)
        .map(|(column, widest)| match widest {
            0 if any_row => 0,
            _ => widest.max(text::width(column.header)),
        })
        .map(|natural| u16::try_from(natural).unwrap_or(u16::MAX))
        .collect()
}

/// Sizes columns whose natural widths are known (see [`natural_widths`]).
pub fn size_by_naturals(columns: &[Column], naturals: &[u16], width: u16) -> Sizing {
    let natural = |index: usize| naturals.get(index).copied().unwrap_or(0);
    let least = |index: usize| {
        let column = &columns[index];
        if column.whole {
            natural(index)
        } else {
            let header = u16::try_from(text::width(column.header)).unwrap_or(u16::MAX);
            column.least.max(header).min(natural(index))
        }
    };
    let mut by_priority: Vec<usize> = (0..columns.len()).filter(|i| natural(*i) > 0).collect();
    by_priority.sort_by_key(|index| (columns[*index].priority, !columns[*index].flex, *index));

    let mut widths: Vec<Option<u16>> = vec![None; columns.len()];
    let mut used = 0u16;
    for &index in &by_priority {
        let gap = u16::from(used > 0);
        let cells = least(index);
        if used == 0 {
            // The most important column always shows, cut to the width if it must be.
            let cells = cells.min(width);
            if cells > 0 {
                widths[index] = Some(cells);
                used = cells;
            }
        } else if used + gap + cells <= width {
            widths[index] = Some(cells);
            used += gap + cells;
        }
    }
    let mut room = width.saturating_sub(used);
    let shown_by_priority: Vec<usize> = by_priority
        .iter()
        .copied()
        .filter(|index| widths[*index].is_some())
        .collect();
    // Everyone toward their natural width, most important first; the flexible columns only
    // up to a third of the table here, so the columns after them are not starved.
    for &index in &shown_by_priority {
        let target = if columns[index].flex {
            natural(index).min(width / 3)
        } else {
            natural(index)
        };
        grow(&mut widths[index], target, &mut room);
    }
    // What is left goes to the flexible columns, up to their natural width: a column is never
    // wider than its widest value, and what no value needs stays blank at the right rather
    // than pushing the next columns away from the one they describe.
    let flexible: Vec<usize> = shown_by_priority
        .iter()
        .copied()
        .filter(|index| columns[*index].flex)
        .collect();
    for &index in &flexible {
        grow(&mut widths[index], natural(index), &mut room);
    }
    let shown: Vec<usize> = (0..columns.len())
        .filter(|i| widths[*i].is_some())
        .collect();
    let widths = shown.iter().filter_map(|index| widths[*index]).collect();
    Sizing { shown, widths }
}

fn grow(width: &mut Option<u16>, target: u16, room: &mut u16) {
    if let Some(width) = width {
        let extra = target.saturating_sub(*width).min(*room);
        *width += extra;
        *room -= extra;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHANGE_REQUESTS: [Column; 7] = [
        Column::whole("#", 0),
        Column::cut("Space", 10, 4),
        Column::cut("Subject", 12, 1).flex(),
        Column::cut("Author", 10, 3),
        Column::whole("Updated", 2),
        Column::whole("💬", 5),
        Column::whole("", 6),
    ];

    fn rows() -> Vec<Vec<String>> {
        [
            [
                "#7",
                "Getting Started",
                "Clarify token scopes in Quickstart",
                "Fatima Zahra El Idrissi",
                "11 months ago",
                "26",
                "",
            ],
            [
                "#1200",
                "Platform Runbooks",
                "Add a failover drill checklist",
                "Kwame Mensah",
                "3 years ago",
                "1800",
                "outdated",
            ],
        ]
        .iter()
        .map(|row| row.iter().map(|cell| cell.to_string()).collect())
        .collect()
    }

    fn sized(width: u16) -> Sizing {
        size(&CHANGE_REQUESTS, rows(), width)
    }

    fn width_of(sizing: &Sizing, header: &str) -> Option<u16> {
        let position = sizing
            .headers(&CHANGE_REQUESTS)
            .iter()
            .position(|shown| *shown == header)?;
        Some(sizing.widths[position])
    }

    #[test]
    fn wide_tables_show_every_value_whole_and_no_column_wider_than_its_values() {
        let sizing = sized(160);
        assert_eq!(sizing.shown.len(), 7);
        assert_eq!(width_of(&sizing, "Space"), Some(17));
        assert_eq!(width_of(&sizing, "Author"), Some(23));
        assert_eq!(width_of(&sizing, "Updated"), Some(13));
        assert_eq!(width_of(&sizing, "Subject"), Some(34));
        assert!(sizing.total() < 160);
    }

    #[test]
    fn at_eighty_the_subject_gets_the_spare_room_and_dates_stay_whole() {
        let sizing = sized(80);
        assert_eq!(sizing.shown.len(), 7);
        assert_eq!(sizing.widths, [5, 10, 24, 10, 13, 4, 8]);
        assert_eq!(sizing.total(), 80);
    }

    #[test]
    fn narrow_tables_leave_out_the_least_important_columns() {
        let sizing = sized(40);
        assert_eq!(sizing.headers(&CHANGE_REQUESTS)[..2], ["#", "Subject"]);
        assert!(!sizing.headers(&CHANGE_REQUESTS).contains(&"Space"));
        assert!(sizing.total() <= 40);
        assert_eq!(sized(3).headers(&CHANGE_REQUESTS), ["#"]);
        assert_eq!(sized(0), Sizing::default());
    }

    #[test]
    fn a_column_without_a_value_is_left_out_but_headers_show_over_no_rows() {
        let columns = [Column::cut("Name", 4, 0).flex(), Column::whole("SSO", 1)];
        let sizing = size(&columns, [["Ada", ""], ["Grace", ""]], 40);
        assert_eq!(sizing.shown, [0]);
        assert_eq!(sizing.widths, [5]);
        let none: [[&str; 2]; 0] = [];
        assert_eq!(size(&columns, none, 40).shown, [0, 1]);
    }

    /// At every width the table fits; from 20 cells on, whole columns are whole, cut columns
    /// end with an ellipsis, and no number is cut.
    #[test]
    fn at_every_width_values_are_whole_or_marked_cut() {
        let rows = rows();
        for width in 0..=200u16 {
            let sizing = sized(width);
            assert!(sizing.total() <= usize::from(width), "{width}: {sizing:?}");
            for row in &rows {
                let drawn = sizing.line(row, Style::default()).to_string();
                assert!(
                    text::width(&drawn) <= usize::from(width),
                    "{width}: {drawn}"
                );
                if width < 20 {
                    continue;
                }
                for (position, index) in sizing.shown.iter().enumerate() {
                    let cell = &row[*index];
                    let fitted = text::fit(cell, usize::from(sizing.widths[position]));
                    if fitted.trim_end() != cell.as_str() {
                        assert!(fitted.ends_with('…'), "{width}: {cell} as {fitted}");
                        assert!(!CHANGE_REQUESTS[*index].whole, "{width}: {cell} cut");
                    }
                }
                for number in drawn
                    .split(|c: char| !c.is_ascii_digit())
                    .filter(|part| !part.is_empty())
                {
                    assert!(
                        ["7", "11", "26", "1200", "3", "1800"].contains(&number),
                        "{width}: {number} in {drawn}"
                    );
                }
            }
        }
    }
}
