//! Carries out an [`SsoCall`] with the API client.

use crate::api::Client;
use crate::vocabulary::sso::{MAX_CERTIFICATE_FILE, SsoCall, SsoOverview, SsoResponse};

pub async fn call_sso(client: &Client, call: SsoCall) -> SsoResponse {
    match call {
        SsoCall::Overview { organization } => {
            SsoResponse::Overview(overview(client, &organization).await)
        }
        SsoCall::Create {
            organization,
            input,
        } => SsoResponse::Provider(
            client
                .create_saml_provider(&organization, &input)
                .await
                .map(Box::new),
        ),
        SsoCall::Update {
            organization,
            provider,
            input,
        } => SsoResponse::Provider(
            client
                .update_saml_provider(&organization, &provider, &input)
                .await
                .map(Box::new),
        ),
        SsoCall::Delete {
            organization,
            provider,
        } => SsoResponse::Deleted(client.delete_saml_provider(&organization, &provider).await),
        SsoCall::Provider {
            organization,
            provider,
        } => SsoResponse::Read(
            client
                .get_saml_provider(&organization, &provider)
                .await
                .map(Box::new),
        ),
        SsoCall::Teams { organization } => {
            SsoResponse::Teams(client.list_team_summaries(&organization).await)
        }
        SsoCall::ReadCertificate { path } => {
            SsoResponse::Certificate(read_certificate(&path).await)
        }
    }
}

/// Both lists, read at the same time.
async fn overview(
    client: &Client,
    organization: &str,
) -> Result<SsoOverview, crate::api::ApiError> {
    let (providers, logins) = tokio::join!(
        client.list_saml_providers(organization),
        client.list_sso_logins(organization)
    );
    let providers = providers?;
    Ok(SsoOverview {
        providers_stopped_after_pages: providers.stopped_after_pages(),
        providers: providers.items,
        logins: logins?,
    })
}

/// The file's text; `~/` means the home directory. Refuses what is too big to be a
/// certificate or is not text. Read off the async threads: a path may name a slow disk.
async fn read_certificate(path: &str) -> Result<String, String> {
    let path = expand_home(path.trim());
    tokio::task::spawn_blocking(move || read_small_text(&path))
        .await
        .unwrap_or_else(|_| Err("Reading the certificate file stopped".to_string()))
}

fn read_small_text(path: &std::path::Path) -> Result<String, String> {
    let shown = path.display();
    let metadata =
        std::fs::metadata(path).map_err(|error| format!("Could not read {shown}: {error}"))?;
    if metadata.len() > MAX_CERTIFICATE_FILE {
        return Err(format!(
            "{shown} is {} bytes: too big for a certificate",
            metadata.len()
        ));
    }
    let bytes = std::fs::read(path).map_err(|error| format!("Could not read {shown}: {error}"))?;
    String::from_utf8(bytes).map_err(|_| format!("{shown} is not a text (PEM) file"))
}

fn expand_home(path: &str) -> std::path::PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => std::path::PathBuf::from(home).join(rest),
        _ => std::path::PathBuf::from(path),
    }
}
