//! Whether a call writes is said by its type (`ApiCall::writes`), and the cache, the outbox and
//! the action log go by it. Here one call of every kind goes to the sandbox and the type's
//! word is checked against what the server received (a write sends something other than a
//! GET, a read only GETs); then, with quire offline, every write must still go out rather than
//! be answered from the cache.

mod samples;

use std::collections::{BTreeSet, HashMap};

use quire::api::cache::Cache;
use quire::api::{Client, ClientConfig, Token};
use quire::app::{ApiCall, Msg, RequestId};
use quire::runtime::{Effects, Executor, SendTurn, call_api};
use quire::sandbox::{Outage, Sandbox, SandboxOptions, tokens};
use samples::{CONVERSATION, KINDS, every_call, kind};

/// The outbox's own calls change the outbox file, not the server: sending sends what it holds.
fn on_the_server(call: &ApiCall) -> bool {
    !matches!(call, ApiCall::Outbox(_))
}

/// The requests other than GETs the sandbox received between `before` and now.
fn writes_received(sandbox: &Sandbox, before: &HashMap<String, usize>) -> Vec<String> {
    sandbox
        .request_counts()
        .into_iter()
        .filter(|(key, count)| !key.starts_with("GET ") && before.get(key) != Some(count))
        .map(|(key, _)| key)
        .collect()
}

async fn sandbox_and_client() -> (Sandbox, Client, tempfile::TempDir) {
    let sandbox = Sandbox::start("127.0.0.1:0".parse().unwrap(), SandboxOptions::default())
        .await
        .expect("sandbox starts");
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .expect("client");
    let folder = tempfile::tempdir().expect("a folder");
    client.use_cache(Cache::open(&folder.path().join("cache.sqlite"), 10 << 20).expect("cache"));
    let conversation = folder.path().join("conversation.json");
    std::fs::write(&conversation, CONVERSATION).expect("the conversation file");
    (sandbox, client, folder)
}

fn conversation_path(folder: &tempfile::TempDir) -> String {
    folder
        .path()
        .join("conversation.json")
        .display()
        .to_string()
}

#[test]
fn every_kind_of_call_has_one_sample() {
    let calls = every_call("conversation.json");
    let kinds: BTreeSet<String> = calls.iter().map(kind).collect();
    assert_eq!(
        kinds.len(),
        calls.len(),
        "one sample of each kind: {kinds:#?}"
    );
    assert_eq!(kinds.len(), KINDS, "{kinds:#?}");
}

/// The action log words every write it is told of: a write has words of its own (or the
/// general ones, never none), a read none.
#[test]
fn every_write_has_words_in_the_log_and_no_read_has_any() {
    use quire::vocabulary::action_log::writes::{A_WRITE, in_words};
    for call in every_call("") {
        let words = in_words(&call);
        if !call.writes() {
            assert_eq!(words, None, "{}", kind(&call));
        } else if on_the_server(&call) {
            assert!(
                words.is_some_and(|words| words != A_WRITE),
                "{} has no words of its own",
                kind(&call)
            );
        } else {
            assert!(words.is_some(), "{}", kind(&call));
        }
    }
}

/// For each call, in order, the requests other than GETs it sent to a fresh sandbox while the
/// server could be reached.
async fn writes_sent_online() -> Vec<(String, Vec<String>)> {
    let (sandbox, client, folder) = sandbox_and_client().await;
    let turn = SendTurn::default();
    let mut sent = Vec::new();
    for call in every_call(&conversation_path(&folder))
        .into_iter()
        .filter(on_the_server)
    {
        let before = sandbox.request_counts();
        let name = kind(&call);
        let _ = call_api(&client, &turn, call).await;
        sent.push((name, writes_received(&sandbox, &before)));
    }
    sandbox.shutdown().await;
    sent
}

#[tokio::test]
async fn a_call_sends_the_server_something_other_than_a_get_exactly_when_its_type_says_it_writes() {
    let calls: Vec<ApiCall> = every_call("").into_iter().filter(on_the_server).collect();
    let mut wrong = Vec::new();
    for (call, (name, received)) in calls.iter().zip(writes_sent_online().await) {
        if call.writes() == received.is_empty() {
            let writes = call.writes();
            wrong.push(format!(
                "{name}: writes() is {writes}, the server got {received:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Every call that writes online (by what the server receives, not by its type) is sent to
/// the server just the same while quire seems offline: none is answered from the cache.
#[tokio::test]
async fn offline_every_write_still_goes_to_the_server_and_is_not_answered_from_the_cache() {
    let online = writes_sent_online().await;
    let (sandbox, client, folder) = sandbox_and_client().await;
    let (sender, _receiver) = tokio::sync::mpsc::unbounded_channel::<Msg>();
    let executor = Executor::new(
        Effects {
            client: Some(client.clone()),
            drafts: None,
            theme: Default::default(),
            render: Default::default(),
        },
        sender,
    );
    let calls = every_call(&conversation_path(&folder))
        .into_iter()
        .filter(on_the_server);
    let mut cached = Vec::new();
    for (n, (call, (name, sent_online))) in calls.zip(online).enumerate() {
        // quire finds the server out of reach, and it is back before the call is made.
        sandbox.set_outage(Outage::Refuse).await;
        let _ = client.trying_once().current_user().await;
        assert!(client.seems_offline());
        sandbox.set_outage(Outage::None).await;
        let before = sandbox.request_counts();
        if let Some(work) = executor.api(RequestId(n as u64), call) {
            work.await;
        }
        if !sent_online.is_empty() && writes_received(&sandbox, &before).is_empty() {
            cached.push(name);
        }
    }
    assert!(cached.is_empty(), "answered from the cache: {cached:#?}");
    sandbox.shutdown().await;
}
