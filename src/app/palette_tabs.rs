//! The tabs of the current organization as palette entries: `: Translations` opens that tab
//! of the nearest organization on the stack, as `]` would after a few presses.

use super::palette::{Entry, EntryKind, Target};
use super::update::ctx;
use super::{Cmd, Model};
use crate::screens::Screen;
use crate::screens::organization::Tab;
use crate::ui::sanitize::sanitize;

/// Every tab of the topmost organization screen but the one it shows; none without one.
pub(super) fn tab_entries(screens: &[Screen]) -> Vec<Entry> {
    let Some((owner, organization)) =
        screens
            .iter()
            .enumerate()
            .rev()
            .find_map(|(index, screen)| match screen {
                Screen::Organization(organization) => Some((index, organization)),
                _ => None,
            })
    else {
        return Vec::new();
    };
    let shown_on_top = owner + 1 == screens.len();
    let title = sanitize(&organization.organization.title).into_owned();
    Tab::ALL
        .into_iter()
        .filter(|tab| !(shown_on_top && *tab == organization.tab))
        .map(|tab| Entry {
            id: format!("tab:{}", tab.label()),
            label: format!("{} tab", tab.label()),
            detail: format!("tab · {title}"),
            kind: EntryKind::GoTo {
                owner,
                target: Box::new(Target::Tab(tab)),
            },
        })
        .collect()
}

/// Shows `tab` on the organization screen at `owner` (brought to the top by the palette).
pub(super) fn show_tab(model: &mut Model, owner: usize, tab: Tab) -> Cmd {
    let (mut screen_ctx, screens) = ctx(model);
    match screens.get_mut(owner) {
        Some(Screen::Organization(organization)) => organization.show_tab(tab, &mut screen_ctx),
        _ => Cmd::None,
    }
}
