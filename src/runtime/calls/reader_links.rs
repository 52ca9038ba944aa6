//! Carries out a [`ReaderCall`]: the runtime's `call_api` hands every `ApiCall::Reader` here.

use crate::api::Client;
use crate::vocabulary::reader_links::{ReaderCall, ReaderResponse};

/// Carries out a [`ReaderCall`]; both requests run at once.
pub async fn call_reader(client: &Client, call: ReaderCall) -> ReaderResponse {
    match call {
        ReaderCall::SpacePages { space } => {
            let (found, pages) = tokio::join!(client.get_space(&space), client.list_pages(&space));
            ReaderResponse::SpacePages(found.and_then(|found| pages.map(|pages| (found, pages))))
        }
    }
}
