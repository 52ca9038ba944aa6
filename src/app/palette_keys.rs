//! Keys while the command palette is open, and running what it chose: an action, a place to go
//! to, a search.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::update::ctx;
use super::update::run_action;
use super::{Cmd, Model, Step, palette};
use crate::screens::Screen;

/// Keys while the palette is open: typing narrows, arrows choose, enter runs, esc closes.
pub(super) fn on_palette_key(model: &mut Model, key: &KeyEvent) -> Cmd {
    use crate::ui::input::InputOutcome;
    use ratatui::crossterm::event::KeyModifiers;
    let Some(palette) = model.palette.as_mut() else {
        return Cmd::None;
    };
    let len = palette.shown.len();
    let control = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Esc => model.palette = None,
        KeyCode::Char('c') if control => model.palette = None,
        KeyCode::Enter => return choose_in_palette(model),
        KeyCode::Up => palette.selection.move_by(-1, len),
        KeyCode::Down => palette.selection.move_by(1, len),
        KeyCode::Char('p') if control => palette.selection.move_by(-1, len),
        KeyCode::Char('n') if control => palette.selection.move_by(1, len),
        KeyCode::PageUp => palette.selection.move_by(-10, len),
        KeyCode::PageDown => palette.selection.move_by(10, len),
        _ => {
            if palette.input.handle_key(key) == InputOutcome::Changed {
                palette.refilter(&model.palette_history);
            }
        }
    }
    Cmd::None
}

/// Runs the entry selected in the palette and remembers it.
fn choose_in_palette(model: &mut Model) -> Cmd {
    let Some(entry) = model.palette.take().and_then(|p| p.chosen().cloned()) else {
        return Cmd::None;
    };
    let save = model.palette_history.remember(&entry.id);
    let run = match entry.kind {
        palette::EntryKind::Action(action) => run_action(model, action),
        palette::EntryKind::GoTo { owner, target } => go_to(model, owner, *target),
        palette::EntryKind::Search { scope, query } => {
            let screen = crate::screens::search::SearchScreen::with_query(scope, &query);
            model.apply_step(Step::push(Screen::Search(screen)))
        }
        palette::EntryKind::SwitchProfile(name) => {
            // Leaving this session is quitting it: unsaved work is asked about first.
            model.switch_profile = Some(name);
            run_action(model, crate::ui::keymap::Action::Quit)
        }
    };
    Cmd::batch([save, run])
}

/// Opens a place found in screen `owner`: the screens above the owner give way (unless one
/// holds unsaved work) and the screens a user would open from it are pushed, so `esc` walks
/// back the way a user would have come.
fn go_to(model: &mut Model, owner: usize, target: palette::Target) -> Cmd {
    // Already open just above its owner: go back to it rather than open it again.
    let open = model
        .screens
        .get(owner + 1)
        .is_some_and(|screen| target.is_shown_by(screen));
    let owner = if open { owner + 1 } else { owner };
    let above = model.screens.get(owner + 1..).unwrap_or_default();
    let mut cmd = Cmd::None;
    if !above.is_empty() && above.iter().all(|screen| screen.unsaved_work().is_none()) {
        model.screens.truncate(owner + 1);
        let (mut screen_ctx, screens) = ctx(model);
        if let Some(screen) = screens.last_mut() {
            cmd = screen.resumed(&mut screen_ctx);
        }
    }
    if let (palette::Target::Collection(id), Some(Screen::Organization(organization))) =
        (&target, model.screens.get_mut(owner))
    {
        organization.reveal_collection(id);
    }
    if let palette::Target::Tab(tab) = target {
        let shown = super::palette_tabs::show_tab(model, owner, tab);
        return Cmd::batch([cmd, shown]);
    }
    if open {
        return cmd;
    }
    for screen in target.screens() {
        let push = model.apply_step(Step::push(screen));
        cmd = Cmd::batch([cmd, push]);
    }
    cmd
}
