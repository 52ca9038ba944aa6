//! Integrations' API calls and results, joined to the core through `ApiCall::Integrations` and
//! `ApiResponse::Integrations`.

use crate::api::models::Integration;
use crate::api::{ApiError, IntegrationFilter, ListPage};

#[derive(Debug, Clone, PartialEq)]
pub enum IntegrationsCall {
    List {
        filter: IntegrationFilter,
        page: Option<String>,
    },
    Details {
        name: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum IntegrationsResponse {
    List(Result<ListPage<Integration>, ApiError>),
    Details(Result<Box<Integration>, ApiError>),
}
