//! Conversations endpoints: issues clusters, conversations, their issues, and
//! ingesting a conversation. [`NewConversation::from_json`] checks a conversation before it is
//! sent, naming the field at fault, so the screen and `quire conversations ingest` refuse the
//! same things the same way.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::models::{Conversation, ConversationDetail, IssueWithConversation, IssuesCluster};
use super::paging::{ListPage, WholeList};

/// Pages of clusters read for the cluster picker: clusters are few, and five thousand of them
/// is already more than anyone picks from.
pub const CLUSTER_PAGES: usize = 5;

/// What the clusters list is ordered by (`sort`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClusterSort {
    /// The service's default.
    #[default]
    UpdatedAt,
    CreatedAt,
}

impl ClusterSort {
    pub fn as_str(self) -> &'static str {
        match self {
            ClusterSort::UpdatedAt => "updatedAt",
            ClusterSort::CreatedAt => "createdAt",
        }
    }

    /// In words, for the screen.
    pub fn label(self) -> &'static str {
        match self {
            ClusterSort::UpdatedAt => "last updated",
            ClusterSort::CreatedAt => "created",
        }
    }
}

/// How the clusters list is sorted: by which date, newest (`desc`, the default) or oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClusterOrder {
    pub sort: ClusterSort,
    pub ascending: bool,
}

impl ClusterOrder {
    fn query(self) -> [(&'static str, &'static str); 2] {
        [
            ("sort", self.sort.as_str()),
            ("order", if self.ascending { "asc" } else { "desc" }),
        ]
    }
}

/// The clusters list's status filter (`status`). The API reference names a status filter on
/// the clusters list without listing its values; quire offers these two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClusterStatus {
    Active,
    Archived,
}

impl ClusterStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ClusterStatus::Active => "active",
            ClusterStatus::Archived => "archived",
        }
    }

    /// The filter after `current` as a key cycles it: every status, active, archived.
    pub fn cycle(current: Option<ClusterStatus>) -> Option<ClusterStatus> {
        match current {
            None => Some(ClusterStatus::Active),
            Some(ClusterStatus::Active) => Some(ClusterStatus::Archived),
            Some(ClusterStatus::Archived) => None,
        }
    }
}

/// The issues list's filters.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IssueFilter {
    pub cluster: Option<String>,
    pub conversation: Option<String>,
}

impl Client {
    /// `GET /orgs/{org}/conversations-clusters`: every cluster, most recently updated first
    /// (the service's default order), up to [`CLUSTER_PAGES`] pages. Clusters are few, so the
    /// whole list is fetched for a picker.
    pub async fn list_issue_clusters(
        &self,
        org: &str,
    ) -> Result<WholeList<IssuesCluster>, ApiError> {
        self.list_up_to(&clusters_path(org), &[], CLUSTER_PAGES)
            .await
    }

    /// One page of the clusters, in the given order, of one status when `status` is given.
    /// The status is sent only to a server seen to answer the clusters list this session: the
    /// public service has no such list to filter.
    pub async fn list_issue_clusters_page(
        &self,
        org: &str,
        order: ClusterOrder,
        status: Option<ClusterStatus>,
        page: Option<&str>,
    ) -> Result<ListPage<IssuesCluster>, ApiError> {
        let mut query = order.query().to_vec();
        if let Some(status) = status.filter(|_| self.offers_clusters()) {
            query.push(("status", status.as_str()));
        }
        self.get_list_page(&clusters_path(org), &query, page).await
    }

    /// Whether this server answered the clusters list this session.
    pub fn offers_clusters(&self) -> bool {
        crate::operations::find(&reqwest::Method::GET, "/orgs/_/conversations-clusters")
            .is_some_and(|list| self.capabilities().offers(list))
    }

    /// `GET /orgs/{org}/conversations`, one page, of one source when `source` is given.
    pub async fn list_conversations(
        &self,
        org: &str,
        source: Option<&str>,
        page: Option<&str>,
    ) -> Result<ListPage<Conversation>, ApiError> {
        let path = format!("/orgs/{}/conversations", encode_segment(org));
        let query: Vec<(&str, &str)> = source
            .map(|source| ("source", source))
            .into_iter()
            .collect();
        self.get_list_page(&path, &query, page).await
    }

    /// `GET /orgs/{org}/conversations/{id}`: the conversation with its messages.
    pub async fn get_conversation(
        &self,
        org: &str,
        id: &str,
    ) -> Result<ConversationDetail, ApiError> {
        let path = format!(
            "/orgs/{}/conversations/{}",
            encode_segment(org),
            encode_segment(id)
        );
        self.get(&path, &[]).await
    }

    /// `POST /orgs/{org}/conversations` (204): hands a conversation over for processing.
    pub async fn ingest_conversation(
        &self,
        org: &str,
        conversation: &NewConversation,
    ) -> Result<(), ApiError> {
        let path = format!("/orgs/{}/conversations", encode_segment(org));
        self.post_no_content(&path, conversation).await
    }

    /// `GET /orgs/{org}/conversations-issues`, one page, filtered by cluster or conversation.
    pub async fn list_conversation_issues(
        &self,
        org: &str,
        filter: &IssueFilter,
        page: Option<&str>,
    ) -> Result<ListPage<IssueWithConversation>, ApiError> {
        let path = format!("/orgs/{}/conversations-issues", encode_segment(org));
        let mut query = Vec::new();
        if let Some(cluster) = &filter.cluster {
            query.push(("cluster", cluster.as_str()));
        }
        if let Some(conversation) = &filter.conversation {
            query.push(("conversation", conversation.as_str()));
        }
        self.get_list_page(&path, &query, page).await
    }

    /// `GET /orgs/{org}/conversations-issues/{id}`.
    pub async fn get_conversation_issue(
        &self,
        org: &str,
        id: &str,
    ) -> Result<IssueWithConversation, ApiError> {
        let path = format!(
            "/orgs/{}/conversations-issues/{}",
            encode_segment(org),
            encode_segment(id)
        );
        self.get(&path, &[]).await
    }
}

fn clusters_path(org: &str) -> String {
    format!("/orgs/{}/conversations-clusters", encode_segment(org))
}

/// A conversation to ingest: the body of `POST /orgs/{org}/conversations`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewConversation {
    pub id: String,
    pub subject: String,
    pub parts: Vec<NewPart>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<NewMetadata>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewPart {
    #[serde(rename = "type")]
    pub kind: String,
    pub role: String,
    pub body: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewMetadata {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
}

/// One thing wrong with a conversation file: the field (`parts[1].role`) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    pub field: String,
    pub problem: String,
}

impl std::fmt::Display for FieldProblem {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}: {}", self.field, self.problem)
    }
}

/// Collects problems while a JSON object is checked field by field.
#[derive(Default)]
pub(crate) struct Problems(pub Vec<FieldProblem>);

impl Problems {
    pub(crate) fn add(&mut self, field: impl Into<String>, problem: impl Into<String>) {
        self.0.push(FieldProblem {
            field: field.into(),
            problem: problem.into(),
        });
    }

    /// A string field; `required` ones must be there and not blank.
    pub(crate) fn text(
        &mut self,
        object: &Map<String, Value>,
        field: &str,
        prefix: &str,
        required: bool,
    ) -> Option<String> {
        let name = format!("{prefix}{field}");
        match object.get(field) {
            None | Some(Value::Null) if required => {
                self.add(name, "required: a non-empty string");
                None
            }
            None | Some(Value::Null) => None,
            Some(Value::String(text)) if required && text.trim().is_empty() => {
                self.add(name, "must not be empty");
                None
            }
            Some(Value::String(text)) => Some(text.clone()),
            Some(_) => {
                self.add(name, "must be a string");
                None
            }
        }
    }

    /// Fields the operation does not know: a typo would otherwise be lost silently.
    pub(crate) fn unknown_fields(
        &mut self,
        object: &Map<String, Value>,
        known: &[&str],
        prefix: &str,
    ) {
        for key in object.keys().filter(|key| !known.contains(&key.as_str())) {
            self.add(
                format!("{prefix}{key}"),
                format!("unknown field (expected one of {})", known.join(", ")),
            );
        }
    }
}

/// Whether `text` is an absolute http(s) address.
pub(crate) fn is_web_address(text: &str) -> bool {
    url::Url::parse(text)
        .map(|url| matches!(url.scheme(), "http" | "https") && url.host_str().is_some())
        .unwrap_or(false)
}

/// Whether `text` is an ISO 8601 date-time with its offset (`2024-05-02T14:03:00Z`).
fn is_date_time(text: &str) -> bool {
    chrono::DateTime::parse_from_rfc3339(text).is_ok()
}

impl NewConversation {
    /// Reads and checks a conversation file's text. Every problem found is returned, each
    /// naming its field, so one run shows everything to fix.
    pub fn from_json(text: &str) -> Result<NewConversation, Vec<FieldProblem>> {
        let value: Value = serde_json::from_str(text).map_err(|error| {
            vec![FieldProblem {
                field: "(file)".into(),
                problem: format!("not valid JSON: {error}"),
            }]
        })?;
        let Value::Object(object) = value else {
            return Err(vec![FieldProblem {
                field: "(file)".into(),
                problem: "must be a JSON object".into(),
            }]);
        };
        let mut problems = Problems::default();
        problems.unknown_fields(&object, &["id", "subject", "parts", "metadata"], "");
        let id = problems.text(&object, "id", "", true);
        let subject = problems.text(&object, "subject", "", true);
        let parts = check_parts(object.get("parts"), &mut problems);
        let metadata = check_metadata(object.get("metadata"), &mut problems);
        match (id, subject, problems.0.is_empty()) {
            (Some(id), Some(subject), true) => Ok(NewConversation {
                id,
                subject,
                parts,
                metadata,
            }),
            _ => Err(problems.0),
        }
    }
}

fn check_parts(value: Option<&Value>, problems: &mut Problems) -> Vec<NewPart> {
    let parts = match value {
        Some(Value::Array(parts)) if !parts.is_empty() => parts,
        Some(Value::Array(_)) => {
            problems.add("parts", "needs at least one message");
            return Vec::new();
        }
        None | Some(Value::Null) => {
            problems.add("parts", "required: a list of messages");
            return Vec::new();
        }
        Some(_) => {
            problems.add("parts", "must be a list of messages");
            return Vec::new();
        }
    };
    let mut checked = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        let prefix = format!("parts[{index}].");
        let Value::Object(part) = part else {
            problems.add(format!("parts[{index}]"), "must be an object");
            continue;
        };
        problems.unknown_fields(part, &["type", "role", "body"], &prefix);
        let kind = problems.text(part, "type", &prefix, true);
        if let Some(kind) = &kind
            && kind != "message"
        {
            problems.add(format!("{prefix}type"), "must be \"message\"");
        }
        let role = problems.text(part, "role", &prefix, true);
        let body = problems.text(part, "body", &prefix, true);
        if let (Some(kind), Some(role), Some(body)) = (kind, role, body) {
            checked.push(NewPart { kind, role, body });
        }
    }
    checked
}

fn check_metadata(value: Option<&Value>, problems: &mut Problems) -> Option<NewMetadata> {
    let object = match value {
        None | Some(Value::Null) => return None,
        Some(Value::Object(object)) => object,
        Some(_) => {
            problems.add("metadata", "must be an object");
            return None;
        }
    };
    problems.unknown_fields(object, &["url", "attributes", "createdAt"], "metadata.");
    let url = problems.text(object, "url", "metadata.", false);
    if let Some(url) = &url
        && !is_web_address(url)
    {
        problems.add("metadata.url", "must be an http(s) address");
    }
    let created_at = problems.text(object, "createdAt", "metadata.", false);
    if let Some(created_at) = &created_at
        && !is_date_time(created_at)
    {
        problems.add(
            "metadata.createdAt",
            "must be an ISO 8601 date-time such as 2024-05-02T14:03:00Z",
        );
    }
    let mut attributes = BTreeMap::new();
    match object.get("attributes") {
        None | Some(Value::Null) => {}
        Some(Value::Object(map)) => {
            for (name, value) in map {
                match value {
                    Value::String(text) => {
                        attributes.insert(name.clone(), text.clone());
                    }
                    _ => problems.add(format!("metadata.attributes.{name}"), "must be a string"),
                }
            }
        }
        Some(_) => problems.add("metadata.attributes", "must be an object of strings"),
    }
    Some(NewMetadata {
        url,
        attributes,
        created_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_good_conversation_is_read() {
        let conversation = NewConversation::from_json(
            r#"{"id":"c-1","subject":"Help","parts":[{"type":"message","role":"user","body":"Hi"}],
            "metadata":{"url":"https://support.example.com/t/1","createdAt":"2024-05-02T14:03:00Z",
            "attributes":{"plan":"pro"}}}"#,
        )
        .unwrap();
        assert_eq!(conversation.parts[0].role, "user");
        let body = serde_json::to_value(&conversation).unwrap();
        assert_eq!(body["metadata"]["createdAt"], "2024-05-02T14:03:00Z");
        assert_eq!(body["parts"][0]["type"], "message");
    }

    #[test]
    fn every_problem_names_its_field() {
        let problems = NewConversation::from_json(
            r#"{"id":"","parts":[{"type":"note","role":"user"},3],"extra":1,
            "metadata":{"url":"ftp://x","createdAt":"yesterday","attributes":{"n":1}}}"#,
        )
        .unwrap_err();
        let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
        for expected in [
            "extra",
            "id",
            "subject",
            "parts[0].type",
            "parts[0].body",
            "parts[1]",
            "metadata.url",
            "metadata.createdAt",
            "metadata.attributes.n",
        ] {
            assert!(fields.contains(&expected), "{expected} in {fields:?}");
        }
        assert_eq!(
            NewConversation::from_json("[1]").unwrap_err()[0].field,
            "(file)"
        );
    }
}
