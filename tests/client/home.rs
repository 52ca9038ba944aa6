//! `api::home::gather` against the sandbox: `@me` resolved, every organization asked per
//! section, answers sent as they come (one per section and organization), a space's title and
//! a change request's reviews read once however many rows name them, client-side filters
//! (approved and mergeable) applied, and never more than sixteen requests in flight.

use std::time::Duration;

use quire::api::change_requests::watch::{Event, Snapshot};
use quire::api::home::{
    HomeEvent, MAX_IN_FLIGHT, Person, ReviewState, SectionQuery, default_sections, gather,
};
use quire::api::{Client, ClientConfig, Token};
use quire::runtime::calls::home::call_home;
use quire::sandbox::{Sandbox, SandboxOptions, demo_ids, tokens};
use quire::vocabulary::home::{HomeAnswer, HomeBoard, HomeCall};

type TestResult = Result<(), Box<dyn std::error::Error>>;

async fn start(latency: Duration) -> Result<Sandbox, Box<dyn std::error::Error>> {
    let options = SandboxOptions {
        latency,
        ..SandboxOptions::default()
    };
    Ok(Sandbox::start("127.0.0.1:0".parse()?, options).await?)
}

/// Every event of one gathering, in the order sent.
async fn gathered(client: &Client, sections: &[SectionQuery]) -> Vec<HomeEvent> {
    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel();
    let reading = gather(client, sections, sender);
    let collecting = async {
        let mut events = Vec::new();
        while let Some(event) = receiver.recv().await {
            events.push(event);
        }
        events
    };
    tokio::join!(reading, collecting).1
}

fn board_of(sections: Vec<SectionQuery>, events: Vec<HomeEvent>) -> HomeBoard {
    let mut board = HomeBoard::new(sections);
    for event in events {
        board.apply(event);
    }
    board
}

#[tokio::test]
async fn the_default_sections_fill_from_both_organizations_one_answer_each() -> TestResult {
    let sandbox = start(Duration::ZERO).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))?;
    let sections = default_sections();
    let events = gathered(&client, &sections).await;
    let Some(HomeEvent::Started {
        me,
        organizations,
        expected,
    }) = events.first()
    else {
        panic!("the first event says who and where: {events:?}");
    };
    assert_eq!(me.id, demo_ids::USER_ADMIN);
    assert_eq!(organizations.len(), 2);
    // One answer per organization for each list section; one for the marks (none here:
    // this client keeps no cache).
    assert_eq!(expected, &[2, 2, 2, 2, 1]);
    let answers = events
        .iter()
        .filter(|event| matches!(event, HomeEvent::Answer { .. }))
        .count();
    assert_eq!(answers, 9);
    let board = board_of(sections, events);
    assert!(board.is_complete());
    let ready = &board.sections[2];
    assert_eq!(ready.query.title, "Ready to merge");
    assert!(
        ready
            .rows
            .iter()
            .all(|row| row.review == Some(ReviewState::Approved) && row.may_merge == Some(true)),
        "{:?}",
        ready.rows
    );
    assert!(ready.rows.iter().any(|row| row.id == demo_ids::CR_REVIEW));
    let merged = &board.sections[3];
    let first = merged.rows.first().ok_or("a merged change request")?;
    assert_eq!(first.id, demo_ids::CR_MERGED);
    assert_eq!(first.space.title, "Getting Started");
    assert_eq!(first.organization.title, "Acme Robotics");
    assert_eq!(first.review, None, "a merged one waits for no review");
    Ok(())
}

#[tokio::test]
async fn spaces_and_reviews_are_read_once_and_requests_stay_bounded() -> TestResult {
    let sandbox = start(Duration::from_millis(20)).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::REVIEWER),
    ))?;
    // Forty sections of the same open change requests: eighty lists, every row the same
    // few change requests in the same few spaces.
    let sections: Vec<SectionQuery> = (0..40)
        .map(|index| SectionQuery {
            contributor: (index % 2 == 0).then_some(Person::Me),
            ..SectionQuery::open(&format!("Open {index}"))
        })
        .collect();
    sandbox.reset_load();
    let board = board_of(sections.clone(), gathered(&client, &sections).await);
    assert!(board.is_complete());
    assert!(
        board
            .sections
            .iter()
            .all(|section| section.problems.is_empty())
    );
    assert!(
        sandbox.max_requests_in_flight() <= MAX_IN_FLIGHT,
        "{} in flight",
        sandbox.max_requests_in_flight()
    );
    assert_eq!(sandbox.requests("GET", "*/change-requests"), 80);
    let space_reads = sandbox
        .request_counts()
        .get(&format!("GET /spaces/{}", demo_ids::SPACE_GETTING_STARTED))
        .copied();
    assert_eq!(space_reads, Some(1));
    let review_reads = sandbox.requests("GET", "*/reviews");
    let open_rows: std::collections::HashSet<&str> = board
        .sections
        .iter()
        .flat_map(|section| section.rows.iter().map(|row| row.id.as_str()))
        .collect();
    assert_eq!(review_reads, open_rows.len());
    Ok(())
}

#[tokio::test]
async fn a_section_naming_an_unknown_organization_or_space_says_so() -> TestResult {
    let sandbox = start(Duration::ZERO).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::REVIEWER),
    ))?;
    let sections = vec![
        SectionQuery {
            organizations: vec!["Nowhere Inc".into(), "lumen oss".into()],
            ..SectionQuery::open("Lumen")
        },
        SectionQuery {
            spaces: vec!["Getting Started".into(), "No such space".into()],
            ..SectionQuery::open("Getting Started")
        },
    ];
    let board = board_of(sections.clone(), gathered(&client, &sections).await);
    let lumen = &board.sections[0];
    assert_eq!(lumen.problems.len(), 1, "{:?}", lumen.problems);
    assert!(lumen.problems[0].1.to_string().contains("Nowhere Inc"));
    assert!(
        lumen
            .rows
            .iter()
            .all(|row| row.organization.id == demo_ids::LUMEN)
    );
    assert!(!lumen.rows.is_empty());
    let getting_started = &board.sections[1];
    assert!(
        getting_started
            .rows
            .iter()
            .all(|row| row.space.id == demo_ids::SPACE_GETTING_STARTED)
    );
    assert!(!getting_started.rows.is_empty());
    assert_eq!(getting_started.problems.len(), 1);
    assert!(
        getting_started.problems[0]
            .1
            .to_string()
            .contains("No such space")
    );
    Ok(())
}

/// One Home look at the big demo's 2,000-thread change request, after `seen`.
async fn look_at_the_big_change_request(
    client: &Client,
    seen: Option<Box<Snapshot>>,
) -> (Box<Snapshot>, Vec<Event>) {
    let call = HomeCall::Look {
        space: demo_ids::SPACE_BIG.to_string(),
        change_request: demo_ids::CR_BIG.to_string(),
        seen,
    };
    match call_home(client, call).await {
        HomeAnswer::Looked { looked, .. } => looked.expect("the look answers"),
        other => panic!("not a look: {other:?}"),
    }
}

#[tokio::test]
async fn a_look_at_a_large_change_request_reads_one_page_of_its_threads() -> TestResult {
    let options = SandboxOptions {
        big: true,
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::start("127.0.0.1:0".parse()?, options).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))?;
    let thread_lists = || sandbox.requests("GET", "*/change-requests/*/comments");

    let (first, told) = look_at_the_big_change_request(&client, None).await;
    assert_eq!(
        thread_lists(),
        1,
        "the first look reads one page of threads"
    );
    assert!(told.is_empty());
    assert!(first.comments.len() < demo_ids::CR_BIG_THREAD_COUNT);

    let (second, told) = look_at_the_big_change_request(&client, Some(first)).await;
    assert_eq!(
        thread_lists(),
        2,
        "a look at it unchanged reads one page too"
    );
    assert!(told.is_empty(), "nothing new: {told:?}");

    let someone = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::EDITOR),
    ))?;
    someone
        .post_comment(
            demo_ids::SPACE_BIG,
            demo_ids::CR_BIG,
            "One more thread",
            None,
        )
        .await?;
    let before = thread_lists();
    let (_, told) = look_at_the_big_change_request(&client, Some(second)).await;
    assert_eq!(
        thread_lists() - before,
        1,
        "a look at it changed reads one page"
    );
    let said: Vec<&str> = told.iter().map(|event| event.what.as_str()).collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("One more thread"), "{said:?}");
    Ok(())
}
