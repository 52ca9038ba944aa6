//! Carries out an [`IntegrationsCall`] with the API client.

use crate::api::Client;
use crate::vocabulary::integrations::{IntegrationsCall, IntegrationsResponse};

pub async fn call_integrations(client: &Client, call: IntegrationsCall) -> IntegrationsResponse {
    match call {
        IntegrationsCall::List { filter, page } => {
            IntegrationsResponse::List(client.list_integrations(&filter, page.as_deref()).await)
        }
        IntegrationsCall::Details { name } => {
            IntegrationsResponse::Details(client.get_integration(&name).await.map(Box::new))
        }
    }
}
