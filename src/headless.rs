//! Runs the app without a terminal: commands are carried out by the runtime's own executor,
//! inline and in order, until nothing is left to do. Used to render screenshots from the demo
//! data, and handy in tests.

use std::collections::VecDeque;
use std::time::Duration;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use crate::api::{Client, ClientConfig, Token};
use crate::app::{Cmd, Model, Msg, RequestId, update};
use crate::runtime::{Effects, Executor, Host, Surroundings, Work};
use crate::sandbox::{Sandbox, SandboxOptions, tokens};
use crate::ui::theme::Theme;

/// A sandbox on a free loopback port and a client signed in to it as the demo admin: how the
/// benchmarks meet the server.
pub async fn local_sandbox(options: SandboxOptions) -> std::io::Result<(Sandbox, Client)> {
    let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    let sandbox = Sandbox::start(loopback, options).await?;
    let client = Client::new(ClientConfig::new(
        sandbox.base_url(),
        Token::new(tokens::ADMIN),
    ))
    .map_err(|error| std::io::Error::other(error.to_string()))?;
    Ok((sandbox, client))
}

/// What a user's run has, with `client` and no drafts kept on disk.
pub fn effects_with(client: Client) -> Effects {
    Effects {
        client: Some(client),
        drafts: None,
        theme: Theme::default(),
        render: Default::default(),
    }
}

/// Applies `msg` and everything it leads to (API calls, parses, highlights) until the model is
/// quiet. Clipboard, browser, suspend and `$EDITOR` commands are left out.
pub async fn settle(model: &mut Model, effects: &Effects, msg: Msg) {
    let mut inline = Inline::new(effects, false);
    inline.settle(model, VecDeque::from([msg])).await;
}

/// What the runtime hears through the client's observer (`Msg::Lack`), taken here from the
/// client after each step.
fn learn_lacks(model: &mut Model, effects: &Effects) {
    if let Some(client) = &effects.client {
        for lack in client.capabilities().all() {
            model.lacking.learn(lack);
        }
    }
}

/// Like [`settle`], but timers do not go off: their ids are returned, so a test can fire one
/// when it chooses (a watch refresh) instead of looping on a timer that re-arms itself.
pub async fn settle_holding_timers(
    model: &mut Model,
    effects: &Effects,
    msg: Msg,
) -> Vec<crate::app::RequestId> {
    let mut inline = Inline::new(effects, true);
    inline.settle(model, VecDeque::from([msg])).await;
    inline.held_timers
}

/// Runs the model's first command and settles.
pub async fn start(model: &mut Model, effects: &Effects) {
    let mut inline = Inline::new(effects, false);
    let mut queue = VecDeque::new();
    inline.run(model.init(), &mut queue).await;
    inline.settle(model, queue).await;
}

/// Types `keys` one by one ("\r" is enter, "\x1b" escape), settling after each.
pub async fn type_keys(model: &mut Model, effects: &Effects, keys: &str) {
    for c in keys.chars() {
        let code = match c {
            '\r' | '\n' => KeyCode::Enter,
            '\u{1b}' => KeyCode::Esc,
            '\t' => KeyCode::Tab,
            c => KeyCode::Char(c),
        };
        let modifiers = if c.is_ascii_uppercase() {
            KeyModifiers::SHIFT
        } else {
            KeyModifiers::NONE
        };
        settle(model, effects, Msg::Key(KeyEvent::new(code, modifiers))).await;
    }
}

/// The runtime's executor without a terminal: each command's work runs to its end, in order,
/// before the next command, and what it answers is queued in that order. No clock: a timer
/// goes off at once, after what is already queued (or is held, for the test to fire).
struct Inline {
    executor: Executor,
    receiver: UnboundedReceiver<Msg>,
    steps: Vec<Step>,
    hold_timers: bool,
    held_timers: Vec<RequestId>,
}

/// What one command led to, in order.
enum Step {
    Now(Box<Msg>),
    Later(Work),
}

impl Inline {
    fn new(effects: &Effects, hold_timers: bool) -> Inline {
        let (sender, receiver) = unbounded_channel();
        Inline {
            executor: Executor::new(effects.clone(), sender),
            receiver,
            steps: Vec::new(),
            hold_timers,
            held_timers: Vec::new(),
        }
    }

    async fn settle(&mut self, model: &mut Model, mut queue: VecDeque<Msg>) {
        while let Some(msg) = queue.pop_front() {
            let cmd = update(model, msg);
            self.run(cmd, &mut queue).await;
            learn_lacks(model, self.executor.effects());
        }
    }

    async fn run(&mut self, cmd: Cmd, queue: &mut VecDeque<Msg>) {
        let executor = self.executor.clone();
        if let Err(error) = executor.execute(cmd, self) {
            tracing::warn!(%error, "a command failed headless");
        }
        for step in std::mem::take(&mut self.steps) {
            match step {
                Step::Now(msg) => queue.push_back(*msg),
                Step::Later(work) => {
                    work.await;
                    while let Ok(msg) = self.receiver.try_recv() {
                        queue.push_back(msg);
                    }
                }
            }
        }
    }
}

impl Surroundings for Inline {
    fn deliver(&mut self, msg: Msg) {
        self.steps.push(Step::Now(Box::new(msg)));
    }

    fn perform(&mut self, work: Work) {
        self.steps.push(Step::Later(work));
    }

    fn timer(&mut self, id: RequestId, _after: Duration) {
        if self.hold_timers {
            self.held_timers.push(id);
        } else {
            self.steps.push(Step::Now(Box::new(Msg::Timer(id))));
        }
    }

    fn host(&mut self) -> Option<&mut dyn Host> {
        None
    }

    fn repaint(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs commands the way the runtime does over a network, counted in waves: every API call a
/// wave asks for is sent at once (through the runtime's executor), the answers are applied,
/// and the calls they lead to make the next wave. Other commands (parses, drafts) are left
/// out. For benchmarks and tests that count round trips.
pub struct Waves {
    pending: Vec<Cmd>,
}

impl Waves {
    pub fn new(first: Cmd) -> Waves {
        Waves {
            pending: vec![first],
        }
    }

    /// Runs waves until `done` holds; returns how many it took, or `None` when nothing was
    /// left to send before it held. What the last wave asked for is kept for the next call.
    pub async fn until(
        &mut self,
        model: &mut Model,
        client: &crate::api::Client,
        mut done: impl FnMut(&Model) -> bool,
    ) -> Option<usize> {
        let (sender, _) = unbounded_channel();
        let executor = Executor::new(effects_with(client.clone()), sender);
        let mut waves = 0;
        while !done(model) {
            let calls: Vec<_> = self
                .pending
                .drain(..)
                .flat_map(|cmd| cmd.api_calls())
                .collect();
            if calls.is_empty() {
                return None;
            }
            waves += 1;
            // Each call answers on its own channel, so the answers are applied in the order
            // the calls were asked, whichever came first.
            let answers = futures::future::join_all(calls.into_iter().map(|(request, call)| {
                let (sender, mut receiver) = unbounded_channel();
                let work = executor.answering_to(sender).api(request, call);
                async move {
                    if let Some(work) = work {
                        work.await;
                    }
                    let mut answers = Vec::new();
                    while let Ok(msg) = receiver.try_recv() {
                        answers.push(msg);
                    }
                    answers
                }
            }))
            .await;
            for msg in answers.into_iter().flatten() {
                self.pending.push(update(model, msg));
            }
        }
        Some(waves)
    }
}

/// Runs commands the way the terminal's loop does over a network: every API call is its own
/// task (through the runtime's executor) and each answer is applied the moment it arrives, so
/// a call's early answer (a review's opening) is seen before the call ends. Other commands
/// (parses, drafts) are left out. For benchmarks that time what the user sees.
pub struct Live {
    executor: Executor,
    answers: UnboundedReceiver<Msg>,
    finished: UnboundedReceiver<()>,
    finish: tokio::sync::mpsc::UnboundedSender<()>,
    in_flight: usize,
}

impl Live {
    pub fn new(client: &Client) -> Live {
        let (sender, answers) = unbounded_channel();
        let (finish, finished) = unbounded_channel();
        Live {
            executor: Executor::new(effects_with(client.clone()), sender),
            answers,
            finished,
            finish,
            in_flight: 0,
        }
    }

    /// Starts `cmd`'s calls, then applies answers as they come until `done` holds after one
    /// (true) or nothing is left in flight (false). Calls still running are kept for the next
    /// call.
    pub async fn run_until(
        &mut self,
        model: &mut Model,
        cmd: Cmd,
        mut done: impl FnMut(&Model) -> bool,
    ) -> bool {
        self.start(cmd);
        loop {
            if done(model) {
                return true;
            }
            if self.in_flight == 0 && self.answers.is_empty() {
                return false;
            }
            // Answers first: a call's answers are all sent before it counts as finished.
            tokio::select! {
                biased;
                Some(msg) = self.answers.recv() => {
                    let cmd = update(model, msg);
                    self.start(cmd);
                }
                Some(()) = self.finished.recv() => self.in_flight -= 1,
                else => return false,
            }
        }
    }

    fn start(&mut self, cmd: Cmd) {
        for (request, call) in cmd.api_calls() {
            let Some(work) = self.executor.api(request, call) else {
                continue;
            };
            let finish = self.finish.clone();
            self.in_flight += 1;
            tokio::spawn(async move {
                work.await;
                let _ = finish.send(());
            });
        }
    }
}
