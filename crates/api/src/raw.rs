//! Any request by method and path, for `quire api`: the token, the body rules of the
//! operations table and the learned capabilities apply as to every other call; the answer's
//! bytes come back as they are.

use reqwest::Method;

use super::client::{Client, JsonBody};
use super::error::ApiError;

impl Client {
    /// `method path?query` with `body` (JSON bytes) when given; the answer's body on success.
    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        query: &[(String, String)],
        body: Option<Vec<u8>>,
    ) -> Result<Vec<u8>, ApiError> {
        let (_, bytes) = self.send(method, path, query, body.map(JsonBody)).await?;
        Ok(bytes)
    }
}
