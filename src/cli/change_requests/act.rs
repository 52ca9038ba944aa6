//! `quire cr comment|review|merge|update`: what a reviewer does, from a shell. Merging asks
//! first on a terminal; a script must say `--yes`, so that a missing answer never merges.

use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::Path;

use crate::api::read_back;
use crate::api::{
    ChangeRequest, ChangeRequestStatus, Client, MergeOutcome, ReviewVerdict, Space, UpdateOutcome,
};
use crate::cli::output::Streams;
use crate::cli::script::{self, Failure, Outcome};

/// The comment's text from `--body` or `--body-file` (`-` standard input).
pub(crate) fn comment_text(
    body: Option<&str>,
    body_file: Option<&Path>,
) -> Result<String, Failure> {
    let text = match (body, body_file) {
        (Some(body), _) => body.to_string(),
        (None, Some(file)) if file.as_os_str() == "-" => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|error| Failure::Usage(format!("cannot read standard input: {error}")))?;
            text
        }
        (None, Some(file)) => std::fs::read_to_string(file)
            .map_err(|error| Failure::Usage(format!("cannot read {}: {error}", file.display())))?,
        (None, None) => {
            return Err(Failure::Usage(
                "say what to comment: --body TEXT, or --body-file FILE (`-` for standard input)"
                    .into(),
            ));
        }
    };
    if text.trim().is_empty() {
        return Err(Failure::Usage("the comment is empty".into()));
    }
    Ok(text)
}

/// Said on stderr when a write's answer was lost and reading back found it stored.
const READ_BACK_FOUND: &str =
    "quire: the answer was lost; reading back found it stored, so it was not sent again.";

pub(crate) async fn comment(
    client: &Client,
    space: &str,
    number: &str,
    text: &str,
    page: Option<&str>,
    streams: &mut Streams,
) -> Outcome {
    streams.progress("Posting the comment");
    let page = match page {
        Some(name) => {
            let tree = client.list_change_request_pages(space, number).await?;
            Some(script::find_page(script::flatten(tree), name)?.id)
        }
        None => None,
    };
    // What the user had there first, so a lost answer is read back without taking an older
    // comment with the same text for this one.
    let before = read_back::comments_before(client, (space, number)).await;
    let (before, posted) = read_back::after_a_look(before, || {
        client.post_comment(space, number, text, page.as_deref())
    })
    .await;
    let lost = posted.as_ref().is_err_and(|error| error.outcome_unknown());
    let posted =
        read_back::posted_comment(client, (space, number), text, before.as_ref(), posted).await;
    let posted = script::written(posted)?;
    streams.done();
    if lost {
        streams.error(READ_BACK_FOUND);
    }
    // The comment's address for a person or a script to follow; its id when it has none.
    let address = posted.urls.app.clone().unwrap_or(posted.id);
    let _ = writeln!(streams.out, "{}", streams.shown(&address));
    Ok(())
}

pub(crate) async fn review(
    client: &Client,
    space: &str,
    number: &str,
    approve: bool,
    body: Option<&str>,
    streams: &mut Streams,
) -> Outcome {
    let verdict = if approve {
        ReviewVerdict::Approved
    } else {
        ReviewVerdict::ChangesRequested
    };
    streams.progress("Sending the review");
    let before = read_back::reviews_before(client, (space, number)).await;
    let (before, submitted) = read_back::after_a_look(before, || {
        client.submit_review(space, number, verdict, body)
    })
    .await;
    let lost = submitted
        .as_ref()
        .is_err_and(|error| error.outcome_unknown());
    let submitted =
        read_back::submitted_review(client, (space, number), approve, before.as_ref(), submitted)
            .await;
    script::written(submitted)?;
    streams.done();
    if lost {
        streams.error(READ_BACK_FOUND);
    }
    let said = if approve {
        "Approved"
    } else {
        "Asked for changes on"
    };
    confirm(streams, &format!("{said} change request #{number}."));
    Ok(())
}

pub(crate) async fn merge(
    client: &Client,
    space: &Space,
    number: &str,
    yes: bool,
    streams: &mut Streams,
) -> Outcome {
    if !yes && !std::io::stdin().is_terminal() {
        return Err(Failure::Usage(
            "merging from a script needs --yes (standard input is not a terminal to ask on)".into(),
        ));
    }
    // As `gh pr merge`: whether it can be merged at all is said before anything is asked.
    streams.progress("Reading the change request");
    let change_request = client.get_change_request(&space.id, number).await?;
    streams.done();
    if let Some(refusal) = merge_refusal(&change_request, space) {
        return Err(Failure::Failed(format!("Not merged: {refusal}")));
    }
    if !yes {
        let question = format!(
            "Merge #{number} “{}” into main? [y/N] ",
            change_request.subject
        );
        if !asked_yes(streams, &question) {
            return Err(Failure::Failed("Not merged.".into()));
        }
    }
    let space = space.id.as_str();
    streams.progress("Merging");
    // A merge whose answer was lost may have happened: exit 3, never "run it again".
    let merged = script::written(client.merge_change_request(space, number).await)?;
    streams.done();
    match merged.result {
        MergeOutcome::Merge => {
            confirm(streams, &format!("Merged change request #{number}."));
            Ok(())
        }
        MergeOutcome::Conflicts => Err(Failure::Failed(format!(
            "Not merged: #{number} conflicts with main. Resolve the conflicts in the web app{}, \
             then merge again.",
            web_app_place(&change_request)
        ))),
        MergeOutcome::Other(answer) => Err(Failure::Failed(format!(
            "Not merged: the server answered “{answer}”."
        ))),
    }
}

/// Why `change_request` cannot be merged by this user, before asking: it is not open, or the
/// server does not let them (the change request's permissions, else the space's).
fn merge_refusal(change_request: &ChangeRequest, space: &Space) -> Option<String> {
    let number = change_request.number.unwrap_or_default();
    match change_request.status.as_ref() {
        Some(ChangeRequestStatus::Merged) => {
            let by = change_request
                .merged_by
                .as_ref()
                .map(|user| format!(" by {}", user.display_name))
                .unwrap_or_default();
            return Some(format!("#{number} was already merged{by}."));
        }
        Some(status @ (ChangeRequestStatus::Archived | ChangeRequestStatus::Draft)) => {
            return Some(format!(
                "#{number} is {}; only an open change request can be merged.",
                status.as_str()
            ));
        }
        _ => {}
    }
    let may_merge = change_request
        .permissions
        .as_ref()
        .map_or(space.permissions.merge, |permissions| permissions.merge);
    (!may_merge).then(|| "your role cannot merge in this space: ask an admin.".to_string())
}

pub(crate) async fn update(
    client: &Client,
    space: &str,
    number: &str,
    streams: &mut Streams,
) -> Outcome {
    streams.progress("Updating from main");
    let updated = script::written(client.update_change_request_from_main(space, number).await)?;
    streams.done();
    match updated.result {
        UpdateOutcome::Update => {
            confirm(streams, &format!("Brought main's changes into #{number}."));
            Ok(())
        }
        UpdateOutcome::Conflicts => {
            // Read again for its address: the answer to the update does not carry it.
            let place = match client.get_change_request(space, number).await {
                Ok(change_request) => web_app_place(&change_request),
                Err(_) => String::new(),
            };
            Err(Failure::Failed(format!(
                "Not updated: main's changes conflict with #{number}. \
                 Resolve them in the web app{place}."
            )))
        }
        UpdateOutcome::Other(answer) => Err(Failure::Failed(format!(
            "Not updated: the server answered “{answer}”."
        ))),
    }
}

/// " (https://…)": where the change request is in the web app, when the server said.
fn web_app_place(change_request: &ChangeRequest) -> String {
    change_request
        .urls
        .app
        .as_deref()
        .map(|url| format!(" ({url})"))
        .unwrap_or_default()
}

/// A sentence that the thing was done, for a person: a script reads the exit status.
fn confirm(streams: &mut Streams, sentence: &str) {
    if streams.out_is_terminal {
        let _ = writeln!(streams.out, "{}", crate::ui::sanitize::sanitize(sentence));
    }
}

/// Asks on stderr, reads one line of standard input: only `y` or `yes` is a yes.
pub(crate) fn asked_yes(streams: &mut Streams, question: &str) -> bool {
    let _ = write!(streams.err, "{}", crate::ui::sanitize::sanitize(question));
    let _ = streams.err.flush();
    let mut answer = String::new();
    if std::io::stdin().lock().read_line(&mut answer).is_err() {
        return false;
    }
    matches!(answer.trim().to_lowercase().as_str(), "y" | "yes")
}
