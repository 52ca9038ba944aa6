//! The header offline: "offline · as of 3 h ago" beside the breadcrumb where it fits, "offline"
//! alone where it does not; at 80x24 and 40x12.

use std::time::{Duration, SystemTime};

use crate::common::views::{demo_scene as scene, render};
use quire::app::offline::OfflineState;
use quire::sandbox::tokens;

#[tokio::test]
async fn the_header_says_offline_and_how_old_what_is_shown_is() {
    let mut model = scene(tokens::ADMIN, "\r").await;
    let mut offline = OfflineState::started_offline();
    offline.as_of = Some(SystemTime::now() - Duration::from_secs(3 * 3600 + 60));
    model.offline = offline;
    insta::assert_snapshot!("offline_header_80x24", render(&mut model, 80, 24));
    insta::assert_snapshot!("offline_header_40x12", render(&mut model, 40, 12));
}
