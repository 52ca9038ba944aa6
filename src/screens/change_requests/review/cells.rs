//! A comment on one cell of a table, from the diff: `c` on a row of a markdown table asks
//! which of its columns (or the whole table), and the comment goes with `tableCell`. The
//! table's shape (its columns' ids and titles, its rows' ids in order) comes from the page's
//! document; the n-th body line of the markdown table is its n-th row.

use ratatui::crossterm::event::KeyEvent;

use super::{ComposeTarget, Overlay, ReviewScreen};
use crate::api::models::TableCell;
use crate::api::models::revision::TableShape;
use crate::ui::diff::DiffSide;
use crate::ui::picker::{PickOption, PickOutcome, Picker};

/// The value of the picker's option that keeps the comment on the whole table.
const WHOLE_TABLE: &str = "";

/// A cell picked for a comment, with how to say it.
#[derive(Debug, Clone, PartialEq)]
pub struct CellPick {
    pub cell: TableCell,
    /// "row 2 › Price".
    pub words: String,
}

/// "row 2 › Price": the row by its place in the table (its id when the table does not have
/// it), the column by its title (its id when unknown).
pub fn cell_words(table: Option<&TableShape>, cell: &TableCell) -> String {
    let row = table
        .and_then(|table| table.rows.iter().position(|id| *id == cell.record))
        .map(|index| format!("row {}", index + 1))
        .unwrap_or_else(|| format!("row {}", cell.record));
    let column = table
        .and_then(|table| table.columns.iter().find(|(id, _)| *id == cell.definition))
        .map(|(_, title)| title.clone())
        .unwrap_or_else(|| cell.definition.clone());
    crate::ui::sanitize::sanitize(&format!("{row} › {column}")).into_owned()
}

/// The cells of a markdown table's line: `| a | b |` → `["a", "b"]`.
fn line_cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner
        .split('|')
        .map(|cell| cell.trim().to_string())
        .collect()
}

impl ReviewScreen {
    /// The table `page`'s block `node` is, by what its document said.
    pub fn table_of(&self, page: &str, node: &str) -> Option<&TableShape> {
        self.diff_threads
            .tables
            .get(&(page.to_string(), node.to_string()))
    }

    /// The body row (0-based) of the table block `node` the diff's cursor is on, with that
    /// line's text: None on the header, its rule, a removed line or another block.
    fn table_row_at_cursor(&self, page: &str, node: &str) -> Option<(usize, String, String)> {
        let table = self.table_of(page, node)?;
        let view = self.diff_view.as_ref()?;
        let origin = view.origin(self.cursor_row_now()?)?;
        if origin.side == DiffSide::Old {
            return None;
        }
        let line = origin.new_line?;
        let placement = &self.diff_threads.placement;
        if placement.node_at(line) != Some(node) {
            return None;
        }
        let row = line.checked_sub(placement.first_line_of(line)? + 2)?;
        let record = table.rows.get(row)?.clone();
        let text = self
            .sides
            .value()?
            .change_request
            .lines()
            .nth(line - 1)?
            .to_string();
        Some((row, record, text))
    }

    /// `c` on the changes tab: the cell picker when the cursor is on a row of a table,
    /// else straight to the composer (false).
    pub(super) fn open_cell_picker(&mut self, target: &ComposeTarget) -> bool {
        let ComposeTarget::BlockComment {
            page,
            node: Some(node),
            note: None,
            ..
        } = target
        else {
            return false;
        };
        let Some((row, record, text)) = self.table_row_at_cursor(page, node) else {
            return false;
        };
        let Some(table) = self.table_of(page, node) else {
            return false;
        };
        let values = line_cells(&text);
        let mut options: Vec<PickOption> = table
            .columns
            .iter()
            .enumerate()
            .map(|(index, (id, title))| PickOption {
                value: id.clone(),
                label: title.clone(),
                detail: values.get(index).cloned().unwrap_or_default(),
            })
            .collect();
        options.push(PickOption {
            value: WHOLE_TABLE.to_string(),
            label: "The whole table".to_string(),
            detail: "A comment on the table, not one of its cells.".to_string(),
        });
        let title = format!("Comment on which cell of row {}?", row + 1);
        let mut picker = Picker::new(&title, options, target.clone());
        // The row rides in the picker's purpose: the cursor may not move while it is open.
        if let ComposeTarget::BlockComment { cell, .. } = &mut picker.purpose {
            *cell = Some(CellPick {
                cell: TableCell {
                    record,
                    definition: String::new(),
                },
                words: String::new(),
            });
        }
        self.overlay = Some(Overlay::Cell(picker));
        true
    }

    /// Keys for the cell picker: enter opens the composer on the cell (or on the whole
    /// table), esc drops the comment.
    pub(super) fn on_cell_picker_key(
        &mut self,
        mut picker: Picker<ComposeTarget>,
        key: &KeyEvent,
    ) -> Option<ComposeTarget> {
        match picker.handle_key(key) {
            PickOutcome::Pending => {
                self.overlay = Some(Overlay::Cell(picker));
                None
            }
            PickOutcome::Cancelled => None,
            PickOutcome::Picked(values) => {
                let column = values.into_iter().next()?;
                let mut target = picker.purpose;
                if let ComposeTarget::BlockComment {
                    page, node, cell, ..
                } = &mut target
                {
                    let record = cell.take().map(|pick| pick.cell.record);
                    *cell = match (record, node.as_deref()) {
                        (Some(record), Some(node)) if column != WHOLE_TABLE => {
                            let picked = TableCell {
                                record,
                                definition: column,
                            };
                            Some(CellPick {
                                words: cell_words(self.table_of(page, node), &picked),
                                cell: picked,
                            })
                        }
                        _ => None,
                    };
                }
                Some(target)
            }
        }
    }
}
