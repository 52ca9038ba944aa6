//! What a command does to the drafts on disk, read out of a batch.

use quire::app::Cmd;

/// Every command in `cmd`, batches opened.
pub fn flat(cmd: &Cmd) -> Vec<&Cmd> {
    match cmd {
        Cmd::Batch(parts) => parts.iter().flat_map(flat).collect(),
        other => vec![other],
    }
}

/// The text `cmd` writes as the draft `key`, if it writes one.
pub fn saved_draft(cmd: &Cmd, key: &str) -> Option<String> {
    flat(cmd).into_iter().find_map(|part| match part {
        Cmd::SaveDraft { key: saved, text } if saved == key => Some(text.clone()),
        _ => None,
    })
}

/// Whether `cmd` removes the draft `key`.
pub fn discards_draft(cmd: &Cmd, key: &str) -> bool {
    flat(cmd)
        .into_iter()
        .any(|part| matches!(part, Cmd::DiscardDraft { key: gone } if gone == key))
}

/// Whether `cmd` asks for the drafts under `prefix`.
pub fn loads_drafts(cmd: &Cmd, prefix: &str) -> bool {
    flat(cmd)
        .into_iter()
        .any(|part| matches!(part, Cmd::LoadDrafts { prefix: asked } if asked == prefix))
}
