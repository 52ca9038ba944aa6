//! Carries out an [`OpenApiCall`] with the API client.

use crate::api::Client;
use crate::vocabulary::openapi::{OpenApiCall, OpenApiResponse};

/// Pages of an organization's OpenAPI specs, or of a spec's versions, read before the screen
/// shows what it read, "stopped after N pages": twenty thousand is far beyond any
/// organization, and an endless list then costs a second, not a minute.
pub const OPENAPI_PAGES: usize = 20;

pub async fn call_openapi(client: &Client, call: OpenApiCall) -> OpenApiResponse {
    use OpenApiResponse::{Content, Deleted, Saved, Versions};
    match call {
        OpenApiCall::List { organization } => {
            OpenApiResponse::List(client.all_openapi_specs(&organization, OPENAPI_PAGES).await)
        }
        OpenApiCall::Create {
            organization,
            slug,
            url,
        } => Saved(client.create_openapi_spec(&organization, &slug, &url).await),
        OpenApiCall::Replace {
            organization,
            slug,
            url,
        } => Saved(
            client
                .replace_openapi_source(&organization, &slug, &url)
                .await,
        ),
        OpenApiCall::SetVisibility {
            organization,
            slug,
            visibility,
        } => Saved(
            client
                .set_openapi_visibility(&organization, &slug, &visibility)
                .await,
        ),
        OpenApiCall::Delete { organization, slug } => {
            Deleted(client.delete_openapi_spec(&organization, &slug).await)
        }
        OpenApiCall::Version {
            organization,
            slug,
            version,
        } => OpenApiResponse::Version(
            client
                .get_openapi_version(&organization, &slug, &version)
                .await,
        ),
        OpenApiCall::Spec { organization, slug } => {
            OpenApiResponse::Spec(client.get_openapi_spec(&organization, &slug).await)
        }
        OpenApiCall::Versions { organization, slug } => Versions(
            client
                .all_openapi_versions(&organization, &slug, OPENAPI_PAGES)
                .await,
        ),
        OpenApiCall::Content {
            organization,
            slug,
            version,
        } => Content(
            client
                .get_openapi_content(&organization, &slug, &version)
                .await,
        ),
    }
}
