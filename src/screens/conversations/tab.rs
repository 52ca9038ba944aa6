//! The organization's Clusters tab: issues clusters with their stats, sources and
//! weekly pulse, in the order the API offers (`s` last updated / created, `O` newest / oldest),
//! of one status with `S` (all, active, archived; sent only to a server that has clusters);
//! `v` switches to the conversations list, filtered by source with `f`; `i` ingests a
//! conversation from a JSON file. `enter` opens a cluster's issues or a conversation's
//! transcript; `c` opens the change requests linked to the cluster.

use std::collections::BTreeSet;

use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use super::{ClusterIssuesScreen, ConversationScreen};
use crate::api::models::{Conversation, IssuesCluster, Organization};
use crate::api::{ClusterOrder, ClusterSort, ClusterStatus};
use crate::screens::Screen;
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::organization::pane::notice_modal_esc;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::notice::Notice;
use crate::ui::prompt::{Prompt, TextCheck};
use crate::vocabulary::conversations::{ConversationsCall, ConversationsResponse};
use crate::vocabulary::paged::PagedList;
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, RequestId};

/// Which list the tab shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClustersView {
    #[default]
    Clusters,
    Conversations,
}

/// The ingest prompt's text: a path to a file.
#[derive(Debug, Clone, PartialEq)]
pub struct IngestPath;

impl TextCheck for IngestPath {
    fn check(&self, text: &str) -> Option<String> {
        text.trim()
            .is_empty()
            .then(|| "the path of a conversation JSON file".to_string())
    }
}

#[derive(Debug)]
pub struct ClustersTab {
    pub organization: String,
    pub organization_title: String,
    /// Whether the caller administers the organization: ingesting needs it.
    pub admin: bool,
    pub view: ClustersView,
    pub order: ClusterOrder,
    /// The clusters' status filter; every status when `None`.
    pub status: Option<ClusterStatus>,
    pub clusters: PagedList<IssuesCluster>,
    pub cluster_selection: Selection,
    pub conversations: PagedList<Conversation>,
    pub conversation_selection: Selection,
    /// The source the conversations list is filtered by.
    pub source: Option<String>,
    pub ingest: Option<Prompt<IngestPath>>,
    /// The ingest in flight.
    pub ingesting: Option<RequestId>,
    pub notice: Option<Notice>,
}

pub fn new(organization: &Organization) -> ClustersTab {
    ClustersTab {
        organization: organization.id.clone(),
        organization_title: organization.title.clone(),
        admin: organization.permissions.admin,
        view: ClustersView::default(),
        order: ClusterOrder::default(),
        status: None,
        clusters: PagedList::default(),
        cluster_selection: Selection::default(),
        conversations: PagedList::default(),
        conversation_selection: Selection::default(),
        source: None,
        ingest: None,
        ingesting: None,
        notice: None,
    }
}

impl ClustersTab {
    pub fn selected_cluster(&self) -> Option<&IssuesCluster> {
        self.clusters.items.get(self.cluster_selection.selected)
    }

    pub fn selected_conversation(&self) -> Option<&Conversation> {
        self.conversations
            .items
            .get(self.conversation_selection.selected)
    }

    /// Every source named by the clusters or the conversations loaded, for `f`.
    pub fn known_sources(&self) -> Vec<String> {
        let mut sources: BTreeSet<String> = self
            .clusters
            .items
            .iter()
            .flat_map(|cluster| cluster.sources.keys().cloned())
            .collect();
        sources.extend(
            self.conversations
                .items
                .iter()
                .filter_map(|conversation| conversation.source.clone()),
        );
        if let Some(source) = &self.source {
            sources.insert(source.clone());
        }
        sources.into_iter().collect()
    }

    fn clusters_call(&self, page: Option<String>) -> ApiCall {
        ApiCall::Conversations(ConversationsCall::Clusters {
            organization: self.organization.clone(),
            order: self.order,
            status: self.status,
            page,
        })
    }

    fn conversations_call(&self, page: Option<String>) -> ApiCall {
        ApiCall::Conversations(ConversationsCall::Conversations {
            organization: self.organization.clone(),
            source: self.source.clone(),
            page,
        })
    }

    fn load_clusters(&mut self, ctx: &mut Ctx) -> Cmd {
        self.clusters
            .load_first(ctx.requests, self.clusters_call(None))
    }

    fn load_conversations(&mut self, ctx: &mut Ctx) -> Cmd {
        self.conversations
            .load_first(ctx.requests, self.conversations_call(None))
    }

    /// The next page of the shown list when the selection nears its end.
    fn more(&mut self, ctx: &mut Ctx) -> Cmd {
        match self.view {
            ClustersView::Clusters => self
                .clusters
                .next_page(self.cluster_selection.selected, ctx.requests)
                .map_or(Cmd::None, |next| next.ask(|page| self.clusters_call(page))),
            ClustersView::Conversations => self
                .conversations
                .next_page(self.conversation_selection.selected, ctx.requests)
                .map_or(Cmd::None, |next| {
                    next.ask(|page| self.conversations_call(page))
                }),
        }
    }

    fn toggle_view(&mut self, ctx: &mut Ctx) -> Cmd {
        self.view = match self.view {
            ClustersView::Clusters => ClustersView::Conversations,
            ClustersView::Conversations => ClustersView::Clusters,
        };
        match self.view {
            ClustersView::Conversations
                if !self.conversations.loaded_once() && !self.conversations.is_loading() =>
            {
                self.load_conversations(ctx)
            }
            _ => Cmd::None,
        }
    }

    /// `f`: all sources → each known source → all again.
    fn next_source(&mut self, ctx: &mut Ctx) -> Cmd {
        let sources = self.known_sources();
        self.source = match &self.source {
            None => sources.first().cloned(),
            Some(current) => sources
                .iter()
                .position(|source| source == current)
                .and_then(|index| sources.get(index + 1).cloned()),
        };
        self.conversation_selection.top();
        self.load_conversations(ctx)
    }

    fn open_selected(&mut self) -> Option<Step> {
        match self.view {
            ClustersView::Clusters => {
                let cluster = self.selected_cluster()?.clone();
                Some(Step::push(Screen::ClusterIssues(ClusterIssuesScreen::new(
                    &self.organization,
                    &self.organization_title,
                    cluster,
                ))))
            }
            ClustersView::Conversations => {
                let conversation = self.selected_conversation()?;
                Some(Step::push(Screen::Conversation(Box::new(
                    ConversationScreen::new(&self.organization, &conversation.id, None),
                ))))
            }
        }
    }

    fn start_ingest(&mut self, path: String, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.ingesting = Some(request);
        self.notice = Some(Notice::info(format!("Ingesting {path}…")));
        Cmd::Api {
            request,
            call: ApiCall::Conversations(ConversationsCall::IngestFile {
                organization: self.organization.clone(),
                path,
            }),
        }
    }

    fn on_ingest_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        use crate::ui::input::InputOutcome;
        let mut prompt = self.ingest.take()?;
        match prompt.input.handle_key(key) {
            InputOutcome::Cancelled => {}
            InputOutcome::Submitted if prompt.error().is_none() => {
                let path = prompt.input.text.trim().to_string();
                return Some(Step::cmd(self.start_ingest(path, ctx)));
            }
            _ => self.ingest = Some(prompt),
        }
        Some(Step::default())
    }
}

impl ScreenState for ClustersTab {
    fn title(&self) -> String {
        "Clusters".to_string()
    }

    fn messages(&self) -> Vec<crate::ui::notice::Notice> {
        self.notice.iter().cloned().collect()
    }

    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.clusters.loaded_once() || self.clusters.is_loading() {
            return Cmd::None;
        }
        self.load_clusters(ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        match self.view {
            ClustersView::Clusters => self.load_clusters(ctx),
            ClustersView::Conversations => self.load_conversations(ctx),
        }
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        &[KeyContext::Clusters, KeyContext::Tabs, KeyContext::Browse]
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        match self.view {
            ClustersView::Clusters => vec![
                (Action::Open, "issues"),
                (Action::ClusterChangeRequests, "change requests"),
                (Action::ClustersView, "conversations"),
                (Action::ClusterSort, "sort"),
                (Action::ClusterOrder, "order"),
                (Action::ClusterStatus, "status"),
                (Action::IngestConversation, "ingest"),
                (Action::NextTab, "tab"),
                (Action::Refresh, "refresh"),
                (Action::Back, "back"),
                (Action::Help, "keys"),
            ],
            ClustersView::Conversations => vec![
                (Action::Open, "transcript"),
                (Action::SourceFilter, "source"),
                (Action::ClustersView, "clusters"),
                (Action::IngestConversation, "ingest"),
                (Action::NextTab, "tab"),
                (Action::Refresh, "refresh"),
                (Action::Back, "back"),
                (Action::Help, "keys"),
            ],
        }
    }

    fn on_raw_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let ingest = |tab: &mut Self| tab.ingest.is_some().then(|| tab.on_ingest_key(key, ctx));
        notice_modal_esc(self, key, |tab| &mut tab.notice, ingest)
            .break_value()
            .flatten()
    }

    fn on_paste(&mut self, text: &str, _ctx: &mut Ctx) -> Cmd {
        if let Some(prompt) = self.ingest.as_mut() {
            prompt.input.insert_str(text.trim());
        }
        Cmd::None
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let page = ctx.size.height.saturating_sub(6).max(1) as isize;
        let (selection, len) = match self.view {
            ClustersView::Clusters => (&mut self.cluster_selection, self.clusters.items.len()),
            ClustersView::Conversations => (
                &mut self.conversation_selection,
                self.conversations.items.len(),
            ),
        };
        if crate::screens::step::move_selection(selection, action, len, page) {
            return Some(Step::cmd(self.more(ctx)));
        }
        let cmd = match action {
            Action::Open => return self.open_selected().or(Some(Step::default())),
            Action::ClustersView => self.toggle_view(ctx),
            Action::ClusterSort if self.view == ClustersView::Clusters => {
                self.order.sort = match self.order.sort {
                    ClusterSort::UpdatedAt => ClusterSort::CreatedAt,
                    ClusterSort::CreatedAt => ClusterSort::UpdatedAt,
                };
                self.cluster_selection.top();
                self.load_clusters(ctx)
            }
            Action::ClusterOrder if self.view == ClustersView::Clusters => {
                self.order.ascending = !self.order.ascending;
                self.cluster_selection.top();
                self.load_clusters(ctx)
            }
            Action::ClusterStatus if self.view == ClustersView::Clusters => {
                self.status = ClusterStatus::cycle(self.status);
                self.cluster_selection.top();
                self.load_clusters(ctx)
            }
            Action::SourceFilter if self.view == ClustersView::Conversations => {
                self.next_source(ctx)
            }
            Action::ClusterChangeRequests => {
                let Some(cluster) = self.selected_cluster() else {
                    self.notice = Some(Notice::info("Select a cluster first"));
                    return Some(Step::default());
                };
                return Some(super::change_requests_of(
                    &self.organization,
                    &self.organization_title,
                    cluster,
                ));
            }
            Action::IngestConversation => {
                if !self.admin {
                    self.notice = Some(Notice::info(
                        "Ingesting conversations needs the admin role in this organization",
                    ));
                } else if self.ingesting.is_some() {
                    self.notice = Some(Notice::info("still ingesting…"));
                } else {
                    self.ingest = Some(Prompt::new(
                        "Ingest a conversation",
                        "a JSON file: id, subject, parts, metadata",
                        "",
                        IngestPath,
                    ));
                }
                Cmd::None
            }
            _ => return None,
        };
        Some(Step::cmd(cmd))
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        let ApiResponse::Conversations(response) = response else {
            return None;
        };
        match response {
            ConversationsResponse::Clusters(result) => {
                if !self.clusters.settle(request, result.clone()) {
                    return None;
                }
                self.cluster_selection.clamp(self.clusters.items.len());
                Some(Step::cmd(self.more(ctx)))
            }
            ConversationsResponse::Conversations(result) => {
                if !self.conversations.settle(request, result.clone()) {
                    return None;
                }
                self.conversation_selection
                    .clamp(self.conversations.items.len());
                Some(Step::cmd(self.more(ctx)))
            }
            ConversationsResponse::Ingested(result) => {
                if self.ingesting != Some(request) {
                    return None;
                }
                self.ingesting = None;
                match result {
                    Ok(subject) => {
                        self.notice = Some(Notice::info(format!("Ingested “{subject}”")));
                        self.view = ClustersView::Conversations;
                        Some(Step::cmd(self.load_conversations(ctx)))
                    }
                    Err(failure) => {
                        self.notice = Some(Notice::error(format!("Not ingested: {failure}")));
                        Some(Step::default())
                    }
                }
            }
            _ => None,
        }
    }

    fn disabled_actions(&self) -> Vec<Action> {
        if self.admin {
            Vec::new()
        } else {
            vec![Action::IngestConversation]
        }
    }

    fn link(&self) -> Option<String> {
        match self.view {
            ClustersView::Clusters => self.selected_cluster()?.urls.app.clone(),
            ClustersView::Conversations => self.selected_conversation()?.urls.source.clone(),
        }
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        super::tab_view::draw(self, frame, area, look);
    }
}
