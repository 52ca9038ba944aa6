//! Carries out an [`OpenApiCall`] with the API client.

use crate::api::{Client, DEFAULT_MAX_PAGES, encode_segment};
use crate::app::openapi::{OpenApiCall, OpenApiResponse};

pub async fn call_openapi(client: &Client, call: OpenApiCall) -> OpenApiResponse {
    use OpenApiResponse::{Content, Deleted, Saved, Versions};
    match call {
        OpenApiCall::List { organization } => {
            let path = format!("/orgs/{}/openapi", encode_segment(&organization));
            OpenApiResponse::List(
                client
                    .list_up_to(&path, &[], DEFAULT_MAX_PAGES)
                    .await
                    .map(|list| list.items),
            )
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
        OpenApiCall::Versions { organization, slug } => {
            let path = format!(
                "/orgs/{}/openapi/{}/versions",
                encode_segment(&organization),
                encode_segment(&slug)
            );
            Versions(
                client
                    .list_up_to(&path, &[], DEFAULT_MAX_PAGES)
                    .await
                    .map(|list| list.items),
            )
        }
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
