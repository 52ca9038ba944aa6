//! Change requests in the sandbox: listing, status changes, merge and update from main, the
//! change request's own content and semantic changes, review comments with replies and
//! reactions, reviews and requested reviewers.
//!
//! Kept apart from the walking-skeleton routes: [`routes::router`] is merged into the sandbox's
//! router, the records live in [`model::ChangeRequests`] (one field of the world) and the demo
//! data is built in `demo/change_requests/`.

pub(crate) mod content;
pub(crate) mod model;
pub(crate) mod render;
pub(crate) mod routes;
