//! The keymap's own checks: normalising keys, searching contexts, parsing, overrides, help.

use super::*;
use std::collections::HashMap;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
    KeyEvent {
        code,
        modifiers,
        kind: KeyEventKind::Press,
        state: ratatui::crossterm::event::KeyEventState::NONE,
    }
}

#[test]
fn upper_case_g_with_shift_is_bottom() {
    let keymap = Keymap::default();
    let shifted_g = key(KeyCode::Char('G'), KeyModifiers::SHIFT);
    assert_eq!(
        keymap.action_for(&[KeyContext::List], &shifted_g),
        Some(Action::Bottom)
    );
}

#[test]
fn shift_tab_from_a_terminal_is_previous_tab() {
    let keymap = Keymap::default();
    let from_terminal = key(KeyCode::BackTab, KeyModifiers::SHIFT);
    assert_eq!(
        keymap.action_for(&[KeyContext::Tabs], &from_terminal),
        Some(Action::PreviousTab)
    );
}

#[test]
fn contexts_are_searched_in_order() {
    let keymap = Keymap::default();
    let esc = key(KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(
        keymap.action_for(&[KeyContext::List, KeyContext::Global], &esc),
        Some(Action::Back)
    );
    let j = key(KeyCode::Char('j'), KeyModifiers::NONE);
    assert_eq!(keymap.action_for(&[KeyContext::Global], &j), None);
}

#[test]
fn keys_parse_and_print_round_trip() {
    for text in [
        "ctrl-d",
        "G",
        "enter",
        "esc",
        "pgdn",
        "space",
        "f5",
        "shift-tab",
        "/",
    ] {
        let combo = KeyCombo::parse(text).unwrap();
        assert_eq!(KeyCombo::parse(&combo.to_string()), Some(combo), "{text}");
    }
    assert_eq!(KeyCombo::parse("nonsense"), None);
}

#[test]
fn overrides_rebind_an_action() {
    let mut keymap = Keymap::default();
    let overrides = HashMap::from([("down".to_string(), vec!["n".to_string()])]);
    keymap.apply_overrides(&overrides).unwrap();
    let n = key(KeyCode::Char('n'), KeyModifiers::NONE);
    let j = key(KeyCode::Char('j'), KeyModifiers::NONE);
    assert_eq!(
        keymap.action_for(&[KeyContext::List], &n),
        Some(Action::Down)
    );
    assert_eq!(keymap.action_for(&[KeyContext::List], &j), None);
    let bad = HashMap::from([("fly".to_string(), vec!["x".to_string()])]);
    assert!(keymap.apply_overrides(&bad).is_err());
}

#[test]
fn help_lists_every_bound_action_once() {
    let rows = Keymap::default().help_rows(&[KeyContext::Reader, KeyContext::Global]);
    assert!(
        rows.iter()
            .any(|(keys, help)| keys == "t" && *help == "table of contents")
    );
    let searches = rows.iter().filter(|(_, h)| *h == "search in page").count();
    assert_eq!(searches, 1);
}

#[test]
fn browse_moves_like_a_list_but_has_no_filter() {
    let keymap = Keymap::default();
    let list = keymap.help_rows(&[KeyContext::List]);
    let browse = keymap.help_rows(&[KeyContext::Browse]);
    let filter = Action::Filter.help();
    assert!(list.iter().any(|(_, help)| *help == filter));
    assert!(
        !browse.iter().any(|(_, help)| *help == filter),
        "{browse:?}"
    );
    let without_filter: Vec<_> = list
        .into_iter()
        .filter(|(_, help)| *help != filter)
        .collect();
    assert_eq!(browse, without_filter);
}

#[test]
fn the_outbox_key_is_bound_in_no_context_but_the_global_one() {
    let keymap = Keymap::default();
    let caret = KeyCombo::parse("^").expect("^ parses");
    let owners: Vec<_> = keymap
        .bindings
        .iter()
        .filter(|binding| binding.key == caret)
        .map(|binding| (binding.context, binding.action))
        .collect();
    assert_eq!(owners, vec![(KeyContext::Global, Action::OutboxView)]);
}
