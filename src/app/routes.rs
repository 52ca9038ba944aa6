//! The screens that routes name, built here above every screen area: a screen asks for another
//! by its [`Route`] and never builds it itself.

use crate::screens::Screen;
use crate::screens::change_requests::ChangeRequestList;
use crate::screens::change_requests::review::ReviewScreen;
use crate::screens::files::FilesScreen;
use crate::screens::git::GitScreen;
use crate::screens::links::LinksScreen;
use crate::screens::page::PageScreen;
use crate::screens::route::Route;
use crate::screens::search::SearchScreen;

/// The screen `route` names, not entered yet.
pub(super) fn screen_of(route: Route) -> Screen {
    match route {
        Route::Page { space, page, known } => Screen::Page(PageScreen::new(space, page, known)),
        Route::Links {
            source,
            space,
            list,
        } => Screen::Links(LinksScreen::new(source, space, list)),
        Route::Files {
            source,
            space,
            owner,
        } => Screen::Files(FilesScreen::new(source, space, owner)),
        Route::Search(scope) => Screen::Search(SearchScreen::new(scope)),
        Route::Git(space) => Screen::Git(Box::new(GitScreen::new(space))),
        Route::ChangeRequests(space) => {
            Screen::ChangeRequests(ChangeRequestList::for_space(&space))
        }
        Route::Review {
            target,
            summary,
            siblings,
        } => {
            let mut review = ReviewScreen::new(target, summary);
            review.siblings = siblings;
            Screen::Review(Box::new(review))
        }
    }
}
