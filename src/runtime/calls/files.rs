//! Carries out a [`FilesCall`]: the runtime's `call_api` hands every `ApiCall::Files` here.

use crate::api::Client;
use crate::vocabulary::files::{FilesCall, FilesResponse};

pub async fn call_files(client: &Client, call: FilesCall) -> FilesResponse {
    match call {
        FilesCall::List { source, cursor } => {
            FilesResponse::Files(client.list_content_files(&source, cursor.as_deref()).await)
        }
        FilesCall::Get { source, file } => {
            FilesResponse::File(client.get_content_file(&source, &file).await)
        }
    }
}
