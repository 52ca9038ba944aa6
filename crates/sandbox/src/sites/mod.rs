//! Published documentation sites: sites and their settings, publishing, the
//! published structure (sections, nested section groups, site spaces), adaptive-content
//! schema, share links and section groups.
//!
//! Kept in its own module so that it only meets the rest of the sandbox at three points: the
//! `sites` field of the world, the router merge, and the demo data.

pub(crate) mod model;
pub(crate) mod render;
pub(crate) mod routes;
pub mod schema_shape;
pub(crate) mod validate;
