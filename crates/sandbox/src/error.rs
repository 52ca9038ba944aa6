//! The one error shape every failing sandbox answer uses: `{"error":{"code":…,"message":…}}`,
//! as the service's shared error responses define it.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An error answer: an HTTP status and a human message. Messages never echo credentials.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 404 naming the kind of thing and the id that was not found.
    pub(crate) fn not_found(kind: &str, id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("No {kind} found with id \"{id}\""),
        )
    }

    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub(crate) fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "The API token was rejected: send a valid token as \"Authorization: Bearer <token>\"",
        )
    }

    /// An error with an arbitrary status, used by the `fail_with` fault. Codes that are not
    /// valid HTTP statuses become 500 rather than a panic.
    pub(crate) fn injected(code: u16) -> ApiError {
        let status = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        ApiError::new(
            status,
            format!(
                "Injected fault: the sandbox was told to answer {}",
                status.as_u16()
            ),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({
            "error": { "code": self.status.as_u16(), "message": self.message }
        });
        (self.status, Json(body)).into_response()
    }
}
