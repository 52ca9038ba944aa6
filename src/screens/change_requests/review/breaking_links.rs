//! The merge pre-flight's links check: asked for when the pre-flight opens (a review alone
//! costs no link reads), then shown as a warning with every link it found beneath it, where
//! the box scrolls to them, or as a check that passes.

use super::ReviewScreen;
use super::preflight_line::PreflightLine;
use crate::api::ApiError;
use crate::screens::step::Ctx;
use crate::ui::sanitize::sanitize;
use crate::vocabulary::change_requests::{BreakingLink, ChangeRequestsCall, LinkCheckPage};
use crate::vocabulary::{ApiCall, Cmd, Loadable, RequestId};

/// The check's part of the pre-flight: a warning and its list, a passed line, or a note
/// (checking, or why it could not).
#[derive(Debug, Default)]
pub(super) struct LinkLines {
    pub warning: Vec<PreflightLine>,
    pub passed: Option<PreflightLine>,
    pub note: Option<PreflightLine>,
}

impl ReviewScreen {
    /// Asks which links a merge would break, for the pages the change request changed. A
    /// change request whose changes could not be read is not checked: there is nothing to
    /// check against.
    pub(super) fn check_links(&mut self, ctx: &mut Ctx) -> Cmd {
        let changes_known = self
            .bundle
            .value()
            .is_some_and(|bundle| bundle.changes.is_ok());
        if !changes_known {
            self.breaking_links = Loadable::NotAsked;
            return Cmd::None;
        }
        let pages: Vec<LinkCheckPage> = self
            .pages
            .iter()
            .map(|row| LinkCheckPage {
                page: row.page.clone(),
                title: row.title.clone(),
                on_main: row.exists_on_main(),
                in_change_request: row.exists_in_change_request(),
            })
            .collect();
        if pages.is_empty() {
            self.breaking_links = Loadable::Loaded(Vec::new());
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.breaking_links.start(request);
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(ChangeRequestsCall::BreakingLinks {
                target: self.target.clone(),
                pages,
            }),
        }
    }

    /// The check's answer, when it is the one waited for.
    pub(super) fn on_breaking_links(
        &mut self,
        request: RequestId,
        result: &Result<Vec<BreakingLink>, ApiError>,
    ) -> bool {
        self.breaking_links.settle(request, result.clone())
    }
}

/// What the pre-flight says about links, from the check as it stands.
pub(super) fn link_lines(screen: &ReviewScreen) -> LinkLines {
    match &screen.breaking_links {
        Loadable::NotAsked => LinkLines::default(),
        Loadable::Loading { .. } => LinkLines {
            note: Some(PreflightLine::Note(
                "Checking which links would break…".into(),
            )),
            ..LinkLines::default()
        },
        Loadable::Failed { error, .. } => LinkLines {
            note: Some(PreflightLine::Note(format!(
                "Links not checked: {}",
                error.user_message()
            ))),
            ..LinkLines::default()
        },
        Loadable::Loaded(links) if links.is_empty() => LinkLines {
            passed: Some(PreflightLine::Passed("No link would break.".into())),
            ..LinkLines::default()
        },
        Loadable::Loaded(links) => LinkLines {
            warning: warning_with_list(links),
            ..LinkLines::default()
        },
    }
}

/// "⚠ N links would break:" and one line per link: where it is written and where it leads.
fn warning_with_list(links: &[BreakingLink]) -> Vec<PreflightLine> {
    let mut lines = vec![PreflightLine::Warning(format!(
        "{} would break:",
        crate::ui::time::plural(links.len(), "link", "links")
    ))];
    lines.extend(links.iter().map(|link| {
        PreflightLine::Note(format!(
            "· “{}” → {}",
            sanitize(&link.page_title),
            sanitize(&link.target)
        ))
    }));
    lines
}
