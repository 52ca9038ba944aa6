//! The list's popups: the status picker (`S`, several at once), the cluster picker (`I`) and
//! the new change request's subject prompt (`N`), with the answers they wait for.

use ratatui::crossterm::event::KeyEvent;

use super::create;
use super::{ChangeRequestList, STATUSES};
use crate::api::models::ChangeRequestStatus;
use crate::screens::step::{Ctx, Step};
use crate::ui::notice::Notice;
use crate::ui::picker::{PickOption, PickOutcome, Picker};
use crate::vocabulary::change_requests::{
    ChangeRequestScope, ChangeRequestsCall, ChangeRequestsResponse,
};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, RequestId};

/// What a picker of the list chooses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListPick {
    Statuses,
    Cluster,
}

pub(super) type ListPicker = Picker<ListPick>;

/// The value of the cluster picker's "any cluster" choice.
const ANY_CLUSTER: &str = "";

impl ChangeRequestList {
    fn say(&mut self, text: impl Into<String>, error: bool) {
        self.creation.notice = Some(Notice::new(text, error));
    }

    /// `S`: every status, those shown ticked. A space's list whose organization is unknown
    /// can only ask for one status, so its picker takes one.
    pub(super) fn open_status_picker(&mut self) {
        let options = STATUSES
            .iter()
            .map(|status| PickOption {
                value: status.as_str().to_string(),
                label: status.as_str().to_string(),
                detail: status_detail(status).to_string(),
            })
            .collect();
        let several = self.takes_several_statuses();
        let title = if several {
            "Statuses shown (several)"
        } else {
            "Status shown"
        };
        let mut picker = Picker::new(title, options, ListPick::Statuses);
        if several {
            picker = picker.multiple();
            picker.chosen = STATUSES
                .iter()
                .enumerate()
                .filter(|(_, status)| self.statuses.contains(status))
                .map(|(index, _)| index)
                .collect();
        } else {
            picker = picker.at(Some(self.status().as_str()));
        }
        self.picker = Some(picker);
    }

    /// `I`: the organization's clusters, fetched the first time.
    pub(super) fn open_cluster_picker(&mut self, ctx: &mut Ctx) -> Cmd {
        let Some(organization) = self.organization_id().map(str::to_string) else {
            self.say(
                "Clusters need the organization: open this list from its space.",
                true,
            );
            return Cmd::None;
        };
        if let Some(clusters) = self.clusters.value() {
            let picker = cluster_picker(clusters, self.cluster.as_ref().map(|(id, _)| id));
            self.picker = Some(picker);
            return Cmd::None;
        }
        if self.clusters.is_loading() {
            return Cmd::None;
        }
        self.say("Loading the conversations issues clusters…", false);
        let request = ctx.requests.issue();
        self.clusters.start(request);
        Cmd::Api {
            request,
            call: ApiCall::ChangeRequests(ChangeRequestsCall::ListIssueClusters { organization }),
        }
    }

    /// Why `N` is refused here, or None when the prompt may open.
    pub(super) fn new_change_request_refusal(&self) -> Option<String> {
        match &self.scope {
            ChangeRequestScope::Organization(_) => Some(
                "Change requests belong to a space: press N in a space or in its list.".to_string(),
            ),
            ChangeRequestScope::Space(_) if self.can_create == Some(false) => {
                Some(create::refusal(self.role.as_deref()))
            }
            ChangeRequestScope::Space(_) => None,
        }
    }

    pub(super) fn start_new_change_request(&mut self) -> Cmd {
        if let Some(reason) = self.new_change_request_refusal() {
            self.say(reason, true);
            return Cmd::None;
        }
        match &self.scope {
            ChangeRequestScope::Space(space) => self.creation.open(&space.clone()),
            _ => Cmd::None,
        }
    }

    /// Keys for an open picker; None when none is open.
    pub(super) fn on_picker_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Step> {
        let mut picker = self.picker.take()?;
        let cmd = match picker.handle_key(key) {
            PickOutcome::Pending => {
                self.picker = Some(picker);
                Cmd::None
            }
            PickOutcome::Cancelled => Cmd::None,
            PickOutcome::Picked(values) => match picker.purpose {
                ListPick::Statuses => self.show_statuses(&values, ctx),
                ListPick::Cluster => self.show_cluster(values.first(), ctx),
            },
        };
        Some(Step::cmd(cmd))
    }

    fn show_statuses(&mut self, values: &[String], ctx: &mut Ctx) -> Cmd {
        let chosen: Vec<ChangeRequestStatus> = STATUSES
            .iter()
            .filter(|status| values.iter().any(|value| value == status.as_str()))
            .cloned()
            .collect();
        if chosen.is_empty() {
            self.say("Tick at least one status with space.", true);
            return Cmd::None;
        }
        self.statuses = chosen;
        self.load(ctx)
    }

    fn show_cluster(&mut self, value: Option<&String>, ctx: &mut Ctx) -> Cmd {
        self.cluster = value.filter(|id| *id != ANY_CLUSTER).and_then(|id| {
            let clusters = self.clusters.value()?;
            let cluster = clusters.items.iter().find(|cluster| &cluster.id == id)?;
            Some((cluster.id.clone(), cluster.label.clone()))
        });
        self.load(ctx)
    }

    /// The clusters came: the picker opens, or the notice says why it cannot.
    pub(super) fn on_clusters(
        &mut self,
        request: RequestId,
        response: &ApiResponse,
        ctx: &mut Ctx,
    ) -> Option<Step> {
        let ApiResponse::ChangeRequests(ChangeRequestsResponse::IssueClusters(result)) = response
        else {
            return None;
        };
        if !self.clusters.settle(request, result.clone()) {
            return None;
        }
        match result {
            Ok(_) => {
                self.creation.notice = None;
                Some(Step::cmd(self.open_cluster_picker(ctx)))
            }
            Err(error) if error.is_not_found() => {
                self.say(
                    "This server has no conversations issues clusters (GET \
                     /orgs/{org}/conversations-clusters answered 404).",
                    true,
                );
                Some(Step::default())
            }
            Err(error) => {
                self.say(
                    format!("The clusters did not load: {}", error.user_message()),
                    true,
                );
                Some(Step::default())
            }
        }
    }
}

fn status_detail(status: &ChangeRequestStatus) -> &'static str {
    match status {
        ChangeRequestStatus::Open => "ready for review",
        ChangeRequestStatus::Draft => "still being written",
        ChangeRequestStatus::Merged => "applied to the space",
        ChangeRequestStatus::Archived => "closed without merging",
        ChangeRequestStatus::Other(_) => "",
    }
}

fn cluster_picker(
    clusters: &crate::api::WholeList<crate::api::models::IssuesCluster>,
    current: Option<&String>,
) -> ListPicker {
    let mut options = vec![PickOption {
        value: ANY_CLUSTER.to_string(),
        label: "any cluster".to_string(),
        detail: "change requests whether or not they answer a cluster".to_string(),
    }];
    options.extend(clusters.items.iter().map(|cluster| {
        let issues = cluster
            .stats
            .issues
            .map(|count| {
                let count = i64::try_from(count).unwrap_or(i64::MAX);
                format!("{} · ", crate::ui::time::plural(count, "issue", "issues"))
            })
            .unwrap_or_default();
        PickOption {
            value: cluster.id.clone(),
            label: cluster.label.clone(),
            detail: format!("{issues}{}", cluster.summary.as_deref().unwrap_or("")),
        }
    }));
    let title = crate::ui::status::picker_title(
        "Conversations issues cluster",
        clusters.stopped_after_pages(),
    );
    Picker::new(&title, options, ListPick::Cluster)
        .at(Some(current.map_or(ANY_CLUSTER, String::as_str)))
}
