//! The change request's description (`D`: edited as text in the composer or `$EDITOR`, through
//! the one Document editor) and its PDF (`P`: of the whole change request, or of the page
//! selected on the changes tab).

use super::{ComposeTarget, Confirmation, Overlay, PendingWrite, ReviewScreen, ReviewTab};
use crate::screens::step::Ctx;
use crate::ui::address_popup::AddressPopup;
use crate::ui::composer::Composer;
use crate::ui::document::{self, EditableText};
use crate::vocabulary::Cmd;
use crate::vocabulary::change_requests::ChangeRequestsCall;

/// The description as the editor starts from: the server's, as text.
fn current(screen: &ReviewScreen) -> EditableText {
    screen
        .change_request()
        .and_then(|cr| cr.description.as_ref())
        .map(document::to_text)
        .unwrap_or_default()
}

/// Opens the composer on the description: the unsent draft if there is one, else the
/// description as text. The title says how many blocks stay as they are.
pub(super) fn open_editor(screen: &mut ReviewScreen) {
    let editable = current(screen);
    let key = screen.draft_key(&ComposeTarget::Description);
    let text = screen
        .drafts
        .get(&key)
        .cloned()
        .unwrap_or_else(|| editable.text.clone());
    let title = match document::kept_notice(editable.kept.len()) {
        Some(kept) => format!("Description — {kept}"),
        None => "Description".to_string(),
    };
    let mut composer = Composer::new(title, &text);
    // Clearing a description is a change like any other.
    composer.allow_blank = true;
    screen.description_kept = editable.kept;
    screen.overlay = Some(Overlay::Composer {
        target: ComposeTarget::Description,
        draft_key: key,
        composer,
    });
}

/// True when the text is the description as it was: nothing to send or to ask about.
pub(super) fn is_unchanged(screen: &ReviewScreen, text: &str) -> bool {
    let original = crate::ui::sanitize::sanitize_multiline(&current(screen).text).into_owned();
    text.trim_end() == original.trim_end()
}

/// ctrl-s in the description's composer: refuse a placeholder that stands for nothing, close
/// on an unchanged text, ask first when blocks are kept, else send. Returns whether the
/// composer stays open.
pub(super) fn submit(
    screen: &mut ReviewScreen,
    draft_key: &str,
    composer: &mut Composer,
    ctx: &mut Ctx,
) -> (Cmd, bool) {
    let text = composer.text();
    if is_unchanged(screen, &text) {
        screen.drafts.remove(draft_key);
        screen.notice("The description is unchanged: nothing was sent.", false);
        let key = draft_key.to_string();
        return (Cmd::DiscardDraft { key }, false);
    }
    let document = match document::from_text(&text, &screen.description_kept) {
        Ok(document) => document,
        Err(error) => {
            composer.error = Some(error);
            return (Cmd::None, true);
        }
    };
    let kept = document::to_text(&document).kept.len();
    if kept > 0 {
        screen.overlay = Some(Overlay::Confirm(Confirmation::SetDescription {
            document,
            kept,
            draft_key: draft_key.to_string(),
        }));
        return (Cmd::None, false);
    }
    composer.submitting = true;
    composer.error = None;
    (send(screen, document, draft_key, ctx), true)
}

/// Sends the description alone (the subject and status are not touched).
pub(super) fn send(
    screen: &mut ReviewScreen,
    document: serde_json::Value,
    draft_key: &str,
    ctx: &mut Ctx,
) -> Cmd {
    let call = ChangeRequestsCall::SetDescription {
        target: screen.target.clone(),
        document,
    };
    let pending = PendingWrite::Description {
        draft_key: draft_key.to_string(),
    };
    screen.send(ctx, call, pending)
}

/// `P`: on the changes tab the selected page's PDF (a page the change request deletes has
/// none, so the whole change request's), elsewhere the whole change request's.
pub(super) fn ask_for_pdf(screen: &mut ReviewScreen, ctx: &mut Ctx) -> Cmd {
    let page = match screen.tab {
        ReviewTab::Changes => screen
            .selected_page()
            .filter(|row| row.exists_in_change_request())
            .map(|row| (row.page.clone(), row.title.clone())),
        _ => None,
    };
    let what = match &page {
        Some((_, title)) => format!("Asking for the PDF of “{title}”…"),
        None => "Asking for the change request's PDF…".to_string(),
    };
    screen.notice(what, false);
    let call = ChangeRequestsCall::Pdf {
        target: screen.target.clone(),
        page: page.as_ref().map(|(id, _)| id.clone()),
    };
    let pending = PendingWrite::Pdf {
        page: page.map(|(_, title)| title),
    };
    screen.send(ctx, call, pending)
}

/// The PDF's address came: shown in a popup to copy or open.
pub(super) fn show_pdf(screen: &mut ReviewScreen, page: Option<String>, address: &str) {
    let number = screen
        .change_request()
        .and_then(|cr| cr.number)
        .map(|number| format!("#{number}"))
        .unwrap_or_else(|| "the change request".to_string());
    let title = match page {
        Some(page) => format!("PDF of “{page}” in {number}"),
        None => format!("PDF of {number}"),
    };
    screen.notice = None;
    screen.overlay = Some(Overlay::Pdf(AddressPopup::new(title, address)));
}
