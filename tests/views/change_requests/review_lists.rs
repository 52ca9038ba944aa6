//! The change-request lists: the organization-wide list names each row's space, the space's
//! own list names the space in its breadcrumb, and an empty `/` filter says how to clear it.
//! Loaded from the real sandbox, drawn at 80x24 and 40x12.

use crate::common::char_key;
use quire::app::view::chrome;
use quire::app::{Model, Msg, Size, update};
use quire::headless;
use quire::runtime::Effects;
use quire::sandbox::{Sandbox, demo_ids};
use quire::screens::Screen;
use quire::screens::change_requests::ChangeRequestList;
use quire::ui::theme::Theme;
use quire::vocabulary::change_requests::ChangeRequestScope;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

async fn list(list: ChangeRequestList) -> (Model, Sandbox) {
    let (sandbox, client) = crate::common::admin_sandbox().await;
    let effects = Effects {
        client: Some(client),
        drafts: None,
        theme: Theme::default(),
        render: Default::default(),
    };
    let mut model = Model::new(
        Screen::ChangeRequests(list),
        crate::common::environment(),
        Size::default(),
    );
    headless::settle(
        &mut model,
        &effects,
        Msg::Resize {
            width: 80,
            height: 24,
        },
    )
    .await;
    headless::start(&mut model, &effects).await;
    (model, sandbox)
}

fn render(model: &mut Model, width: u16, height: u16) -> String {
    update(model, Msg::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| chrome::draw(frame, model)).unwrap();
    terminal.backend().to_string()
}

#[tokio::test]
async fn the_organization_wide_list_has_a_space_column() {
    let mut organization = ChangeRequestList::new(
        ChangeRequestScope::Organization(demo_ids::ACME.to_string()),
        "Acme Robotics",
    );
    organization.space_titles = [(
        demo_ids::SPACE_GETTING_STARTED.to_string(),
        "Getting Started".to_string(),
    )]
    .into();
    let (mut model, _sandbox) = list(organization).await;
    let drawn = render(&mut model, 80, 24);
    assert!(drawn.contains("Space"), "{drawn}");
    assert!(drawn.contains("Getting Started"), "{drawn}");
    insta::assert_snapshot!("change_requests_organization_80x24", drawn);
    insta::assert_snapshot!(
        "change_requests_organization_40x12",
        render(&mut model, 40, 12)
    );
}

#[tokio::test]
async fn the_space_list_names_its_space_and_an_empty_filter_says_how_to_clear_it() {
    let space = ChangeRequestList::new(
        ChangeRequestScope::Space(demo_ids::SPACE_GETTING_STARTED.to_string()),
        "Getting Started",
    );
    let (mut model, _sandbox) = list(space).await;
    assert_eq!(model.breadcrumb(), ["Change requests · Getting Started"]);
    for c in "/zzqq".chars() {
        update(&mut model, char_key(c));
    }
    let drawn = render(&mut model, 80, 24);
    assert!(
        drawn.contains("No matches for 'zzqq' — esc clears"),
        "{drawn}"
    );
    insta::assert_snapshot!("change_requests_space_filtered_80x24", drawn);
    insta::assert_snapshot!(
        "change_requests_space_filtered_40x12",
        render(&mut model, 40, 12)
    );
}

/// The width of the column under `header`: up to the next header (or the row's end).
fn column_width(header_row: &str, header: &str, next: Option<&str>) -> usize {
    let chars: Vec<char> = header_row.chars().collect();
    let find = |needle: &str| {
        let needle: Vec<char> = needle.chars().collect();
        chars
            .windows(needle.len())
            .position(|w| w == needle.as_slice())
    };
    let start = find(header).unwrap_or_else(|| panic!("{header} in {header_row}"));
    let end = next.and_then(find).unwrap_or(chars.len());
    end - start - 1
}

#[tokio::test]
async fn the_subject_takes_the_room_and_every_value_is_whole_when_wide() {
    let mut organization = ChangeRequestList::new(
        ChangeRequestScope::Organization(demo_ids::ACME.to_string()),
        "Acme Robotics",
    );
    organization.space_titles = [(
        demo_ids::SPACE_GETTING_STARTED.to_string(),
        "Getting Started".to_string(),
    )]
    .into();
    let (mut model, _sandbox) = list(organization).await;

    let narrow = render(&mut model, 80, 24);
    let header = narrow.lines().nth(2).unwrap_or_default();
    let subject = column_width(header, "Subject", Some("Author"));
    let updated = column_width(header, "Updated", Some("💬"));
    assert!(
        subject >= 2 * updated,
        "subject {subject}, updated {updated}\n{narrow}"
    );
    insta::assert_snapshot!("change_requests_columns_80x24", narrow);

    let wide = render(&mut model, 160, 45);
    for whole in [
        "Getting Started",
        "spc-platform-runbooks",
        "Fatima Zahra El Idrissi",
        "Hannah Schmidt",
        "Kwame Mensah",
        "Clarify token scopes in Quickstart",
        "Rewrite configuration reference for 3.2",
        "Document gateway install on Raspberry Pi 5",
    ] {
        assert!(wide.contains(whole), "{whole} cut:\n{wide}");
    }
    assert!(!wide.contains('…'), "nothing is cut at 160:\n{wide}");
    let header = wide.lines().nth(2).unwrap_or_default();
    let subject = column_width(header, "Subject", Some("Author"));
    // As wide as its longest subject and its gap, no wider: the author stays next to it.
    let longest = "Document gateway install on Raspberry Pi 5".chars().count();
    assert_eq!(subject, longest, "{wide}");
    insta::assert_snapshot!("change_requests_columns_160x45", wide);
}
