//! Carries out a [`TranslationsCall`] with the API client.

use crate::api::models::Translation;
use crate::api::{ApiError, Client};
use crate::vocabulary::translations::{TranslationList, TranslationsCall, TranslationsResponse};

pub async fn call_translations(client: &Client, call: TranslationsCall) -> TranslationsResponse {
    use TranslationsResponse::{Done, Saved, Space};
    match call {
        TranslationsCall::List { organization } => {
            TranslationsResponse::List(list(client, &organization).await)
        }
        TranslationsCall::Create {
            organization,
            translation,
        } => Saved(client.create_translation(&organization, &translation).await),
        TranslationsCall::SetInstructions {
            organization,
            id,
            instructions,
        } => Saved(
            client
                .set_translation_instructions(&organization, &id, &instructions)
                .await,
        ),
        TranslationsCall::Run { organization, id } => {
            Done(client.run_translation(&organization, &id).await)
        }
        TranslationsCall::Delete { organization, id } => {
            Done(client.delete_translation(&organization, &id).await)
        }
        TranslationsCall::Space { space } => Space(client.get_space(&space).await),
        TranslationsCall::Running { organization, ids } => {
            TranslationsResponse::Running(running(client, &organization, &ids).await)
        }
    }
}

/// Each running translation read alone, in parallel; a failed read is only logged (the next
/// poll or a reload tries again).
async fn running(client: &Client, organization: &str, ids: &[String]) -> Vec<Translation> {
    let reads = futures::future::join_all(
        ids.iter()
            .map(|id| client.get_translation(organization, id)),
    )
    .await;
    reads
        .into_iter()
        .filter_map(|read| {
            read.inspect_err(|error| tracing::info!(%error, "reading a running translation"))
                .ok()
        })
        .collect()
}

/// Pages of the organization's translations (and of its spaces, for their titles) read for the
/// Translations tab before it shows what it read, "stopped after N pages": twenty thousand is
/// far beyond any organization, and an endless list then costs a second, not a minute.
pub const TRANSLATION_PAGES: usize = 20;

/// The translations and, fetched alongside, the organization's spaces for their titles. The
/// spaces are a nicety: when they cannot be read the list still shows, with ids.
async fn list(client: &Client, organization: &str) -> Result<TranslationList, ApiError> {
    let (translations, spaces) = tokio::join!(
        client.list_translations_up_to(organization, TRANSLATION_PAGES),
        client.list_organization_spaces_up_to(organization, TRANSLATION_PAGES)
    );
    let translations = translations?;
    let spaces = spaces.map(|list| list.items).unwrap_or_default();
    Ok(TranslationList {
        unreadable: translations.unreadable.len(),
        stopped_after_pages: translations.stopped_after_pages(),
        translations: translations.items,
        space_titles: spaces
            .iter()
            .map(|space| (space.id.clone(), space.title.clone()))
            .collect(),
        spaces,
    })
}
