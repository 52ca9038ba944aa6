//! The files of a space or of a change request: name, type, size and pixel size; `enter` shows
//! a file's details, `b` what links to it, `y` copies its download address (OSC 52) and `o`
//! opens it.

mod view;

use ratatui::layout::Rect;

use crate::api::ContentSource;
use crate::api::models::{File, Space};
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::route::Route;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::vocabulary::files::{FilesCall, FilesResponse};
use crate::vocabulary::links::LinkList;
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, Loadable, RequestId};

#[derive(Debug)]
pub struct FilesScreen {
    pub source: ContentSource,
    /// The space the content belongs to, to read a linking page in.
    pub space: Space,
    /// Whose files: the space's title, or the change request's.
    pub owner: String,
    pub files: PagedList<File>,
    pub selection: Selection,
    /// The file whose details are open, as read again by id.
    pub details: Option<Loadable<File>>,
}

impl FilesScreen {
    pub fn new(source: ContentSource, space: Space, owner: impl Into<String>) -> FilesScreen {
        FilesScreen {
            source,
            space,
            owner: owner.into(),
            files: PagedList::default(),
            selection: Selection::default(),
            details: None,
        }
    }

    pub fn selected(&self) -> Option<&File> {
        self.files.items.get(self.selection.selected)
    }

    /// The file the keys act on: the one whose details are open, else the selected one.
    fn current(&self) -> Option<&File> {
        self.details
            .as_ref()
            .and_then(Loadable::value)
            .or_else(|| self.selected())
    }

    fn call(&self, ctx: &mut Ctx, call: FilesCall) -> (RequestId, Cmd) {
        let request = ctx.requests.issue();
        let cmd = Cmd::Api {
            request,
            call: ApiCall::Files(call),
        };
        (request, cmd)
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let call = FilesCall::List {
            source: self.source.clone(),
            cursor: None,
        };
        let (request, cmd) = self.call(ctx, call);
        self.files.restart(request);
        cmd
    }

    fn load_more(&mut self, ctx: &mut Ctx) -> Cmd {
        let source = self.source.clone();
        self.files
            .next_page(self.selection.selected, ctx.requests)
            .map_or(Cmd::None, |next| {
                next.ask(|cursor| ApiCall::Files(FilesCall::List { source, cursor }))
            })
    }

    /// Opens the details of the selected file, shown at once from the list and read again.
    fn open_details(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(file) = self.selected().cloned() else {
            return Cmd::None;
        };
        let call = FilesCall::Get {
            source: self.source.clone(),
            file: file.id.clone(),
        };
        let (request, cmd) = self.call(ctx, call);
        let mut details = Loadable::Loaded(file);
        details.start(request);
        self.details = Some(details);
        cmd
    }

    fn backlinks(&self) -> Option<Step> {
        let file = self.current()?;
        let list = LinkList::FileBacklinks {
            id: file.id.clone(),
            name: file.name.clone(),
        };
        Some(Step::open(Route::Links {
            source: self.source.clone(),
            space: self.space.clone(),
            list,
        }))
    }
}

impl ScreenState for FilesScreen {
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn title(&self) -> String {
        format!("Files · {}", self.owner)
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Files, KeyContext::List]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        vec![
            (Action::Open, "details"),
            (Action::Backlinks, "what links here"),
            (Action::CopyLink, "copy address"),
            (Action::OpenInBrowser, "open"),
            (Action::Back, "back"),
            (Action::Help, "keys"),
        ]
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if self.details.is_some() && matches!(action, Action::Back | Action::Open) {
            self.details = None;
            return Some(Step::default());
        }
        let len = self.files.items.len();
        let page = ctx.size.height.saturating_sub(6).max(1) as isize;
        match action {
            _ if self.details.is_none()
                && crate::screens::step::move_selection(&mut self.selection, action, len, page) =>
            {
                Some(Step::cmd(self.load_more(ctx)))
            }
            Action::Open => Some(Step::cmd(self.open_details(ctx))),
            Action::Backlinks => self.backlinks(),
            _ => None,
        }
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Files(response) = response else {
            return None;
        };
        match response {
            FilesResponse::Files(result) => {
                if !self.files.settle(request, result.clone()) {
                    return None;
                }
                self.selection.clamp(self.files.items.len());
                Some(Step::cmd(self.load_more(ctx)))
            }
            FilesResponse::File(result) => {
                let details = self.details.as_mut()?;
                details.settle(request, result.clone()).then(Step::default)
            }
        }
    }

    /// `y` copies and `o` opens the file's download address.
    fn link(&self) -> Option<String> {
        self.current()?.download_url.clone()
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        view::draw(self, frame, area, look);
    }
}

/// A size in bytes as people read it: `512 B`, `40.2 KiB`, `1.1 MiB`.
pub fn human_size(bytes: f64) -> String {
    if !bytes.is_finite() || bytes < 0.0 {
        return "?".to_string();
    }
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{value:.0} {}", UNITS[unit])
    } else if value < 10.0 {
        format!("{value:.1} {}", UNITS[unit])
    } else {
        format!("{value:.0} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::human_size;

    #[test]
    fn sizes_read_like_people_say_them() {
        assert_eq!(human_size(512.0), "512 B");
        assert_eq!(human_size(482_113.0), "471 KiB");
        assert_eq!(human_size(1_204_932.0), "1.1 MiB");
        assert_eq!(human_size(-1.0), "?");
        assert_eq!(human_size(f64::NAN), "?");
        assert!(human_size(1e30).ends_with(" TiB"));
    }
}
