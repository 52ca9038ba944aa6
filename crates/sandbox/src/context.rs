//! What every area's handlers share, below the areas: the server's state, who is asking, and
//! the small readers of a request (query, booleans, the organization or space it names). The
//! top router imports the areas; the areas import this, never the router.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{RwLock, watch};

use crate::error::ApiError;
use crate::fault_rules::Counters;
use crate::model::Space;
use crate::render::View;
use crate::world::World;
use crate::{Faults, Outage};

/// State shared by every request.
pub struct Shared {
    pub counters: Arc<Counters>,
    pub world: RwLock<World>,
    pub faults: watch::Sender<Faults>,
    pub latency: Duration,
    pub outage: watch::Receiver<Outage>,
    /// The API root including `/v1`, for `urls.location`.
    pub api_url: String,
}

/// Who is asking and which faults were on when the request arrived.
#[derive(Clone, Debug)]
pub(crate) struct Context {
    pub user: String,
    pub faults: Faults,
}

pub(crate) type Query = HashMap<String, String>;

/// Query parameters, decoded leniently so that no malformed query produces a non-contract body.
pub(crate) fn query_map(raw: Option<String>) -> Query {
    url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .into_owned()
        .collect()
}

pub(crate) fn view<'a>(world: &'a World, shared: &'a Shared, context: &'a Context) -> View<'a> {
    View {
        world,
        api_url: &shared.api_url,
        caller: &context.user,
    }
}

/// Parses an optional boolean query parameter.
pub(crate) fn boolean_parameter(
    query: &Query,
    name: &str,
    default: bool,
) -> Result<bool, ApiError> {
    match query.get(name).map(|value| value.trim()) {
        None => Ok(default),
        Some("true") | Some("1") => Ok(true),
        Some("false") | Some("0") => Ok(false),
        Some(_) => Err(ApiError::bad_request(format!(
            "Invalid \"{name}\": expected true or false"
        ))),
    }
}

pub(crate) fn require_organization(world: &World, id: &str) -> Result<(), ApiError> {
    world
        .organization(id)
        .map(|_| ())
        .ok_or_else(|| ApiError::not_found("organization", id))
}

pub(crate) fn require_space<'a>(world: &'a World, id: &str) -> Result<&'a Space, ApiError> {
    world
        .space(id)
        .ok_or_else(|| ApiError::not_found("space", id))
}
