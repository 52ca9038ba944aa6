//! Reading the sections: `GET /user` and `GET /orgs` first, then each section's list in each of
//! its organizations, at most [`MAX_IN_FLIGHT`] requests at a time, each answer sent on as it
//! comes. A space's title and merge permission are read once per space however many rows and
//! sections name it, and a change request's reviews once however many sections show it.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

use futures::future::{Either, join_all};
use futures::stream::{FuturesUnordered, StreamExt};
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::{OnceCell, Semaphore};

use super::{HomeError, HomeEvent, HomeRow, Named, ReviewState, SectionQuery, review_state};
use crate::address::encode_segment;
use crate::change_requests::{ChangeRequestFilter, borrow_query};
use crate::client::Client;
use crate::error::ApiError;
use crate::models::{ChangeRequest, ChangeRequestStatus, Organization};
use crate::paging::MAX_PAGE_LIMIT;

/// The most requests the gathering has in flight at once.
pub const MAX_IN_FLIGHT: usize = 16;
/// Pages of `GET /orgs` read, and of an organization's spaces when a section names spaces.
const MAX_LIST_PAGES: usize = 20;
/// A section that drops rows after reading asks each organization for this many times its
/// limit, so that what is left still fills it.
const FILTERED_READ_FACTOR: u32 = 3;

/// Reads every section in every organization it covers and sends what it finds on `events`:
/// [`HomeEvent::Started`] first (or [`HomeEvent::Failed`] alone), then one
/// [`HomeEvent::Answer`] per section and organization as each arrives. Returns when all came
/// (dropping `events`, so the receiver sees the end), or early once nobody listens. A failed
/// organization is an answer with its error, never the end of the others.
pub async fn gather(
    client: &Client,
    sections: &[SectionQuery],
    events: UnboundedSender<HomeEvent>,
) {
    let (me, organizations) = tokio::join!(
        client.current_user(),
        client.list_organizations_up_to(MAX_LIST_PAGES)
    );
    let (me, organizations) = match (me, organizations) {
        (Ok(me), Ok(organizations)) => (me, organizations.items),
        (Err(error), _) | (_, Err(error)) => {
            let _ = events.send(HomeEvent::Failed(error));
            return;
        }
    };
    let mut jobs = Vec::new();
    let mut expected = Vec::with_capacity(sections.len());
    let mut unknown = Vec::new();
    let mut marked = Vec::new();
    for (index, section) in sections.iter().enumerate() {
        if section.marked {
            // One answer: the marks, read from the cache, each change request read by id.
            expected.push(1);
            marked.push(index);
            continue;
        }
        let (asked, not_found) = organizations_of(section, &organizations);
        expected.push(asked.len());
        jobs.extend(asked.into_iter().map(|organization| (index, organization)));
        unknown.extend(not_found.into_iter().map(|name| HomeEvent::NotFound {
            section: index,
            problem: HomeError::UnknownOrganization(name),
        }));
    }
    let started = HomeEvent::Started {
        me: me.clone(),
        organizations: organizations.iter().map(named).collect(),
        expected,
    };
    if events.send(started).is_err() {
        return;
    }
    for event in unknown {
        let _ = events.send(event);
    }
    let gathering = Gathering::new(client.clone(), me.id);
    let titles: HashMap<String, String> = organizations
        .iter()
        .map(|organization| (organization.id.clone(), organization.title.clone()))
        .collect();
    let mut spaces_found: HashMap<usize, SpacesFound> = HashMap::new();
    let mut running: FuturesUnordered<_> = jobs
        .into_iter()
        .map(|(index, organization)| {
            Either::Left(gathering.answer(index, &sections[index], organization))
        })
        .chain(
            marked
                .into_iter()
                .map(|index| Either::Right(gathering.marked(index, &sections[index], &titles))),
        )
        .collect();
    while let Some((event, found)) = running.next().await {
        if let HomeEvent::Answer { section, .. } = &event {
            spaces_found.entry(*section).or_default().add(found);
        }
        if events.send(event).is_err() {
            return;
        }
    }
    for (index, found) in spaces_found {
        for name in found.never_matched(&sections[index].spaces) {
            let _ = events.send(HomeEvent::NotFound {
                section: index,
                problem: HomeError::UnknownSpace(name),
            });
        }
    }
}

/// The organizations a section covers, and the names in its filter that are none of them.
fn organizations_of(
    section: &SectionQuery,
    organizations: &[Organization],
) -> (Vec<Named>, Vec<String>) {
    if section.organizations.is_empty() {
        return (organizations.iter().map(named).collect(), Vec::new());
    }
    let mut asked: Vec<Named> = Vec::new();
    let mut unknown = Vec::new();
    for name in &section.organizations {
        let found = organizations
            .iter()
            .find(|org| org.id == *name)
            .or_else(|| {
                organizations
                    .iter()
                    .find(|org| same_title(&org.title, name))
            });
        match found {
            Some(org) if !asked.iter().any(|kept| kept.id == org.id) => asked.push(named(org)),
            Some(_) => {}
            None => unknown.push(name.clone()),
        }
    }
    (asked, unknown)
}

fn named(organization: &Organization) -> Named {
    Named {
        id: organization.id.clone(),
        title: organization.title.clone(),
    }
}

fn same_title(title: &str, name: &str) -> bool {
    title.trim().to_lowercase() == name.trim().to_lowercase()
}

/// Which of a section's space names matched in its organizations, to tell the ones that
/// matched nowhere (only when every organization's spaces could be read).
#[derive(Default)]
struct SpacesFound {
    matched: Vec<String>,
    incomplete: bool,
}

impl SpacesFound {
    fn add(&mut self, found: Option<Vec<String>>) {
        match found {
            Some(names) => self.matched.extend(names),
            None => self.incomplete = true,
        }
    }

    fn never_matched(&self, names: &[String]) -> Vec<String> {
        if self.incomplete {
            return Vec::new();
        }
        names
            .iter()
            .filter(|name| !self.matched.contains(name))
            .cloned()
            .collect()
    }
}

/// What one space tells every row in it.
#[derive(Debug, Clone, Default)]
struct SpaceFacts {
    title: Option<String>,
    may_merge: Option<bool>,
    organization: Option<String>,
}

type Cell<T> = Arc<OnceCell<T>>;
/// One answer per key, shared by everyone who asks for it.
type Cache<K, T> = Mutex<HashMap<K, Cell<T>>>;

/// The state one gathering shares between its requests.
struct Gathering {
    client: Client,
    me: String,
    permits: Semaphore,
    spaces: Cache<String, SpaceFacts>,
    /// By space and change request.
    reviews: Cache<(String, String), Option<ReviewState>>,
    organization_spaces: Cache<String, Result<Vec<Named>, ApiError>>,
}

/// The cell of `key` in `cache`, made on first use; concurrent users of one key share it, so
/// its request is sent once.
fn cell<K: std::hash::Hash + Eq, T>(cache: &Cache<K, T>, key: K) -> Cell<T> {
    let mut map = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    map.entry(key).or_default().clone()
}

impl Gathering {
    fn new(client: Client, me: String) -> Gathering {
        Gathering {
            client,
            me,
            permits: Semaphore::new(MAX_IN_FLIGHT),
            spaces: Mutex::default(),
            reviews: Mutex::default(),
            organization_spaces: Mutex::default(),
        }
    }

    /// `request`, once one of the [`MAX_IN_FLIGHT`] places is free.
    async fn limited<T>(&self, request: impl Future<Output = T>) -> T {
        let _place = self.permits.acquire().await.ok();
        request.await
    }

    /// One section in one organization, with the names of the section's spaces found there
    /// (None when its spaces could not be read).
    async fn answer(
        &self,
        index: usize,
        section: &SectionQuery,
        organization: Named,
    ) -> (HomeEvent, Option<Vec<String>>) {
        let (rows, found) = match self.spaces_asked(section, &organization.id).await {
            Ok((spaces, found)) => (
                self.rows(section, &organization, &spaces).await,
                Some(found),
            ),
            Err(error) => (Err(HomeError::Api(error)), None),
        };
        let event = HomeEvent::Answer {
            section: index,
            organization,
            rows,
        };
        (event, found)
    }

    /// The change requests marked to watch, each read by id, in a section of their own: the
    /// section's statuses, review state and merge permission filter them; a mark on a change
    /// request that is gone (or no longer readable) is left out.
    async fn marked(
        &self,
        index: usize,
        section: &SectionQuery,
        organizations: &HashMap<String, String>,
    ) -> (HomeEvent, Option<Vec<String>>) {
        let marks = self.client.watch_marks().await;
        let reads = marks
            .iter()
            .map(|(space, id)| self.limited(self.client.get_change_request(space, id)));
        let change_requests = join_all(reads).await.into_iter().filter_map(Result::ok);
        let kept = change_requests.filter(|change_request| {
            section.statuses.is_empty()
                || change_request
                    .status
                    .as_ref()
                    .is_some_and(|status| section.statuses.contains(status))
        });
        let nowhere = Named {
            id: String::new(),
            title: String::new(),
        };
        let rows = join_all(kept.map(|change_request| async {
            let mut row = self
                .row_with_review(section, &nowhere, change_request)
                .await;
            let facts = self.space_facts(&row.space.id).await;
            if let Some(id) = facts.organization {
                let title = organizations
                    .get(&id)
                    .cloned()
                    .unwrap_or_else(|| id.clone());
                row.organization = Named { id, title };
            }
            row
        }))
        .await;
        let rows = rows
            .into_iter()
            .filter(|row| !section.mergeable || row.may_merge == Some(true))
            .filter(|row| section.review.is_none() || row.review == section.review)
            .collect();
        let event = HomeEvent::Answer {
            section: index,
            organization: nowhere,
            rows: Ok(rows),
        };
        (event, None)
    }

    /// The `space` filters to send: one unfiltered read when the section names no spaces,
    /// else one per space of this organization it names (none here: no read at all).
    async fn spaces_asked(
        &self,
        section: &SectionQuery,
        organization: &str,
    ) -> Result<(Vec<Option<String>>, Vec<String>), ApiError> {
        if section.spaces.is_empty() {
            return Ok((vec![None], Vec::new()));
        }
        let cell = cell(&self.organization_spaces, organization.to_owned());
        let listed = cell
            .get_or_init(|| async {
                let path = format!("/orgs/{}/spaces", encode_segment(organization));
                let listed = self
                    .limited(self.client.list_up_to(&path, &[], MAX_LIST_PAGES))
                    .await;
                listed.map(|whole| {
                    whole
                        .items
                        .iter()
                        .map(|space: &crate::models::Space| Named {
                            id: space.id.clone(),
                            title: space.title.clone(),
                        })
                        .collect()
                })
            })
            .await
            .clone()?;
        let mut asked = Vec::new();
        let mut found = Vec::new();
        for name in &section.spaces {
            let matched = listed
                .iter()
                .find(|space| space.id == *name)
                .or_else(|| listed.iter().find(|space| same_title(&space.title, name)));
            if let Some(space) = matched {
                found.push(name.clone());
                asked.push(Some(space.id.clone()));
            }
        }
        Ok((asked, found))
    }

    async fn rows(
        &self,
        section: &SectionQuery,
        organization: &Named,
        spaces: &[Option<String>],
    ) -> Result<Vec<HomeRow>, HomeError> {
        let reads = spaces
            .iter()
            .map(|space| self.read_list(section, &organization.id, space.as_deref()));
        let mut change_requests = Vec::new();
        for read in join_all(reads).await {
            change_requests.extend(read?);
        }
        change_requests.sort_by(|left, right| {
            let key = |change_request: &ChangeRequest| match section.order_by {
                crate::models::ChangeRequestOrderBy::CreatedAt => change_request.created_at.clone(),
                _ => change_request.updated_at.clone(),
            };
            key(right).cmp(&key(left))
        });
        change_requests.dedup_by(|one, other| one.id == other.id);
        let rows = join_all(
            change_requests
                .into_iter()
                .map(|change_request| self.row_with_review(section, organization, change_request)),
        )
        .await;
        Ok(rows
            .into_iter()
            .filter(|row| !section.mergeable || row.may_merge == Some(true))
            .filter(|row| section.review.is_none() || row.review == section.review)
            .take(usize::try_from(section.limit).unwrap_or(usize::MAX))
            .collect())
    }

    /// The first page of the organization's list with the section's filters.
    async fn read_list(
        &self,
        section: &SectionQuery,
        organization: &str,
        space: Option<&str>,
    ) -> Result<Vec<ChangeRequest>, HomeError> {
        let me = self.me.as_str();
        let filter = ChangeRequestFilter {
            statuses: section.statuses.clone(),
            creator: section.creator.as_ref().map(|who| who.id(me).to_owned()),
            contributor: section
                .contributor
                .as_ref()
                .map(|who| who.id(me).to_owned()),
            requested_reviewer: section
                .requested_reviewer
                .as_ref()
                .map(|who| who.id(me).to_owned()),
            space: space.map(str::to_owned),
            issues_cluster: None,
            order_by: Some(section.order_by.clone()),
        };
        let factor = if section.filters_rows() {
            FILTERED_READ_FACTOR
        } else {
            1
        };
        let limit = section
            .limit
            .saturating_mul(factor)
            .clamp(1, MAX_PAGE_LIMIT)
            .to_string();
        let mut query = filter.organization_query();
        query.push(("limit", limit));
        let path = format!("/orgs/{}/change-requests", encode_segment(organization));
        let page = self
            .limited(
                self.client
                    .get_list_page::<ChangeRequest>(&path, &borrow_query(&query), None),
            )
            .await?;
        Ok(page.items)
    }

    /// A row and its review state. The space (its title, whether the user may merge) and the
    /// reviews are read at once: one round trip, not two; except where a section keeps only
    /// rows the user may merge: there the space says so first, and a row that goes costs no
    /// read of its reviews.
    async fn row_with_review(
        &self,
        section: &SectionQuery,
        organization: &Named,
        change_request: ChangeRequest,
    ) -> HomeRow {
        let space = change_request.space.clone().unwrap_or_default();
        let id = change_request.id.clone();
        let status = change_request.status.clone();
        let review = self.review_of(&space, &id, status.as_ref());
        if !section.mergeable {
            let (mut row, review) = tokio::join!(self.row(organization, change_request), review);
            row.review = review;
            return row;
        }
        let mut row = self.row(organization, change_request).await;
        if row.may_merge == Some(true) {
            row.review = review.await;
        }
        row
    }

    async fn row(&self, organization: &Named, change_request: ChangeRequest) -> HomeRow {
        let space_id = change_request.space.clone().unwrap_or_default();
        let facts = self.space_facts(&space_id).await;
        let may_merge = change_request
            .permissions
            .as_ref()
            .map(|permissions| permissions.merge)
            .or(facts.may_merge);
        HomeRow {
            organization: organization.clone(),
            space: Named {
                title: facts.title.unwrap_or_else(|| space_id.clone()),
                id: space_id,
            },
            id: change_request.id,
            number: change_request.number,
            subject: change_request.subject,
            author: change_request.created_by,
            status: change_request.status,
            review: None,
            may_merge,
            created_at: change_request.created_at,
            updated_at: change_request.updated_at,
            open_threads: change_request.comments,
            outdated: change_request.outdated,
            url: change_request.urls.app,
        }
    }

    async fn space_facts(&self, space: &str) -> SpaceFacts {
        if space.is_empty() {
            return SpaceFacts::default();
        }
        let cell = cell(&self.spaces, space.to_owned());
        cell.get_or_init(|| async {
            match self.limited(self.client.get_space(space)).await {
                Ok(read) => SpaceFacts {
                    title: Some(read.title),
                    may_merge: Some(read.permissions.merge),
                    organization: read.organization,
                },
                Err(_) => SpaceFacts::default(),
            }
        })
        .await
        .clone()
    }

    /// A change request's review state, read for open and draft ones only: a merged or
    /// archived one waits for no review.
    async fn review_of(
        &self,
        space: &str,
        id: &str,
        status: Option<&ChangeRequestStatus>,
    ) -> Option<ReviewState> {
        let waits = matches!(
            status,
            Some(ChangeRequestStatus::Open | ChangeRequestStatus::Draft)
        );
        if !waits || space.is_empty() {
            return None;
        }
        let cell = cell(&self.reviews, (space.to_owned(), id.to_owned()));
        *cell
            .get_or_init(|| async {
                let reviews = self
                    .limited(self.client.list_reviews(space, id, None))
                    .await;
                reviews.ok().map(|page| review_state(&page.items))
            })
            .await
    }
}
