//! The change request's content beside its review: its files (`F`) and what links to the
//! selected changed page (`b`), through the same screens as a space's, with the change request
//! as their source.

use super::ReviewScreen;
use crate::api::ContentSource;
use crate::api::models::Space;
use crate::screens::route::Route;
use crate::screens::step::Step;
use crate::ui::keymap::Action;
use crate::vocabulary::links::LinkList;

pub(super) fn open(screen: &mut ReviewScreen, action: Action) -> Step {
    let source = ContentSource::ChangeRequest {
        space: screen.target.space.clone(),
        change_request: screen.target.change_request.clone(),
    };
    let space = screen
        .bundle
        .value()
        .and_then(|bundle| bundle.space.clone())
        .unwrap_or_else(|| Space::known_as(&screen.target.space, ""));
    let owner = screen
        .change_request()
        .map(|change_request| match change_request.number {
            Some(number) => format!("#{number} {}", change_request.subject),
            None => change_request.subject.clone(),
        })
        .unwrap_or_else(|| screen.target.change_request.clone());
    if action == Action::Files {
        return Step::open(Route::Files {
            source,
            space,
            owner,
        });
    }
    let Some(page) = screen
        .selected_page()
        .filter(|page| page.exists_in_change_request())
    else {
        screen.notice(
            "b shows what links to the selected changed page: choose one on the changes tab.",
            false,
        );
        return Step::default();
    };
    let list = LinkList::PageBacklinks {
        id: page.page.clone(),
        title: page.title.clone(),
    };
    Step::open(Route::Links {
        source,
        space,
        list,
    })
}
