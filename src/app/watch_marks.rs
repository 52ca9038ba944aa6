//! `W`: marks the change request selected or shown to watch, or unmarks it. The mark lives
//! in the cache's database (see `quire_api::home::marks`), so every quire on the account sees
//! it; Home lists marked change requests in "Watching" and pings when one moves.

use super::{ApiResponse, Cmd, Model, RequestId};
use crate::screens::Screen;
use crate::ui::notice::Notice;
use crate::vocabulary::ApiCall;
use crate::vocabulary::home::{HomeAnswer, HomeCall};

/// The mark asked for, and how the status line names its change request.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkAsked {
    pub request: RequestId,
    pub label: String,
}

pub(super) fn toggle(model: &mut Model) -> Cmd {
    let Some(watchable) = model.top().watchable() else {
        model.toast = Some(Notice::info(
            "W watches a change request: select one (Home, a list) or open its review.",
        ));
        return crate::vocabulary::Cmd::None;
    };
    let request = model.requests.issue();
    model.watch_mark_asked = Some(MarkAsked {
        request,
        label: watchable.label,
    });
    Cmd::Api {
        request,
        call: ApiCall::Home(HomeCall::ToggleMark {
            space: watchable.space,
            change_request: watchable.change_request,
        }),
    }
}

/// The answer to a mark asked here: said on the status line, and Home (on top, or below the
/// screen the mark was made on) gathers again so that its "Watching" section shows it.
pub(super) fn own_answer(
    model: &mut Model,
    request: RequestId,
    response: &ApiResponse,
) -> Option<Cmd> {
    let asked = model
        .watch_mark_asked
        .take_if(|asked| asked.request == request)?;
    let ApiResponse::Home(HomeAnswer::Marked(marked)) = response else {
        return Some(Cmd::None);
    };
    model.toast = Some(match marked {
        Ok(true) => Notice::info(format!(
            "Watching {}: a ping when it moves (W stops).",
            asked.label
        )),
        Ok(false) => Notice::info(format!("No longer watching {}.", asked.label)),
        Err(why) => Notice::error(format!("{} is not watched: {why}.", asked.label)),
    });
    let (mut ctx, screens) = super::update::ctx(model);
    let home = screens
        .iter_mut()
        .find(|screen| matches!(screen, Screen::Home(_)));
    Some(home.map_or(Cmd::None, |home| home.refresh(&mut ctx)))
}
