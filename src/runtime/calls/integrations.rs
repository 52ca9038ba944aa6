//! Carries out an [`IntegrationsCall`] with the API client.

use crate::api::{Client, PublishManifest};
use crate::vocabulary::integrations::{IntegrationsCall, IntegrationsResponse};

pub async fn call_integrations(client: &Client, call: IntegrationsCall) -> IntegrationsResponse {
    match call {
        IntegrationsCall::List { filter, page } => {
            IntegrationsResponse::List(client.list_integrations(&filter, page.as_deref()).await)
        }
        IntegrationsCall::Details { name } => {
            IntegrationsResponse::Details(client.get_integration(&name).await.map(Box::new))
        }
        IntegrationsCall::ReadManifest { path } => {
            IntegrationsResponse::Manifest(read_manifest(&path).map(Box::new))
        }
        IntegrationsCall::Publish { manifest } => IntegrationsResponse::Published(
            client.publish_integration(&manifest).await.map(Box::new),
        ),
    }
}

/// The manifest at `path`, checked as `quire integrations publish` checks it; the reason in
/// words when it cannot be published.
fn read_manifest(path: &str) -> Result<PublishManifest, String> {
    // A manifest is small: reading it here does not hold the loop up.
    let text = std::fs::read_to_string(super::conversations::expand_home(path))
        .map_err(|error| format!("{path} could not be read: {error}"))?;
    PublishManifest::from_json(&text).map_err(|problems| {
        let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
        format!(
            "{path} is not a manifest quire can publish: {}",
            listed.join("; ")
        )
    })
}
