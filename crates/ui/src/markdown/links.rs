//! Where a page's links were laid out: the reader highlights the focused one and scrolls to it.
//!
//! Links are found in the laid-out rows by their text: the rows keep styles, not where each
//! piece came from, and a link's text is drawn in the link style (patched over whatever style
//! surrounds it). Each link of the page, in reading order, is matched against the next run of
//! link-styled text that spells it, over as many rows as it wrapped to.

use ratatui::style::Style;

use super::{DocLink, PageLayout};
use crate::text::width as text_width;

/// A piece of a laid-out link: `(row, first column, end column)`, in cells.
pub(super) type LinkPiece = (usize, u16, u16);

/// One laid-out link: the index of its [`DocLink`] and the pieces of rows it covers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkSpot {
    pub link: usize,
    pub pieces: Vec<LinkPiece>,
}

impl LinkSpot {
    /// The row the link starts on.
    pub fn row(&self) -> usize {
        self.pieces.first().map_or(0, |piece| piece.0)
    }
}

/// Text without its spaces, which wrapping moves or drops.
fn compact(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A link being matched: what is left to find and the pieces found so far.
struct Matching {
    link: usize,
    wanted: String,
    found: usize,
    pieces: Vec<LinkPiece>,
}

impl PageLayout {
    /// Where each of `links` was laid out; a link whose text is not found (past a row limit,
    /// or with no text) has no spot.
    pub fn locate_links(&self, links: &[DocLink], link_style: Style) -> Vec<LinkSpot> {
        let mut spots = Vec::new();
        let mut next = 0;
        let mut current = start_matching(links, &mut next);
        if current.is_none() {
            return spots;
        }
        self.visit_rows(0..self.len(), &mut |row, segs| {
            let mut column = 0u16;
            for seg in segs {
                let width = u16::try_from(text_width(seg.text)).unwrap_or(u16::MAX);
                let start = column;
                column = column.saturating_add(width);
                if seg.style.patch(link_style) != seg.style {
                    continue;
                }
                let Some(matching) = current.as_mut() else {
                    break;
                };
                let text = compact(seg.text);
                if text.is_empty() {
                    continue;
                }
                if !matching.wanted[matching.found..].starts_with(&text) {
                    // Not the rest of this link: maybe its beginning, else other text.
                    matching.found = 0;
                    matching.pieces.clear();
                    if !matching.wanted.starts_with(&text) {
                        continue;
                    }
                }
                matching.found += text.len();
                matching.pieces.push((row, start, column));
                if matching.found == matching.wanted.len() {
                    spots.push(LinkSpot {
                        link: matching.link,
                        pieces: std::mem::take(&mut matching.pieces),
                    });
                    current = start_matching(links, &mut next);
                }
            }
            current.is_some()
        });
        spots
    }
}

/// The next link with text to look for, from `next` on.
fn start_matching(links: &[DocLink], next: &mut usize) -> Option<Matching> {
    while let Some(link) = links.get(*next) {
        let index = *next;
        *next += 1;
        let wanted = compact(&link.text);
        if !wanted.is_empty() {
            return Some(Matching {
                link: index,
                wanted,
                found: 0,
                pieces: Vec::new(),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::LinkPiece;
    use crate::markdown::MarkdownDoc;
    use crate::theme::Theme;

    fn spots(markdown: &str, width: u16) -> Vec<(usize, Vec<LinkPiece>)> {
        let theme = Theme::default();
        let doc = MarkdownDoc::parse(markdown, &theme);
        let doc = std::sync::Arc::new(doc);
        doc.link_spots(&doc.page_layout(width))
            .into_iter()
            .map(|spot| (spot.link, spot.pieces))
            .collect()
    }

    #[test]
    fn links_are_found_in_reading_order_with_their_columns() {
        let found = spots(
            "See [one](a.md) and [two](#b).\n\n[three](https://x.example)",
            60,
        );
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found[0], (0, vec![(0, 4, 7)]));
        assert_eq!(found[1].0, 1);
        assert_eq!(found[2].0, 2);
        assert_eq!(found[2].1[0].0, 2, "the third link is on the third row");
    }

    #[test]
    fn a_wrapped_link_has_a_piece_on_each_row() {
        let found = spots("Some words then [a long link text](x.md)", 20);
        assert_eq!(found.len(), 1);
        assert!(found[0].1.len() >= 2, "{found:?}");
    }

    #[test]
    fn links_in_emphasis_headings_and_tables_are_found() {
        let markdown = "# Title [here](#x)\n\n*an [emphasised](e.md) link*\n\n| a | b |\n|---|---|\n| [cell](c.md) | 2 |\n";
        let found = spots(markdown, 60);
        let links: Vec<usize> = found.iter().map(|spot| spot.0).collect();
        assert_eq!(links, vec![0, 1, 2], "{found:?}");
    }
}
