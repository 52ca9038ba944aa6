//! The change request's content beside its review: its files (`F`), the links written on the
//! selected changed page (`l` on the changes tab, broken ones marked) and what links to it
//! (`b`), through the same screens as a space's, with the change request as their source.

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
        let words = if action == Action::LinksReport {
            "l lists the links of the selected changed page: choose one the change request keeps."
        } else {
            "b shows what links to the selected changed page: choose one on the changes tab."
        };
        screen.notice(words, false);
        return Step::default();
    };
    let (id, title) = (page.page.clone(), page.title.clone());
    let list = if action == Action::LinksReport {
        LinkList::Page { id, title }
    } else {
        LinkList::PageBacklinks { id, title }
    };
    Step::open(Route::Links {
        source,
        space,
        list,
    })
}
