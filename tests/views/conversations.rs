//! The Clusters tab and its deeper screens (a cluster's issues, a transcript, conversations
//! by source, ingest) as insta snapshots at 80x24 and 40x12, drawn from the sandbox's demo data and reached with
//! the keys a user would type.

use crate::common::views::{demo_scene as scene, render};
use quire::sandbox::tokens;

macro_rules! snapshot_both {
    ($name:literal, $model:expr) => {{
        let mut model = $model;
        insta::assert_snapshot!(concat!($name, "_80x24"), render(&mut model, 80, 24));
        insta::assert_snapshot!(concat!($name, "_40x12"), render(&mut model, 40, 12));
    }};
}

/// Acme → the Clusters tab.
const CLUSTERS: &str = "\r\t\t\t\t\t\t\t\t";

#[tokio::test]
async fn clusters_tab_with_the_pulse() {
    snapshot_both!("clusters_tab", scene(tokens::ADMIN, CLUSTERS).await);
}

#[tokio::test]
async fn a_clusters_issues() {
    snapshot_both!(
        "cluster_issues",
        scene(tokens::ADMIN, &format!("{CLUSTERS}\r")).await
    );
}

#[tokio::test]
async fn an_issues_conversation_transcript() {
    snapshot_both!(
        "conversation_transcript",
        scene(tokens::ADMIN, &format!("{CLUSTERS}\r\r")).await
    );
}

#[tokio::test]
async fn conversations_of_one_source() {
    snapshot_both!(
        "conversations_by_source",
        scene(tokens::ADMIN, &format!("{CLUSTERS}vf")).await
    );
}

#[tokio::test]
async fn ingest_prompt() {
    snapshot_both!(
        "clusters_ingest_prompt",
        scene(tokens::ADMIN, &format!("{CLUSTERS}i/tmp/conversation.json")).await
    );
}

#[tokio::test]
async fn the_transcript_scrolls_to_its_last_message() {
    let mut model = scene(tokens::ADMIN, &format!("{CLUSTERS}\r\r")).await;
    let top = render(&mut model, 80, 24);
    assert!(!top.contains("add this to the quickstart"), "{top}");
    quire::app::update(&mut model, crate::common::char_key('G'));
    let bottom = render(&mut model, 80, 24);
    assert!(bottom.contains("add this to the quickstart"), "{bottom}");
    quire::app::update(&mut model, crate::common::char_key('g'));
    assert!(render(&mut model, 80, 24).contains("Attributes plan=pro"));
}
