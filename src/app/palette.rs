//! The command palette (`:` or `ctrl-k`): one fuzzy list over the actions of the screen on top,
//! the places already loaded (organizations, spaces, pages, change requests, sites) and, when
//! nothing loaded matches, a search of the pages. What is chosen is remembered across runs and
//! comes first next time.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use crate::api::models::{ChangeRequest, Organization, Site, Space};
use crate::app::{Cmd, Model};
use crate::screens::Screen;
use crate::screens::organization::OrgNode;
use crate::ui::input::LineInput;
use crate::ui::keymap::{Action, KeyContext, Keymap};
use crate::ui::list::Selection;
use crate::ui::page_tree::PageNode;
use crate::ui::sanitize::sanitize;
use crate::vocabulary::change_requests::ChangeRequestRef;
use crate::vocabulary::search::SearchScope;

/// How many chosen entries are remembered.
pub const HISTORY_LENGTH: usize = 100;

/// A query shorter than this never offers a search of the pages: too many hits to be useful.
const SEARCH_MIN_CHARS: usize = 3;

/// Short names for common actions, typed in the palette (documented in the README). Only
/// actions that exist; an alias finds its action when that action is offered on this screen.
pub const ALIASES: &[(&str, Action)] = &[
    ("q", Action::Quit),
    ("quit", Action::Quit),
    ("exit", Action::Quit),
    ("cr", Action::ChangeRequestsOfSpace),
    ("help", Action::Help),
    ("keys", Action::Help),
    ("reload", Action::Refresh),
    ("yank", Action::CopyLink),
    ("copy", Action::CopyLink),
    ("web", Action::OpenInBrowser),
    ("browser", Action::OpenInBrowser),
    ("find", Action::SearchContent),
    ("grep", Action::SearchContent),
    ("toc", Action::TableOfContents),
    ("new", Action::Create),
    ("rm", Action::Delete),
    ("pr", Action::NewChangeRequest),
    ("ship", Action::Merge),
    ("lgtm", Action::Approve),
];

/// A place to go to, found in a screen of the stack (its `owner`).
#[derive(Debug, Clone)]
pub enum Target {
    Organization(Organization),
    Space {
        space: Space,
        organization_title: String,
    },
    /// Shown selected in its organization's Spaces tab (the owner), by id.
    Collection(String),
    /// A tab of the organization screen that owns it.
    Tab(crate::screens::organization::Tab),
    Page {
        space: Space,
        page: PageNode,
    },
    ChangeRequest {
        target: ChangeRequestRef,
        summary: ChangeRequest,
    },
    Site {
        organization: String,
        site: Site,
    },
}

impl Target {
    /// True when `screen` already shows this place (the user is there, or just above it).
    pub fn is_shown_by(&self, screen: &Screen) -> bool {
        match (self, screen) {
            (Target::Organization(organization), Screen::Organization(shown)) => {
                shown.organization.id == organization.id
            }
            (Target::Space { space, .. }, Screen::Space(shown)) => shown.space.id == space.id,
            (Target::Page { page, .. }, Screen::Page(shown)) => shown.page.id == page.id,
            (Target::ChangeRequest { target, .. }, Screen::Review(shown)) => {
                shown.target == *target
            }
            (Target::Site { site, .. }, Screen::Site(shown)) => shown.site.id == site.id,
            _ => false,
        }
    }

    /// The screens a user would open to reach it from its owner, in order.
    pub fn screens(self) -> Vec<Screen> {
        use crate::screens::{
            change_requests::review::ReviewScreen,
            organization::Organization as OrganizationScreen, page::PageScreen, site::SiteScreen,
            space::SpaceScreen,
        };
        match self {
            Target::Collection(_) | Target::Tab(_) => Vec::new(),
            Target::Organization(organization) => {
                vec![Screen::Organization(OrganizationScreen::new(organization))]
            }
            Target::Space {
                space,
                organization_title,
            } => vec![Screen::Space(SpaceScreen::new(space, organization_title))],
            Target::Page { space, page } => vec![Screen::Page(PageScreen::new(space, page, None))],
            Target::ChangeRequest { target, summary } => vec![Screen::Review(Box::new(
                ReviewScreen::new(target, Some(summary)),
            ))],
            Target::Site { organization, site } => {
                vec![Screen::Site(Box::new(SiteScreen::new(&organization, site)))]
            }
        }
    }
}

#[derive(Debug, Clone)]
pub enum EntryKind {
    /// Does what the key does.
    Action(Action),
    /// Opens a place; `owner` is the index of the screen in the stack that listed it.
    GoTo { owner: usize, target: Box<Target> },
    /// Opens the search screen with the query.
    Search { scope: SearchScope, query: String },
    /// Starts quire again with another profile of the config file.
    SwitchProfile(String),
}

#[derive(Debug, Clone)]
pub struct Entry {
    /// Stable across runs, for the history: `action:quit`, `cr:<space>/<id>`, `page:<id>` …
    pub id: String,
    /// Sanitized: it comes from the server for places.
    pub label: String,
    /// Right-aligned: the key of an action, the kind of a place.
    pub detail: String,
    pub kind: EntryKind,
}

/// An entry that passed the query, with the characters of its label that matched.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    pub entry: usize,
    pub matched: Vec<usize>,
}

#[derive(Debug)]
pub struct Palette {
    pub input: LineInput,
    pub entries: Vec<Entry>,
    /// How many of `entries` are fixed; after them sits the offered search, if any.
    fixed: usize,
    /// Where "Search pages for …" searches: the nearest space or organization on the stack.
    pub search_scope: Option<SearchScope>,
    pub shown: Vec<Shown>,
    pub selection: Selection,
}

impl Palette {
    /// The palette for the model as it is now, showing everything for an empty query.
    pub fn open(model: &Model) -> Palette {
        // Listed (for an empty query, and between equal matches) as the help is: this screen's
        // own actions, then the places, then what works everywhere, movement last.
        let (own, wider) = action_entries(&model.keymap, model.top().key_contexts());
        // What this server does not offer is not offered here either.
        let offered = |entry: &Entry| match entry.kind {
            EntryKind::Action(action) => model.lacking_reason(action).is_none(),
            _ => true,
        };
        let (own, wider): (Vec<Entry>, Vec<Entry>) = (
            own.into_iter().filter(offered).collect(),
            wider.into_iter().filter(offered).collect(),
        );
        let mut entries = own;
        entries.extend(target_entries(&model.screens));
        entries.extend(super::palette_tabs::tab_entries(&model.screens));
        entries.extend(wider);
        entries.extend(profile_entries(&model.profiles));
        let fixed = entries.len();
        let mut palette = Palette {
            input: LineInput::default(),
            entries,
            fixed,
            search_scope: search_scope(&model.screens),
            shown: Vec::new(),
            selection: Selection::default(),
        };
        palette.refilter(&model.palette_history);
        palette
    }

    pub fn query(&self) -> &str {
        self.input.text.trim()
    }

    pub fn chosen(&self) -> Option<&Entry> {
        let shown = self.shown.get(self.selection.selected)?;
        self.entries.get(shown.entry)
    }

    /// Matches the query again: best first, the recently chosen ranked up, a search offered
    /// when nothing loaded matches well.
    pub fn refilter(&mut self, history: &History) {
        self.entries.truncate(self.fixed);
        let query = self.query().to_string();
        self.shown = if query.is_empty() {
            recent_first(&self.entries, history)
        } else {
            ranked(&self.entries, &query, history)
        };
        if let Some(search) = self.offered_search(&query) {
            self.entries.push(search);
            self.shown.push(Shown {
                entry: self.entries.len() - 1,
                matched: Vec::new(),
            });
        }
        self.selection.top();
    }

    /// "Search pages for '<query>'" when the query is long enough and no loaded place has it
    /// in its title.
    fn offered_search(&self, query: &str) -> Option<Entry> {
        let scope = self.search_scope.clone()?;
        if query.chars().count() < SEARCH_MIN_CHARS {
            return None;
        }
        let lower = query.to_lowercase();
        let found = self.entries.iter().any(|entry| {
            matches!(entry.kind, EntryKind::GoTo { .. })
                && entry.label.to_lowercase().contains(&lower)
        });
        if found {
            return None;
        }
        Some(Entry {
            id: format!("search:{query}"),
            label: format!("Search pages for '{}'", sanitize(query)),
            detail: format!("in {}", sanitize(scope.title())),
            kind: EntryKind::Search {
                scope,
                query: query.to_string(),
            },
        })
    }
}

/// "Switch profile: NAME" for each other profile of the config file.
fn profile_entries(profiles: &[String]) -> Vec<Entry> {
    profiles
        .iter()
        .map(|name| Entry {
            id: format!("profile:{name}"),
            label: format!("Switch profile: {}", sanitize(name)),
            detail: "restarts quire".to_string(),
            kind: EntryKind::SwitchProfile(name.clone()),
        })
        .collect()
}

/// Contexts many screens share; the others are a screen's own.
fn is_shared(context: KeyContext) -> bool {
    matches!(
        context,
        KeyContext::List
            | KeyContext::Browse
            | KeyContext::Tree
            | KeyContext::Tabs
            | KeyContext::Reader
            | KeyContext::Global
    )
}

/// Moves: offered last, since their keys are quicker than the palette.
const MOVEMENT: &[Action] = &[
    Action::Up,
    Action::Down,
    Action::HalfPageUp,
    Action::HalfPageDown,
    Action::PageUp,
    Action::PageDown,
    Action::Top,
    Action::Bottom,
];

/// Every action bound on the screen on top (and everywhere), with its first key: the screen's
/// own actions, and the wider ones (movement last).
fn action_entries(keymap: &Keymap, screen_contexts: &[KeyContext]) -> (Vec<Entry>, Vec<Entry>) {
    let mut contexts = screen_contexts.to_vec();
    contexts.push(KeyContext::Global);
    let own_contexts: Vec<KeyContext> = contexts
        .iter()
        .copied()
        .filter(|context| !is_shared(*context))
        .collect();
    let entry = |action: Action| -> Option<Entry> {
        let keys = keymap.keys_for(&contexts, action);
        let first = keys.first()?;
        Some(Entry {
            id: format!("action:{}", action.name()),
            label: capitalised(action.help()),
            detail: first.to_string(),
            kind: EntryKind::Action(action),
        })
    };
    let offered = Action::ALL
        .iter()
        .copied()
        .filter(|action| *action != Action::CommandPalette);
    let (own, wider): (Vec<Action>, Vec<Action>) =
        offered.partition(|action| !keymap.keys_for(&own_contexts, *action).is_empty());
    let (movement, rest): (Vec<Action>, Vec<Action>) = wider
        .into_iter()
        .partition(|action| MOVEMENT.contains(action));
    let own = own.into_iter().filter_map(entry).collect();
    let wider = rest.into_iter().chain(movement).filter_map(entry).collect();
    (own, wider)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Places listed by the screens of the stack, the nearest (topmost) owner kept for each.
fn target_entries(screens: &[Screen]) -> Vec<Entry> {
    let mut seen = HashSet::new();
    let mut entries = Vec::new();
    for (owner, screen) in screens.iter().enumerate().rev() {
        for (id, label, detail, target) in targets_of(screen) {
            if seen.insert(id.clone()) {
                entries.push(Entry {
                    id,
                    label: sanitize(&label).into_owned(),
                    detail: sanitize(&detail).into_owned(),
                    kind: EntryKind::GoTo {
                        owner,
                        target: Box::new(target),
                    },
                });
            }
        }
    }
    entries
}

type Found = (String, String, String, Target);

fn targets_of(screen: &Screen) -> Vec<Found> {
    match screen {
        Screen::Organizations(list) => list
            .list
            .items
            .iter()
            .map(|organization| {
                (
                    format!("org:{}", organization.id),
                    organization.title.clone(),
                    "organization".to_string(),
                    Target::Organization(organization.clone()),
                )
            })
            .collect(),
        Screen::Organization(organization) => organization_targets(organization),
        Screen::Space(space) => {
            let Some(tree) = space.pages.value() else {
                return Vec::new();
            };
            tree.nodes()
                .filter_map(|(_, node)| {
                    let page = &node.item;
                    page.has_body().then(|| {
                        (
                            format!("page:{}", page.id),
                            page.title.clone(),
                            format!("page · {}", space.space.title),
                            Target::Page {
                                space: space.space.clone(),
                                page: page.clone(),
                            },
                        )
                    })
                })
                .collect()
        }
        Screen::ChangeRequests(list) => change_request_targets(&list.list.items),
        _ => Vec::new(),
    }
}

fn organization_targets(screen: &crate::screens::organization::Organization) -> Vec<Found> {
    let mut found = Vec::new();
    if let Some(tree) = screen.tree.value() {
        for (_, node) in tree.nodes() {
            if let OrgNode::Collection(collection) = &node.item {
                found.push((
                    format!("collection:{}", collection.id),
                    collection.title.clone(),
                    format!("collection · {}", screen.organization.title),
                    Target::Collection(collection.id.clone()),
                ));
            }
            if let OrgNode::Space(space) = &node.item {
                found.push((
                    format!("space:{}", space.id),
                    space.title.clone(),
                    format!("space · {}", screen.organization.title),
                    Target::Space {
                        space: space.clone(),
                        organization_title: screen.organization.title.clone(),
                    },
                ));
            }
        }
    }
    found.extend(change_request_targets(
        &screen.change_requests.list.list.items,
    ));
    for site in &screen.sites.list.items {
        found.push((
            format!("site:{}", site.id),
            site.title.clone(),
            "site".to_string(),
            Target::Site {
                organization: screen.organization.id.clone(),
                site: site.clone(),
            },
        ));
    }
    found
}

fn change_request_targets(items: &[ChangeRequest]) -> Vec<Found> {
    items
        .iter()
        .filter_map(|change_request| {
            let space = change_request.space.clone()?;
            let number = change_request
                .number
                .map(|n| format!("#{n} "))
                .unwrap_or_default();
            Some((
                format!("cr:{space}/{}", change_request.id),
                format!("{number}{}", change_request.subject),
                "change request".to_string(),
                Target::ChangeRequest {
                    target: ChangeRequestRef {
                        space,
                        change_request: change_request.id.clone(),
                    },
                    summary: change_request.clone(),
                },
            ))
        })
        .collect()
}

/// Where a search from here looks: the nearest space, else the nearest organization.
fn search_scope(screens: &[Screen]) -> Option<SearchScope> {
    let space = screens.iter().rev().find_map(|screen| match screen {
        Screen::Space(space) => Some(SearchScope::Space {
            id: space.space.id.clone(),
            title: space.space.title.clone(),
        }),
        _ => None,
    });
    space.or_else(|| {
        screens.iter().rev().find_map(|screen| match screen {
            Screen::Organization(organization) => Some(SearchScope::Organization {
                id: organization.organization.id.clone(),
                title: organization.organization.title.clone(),
            }),
            _ => None,
        })
    })
}

/// Every entry, the recently chosen first (most recent on top), the rest in their order.
fn recent_first(entries: &[Entry], history: &History) -> Vec<Shown> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|index| history.rank(&entries[*index].id).unwrap_or(usize::MAX));
    order
        .into_iter()
        .map(|entry| Shown {
            entry,
            matched: Vec::new(),
        })
        .collect()
}

/// Entries the query matches, best first. An alias typed in full puts its action on top; a
/// recently chosen entry gains a little, so between equal matches the familiar one wins.
fn ranked(entries: &[Entry], query: &str, history: &History) -> Vec<Shown> {
    let pattern = Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT);
    let alias = ALIASES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(query))
        .map(|(_, action)| *action);
    let mut buffer = Vec::new();
    let mut indices = Vec::new();
    let mut scored: Vec<(u32, Shown)> = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        indices.clear();
        let haystack = Utf32Str::new(&entry.label, &mut buffer);
        let score = pattern.indices(haystack, &mut matcher, &mut indices);
        let aliased = matches!(entry.kind, EntryKind::Action(action) if Some(action) == alias);
        let score = match (score, aliased) {
            (_, true) => Some(u32::MAX / 2),
            (score, false) => score,
        };
        let Some(score) = score else {
            continue;
        };
        let bonus = history.rank(&entry.id).map_or(0, |rank| {
            (HISTORY_LENGTH - rank.min(HISTORY_LENGTH)) as u32 / 4 + 8
        });
        indices.sort_unstable();
        indices.dedup();
        scored.push((
            score.saturating_add(bonus),
            Shown {
                entry: index,
                matched: indices.iter().map(|i| *i as usize).collect(),
            },
        ));
    }
    // Stable: equal scores keep the entries' own order (actions, then nearest places).
    scored.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
    scored.into_iter().map(|(_, shown)| shown).collect()
}

/// The ids chosen lately, most recent first, and the file they are kept in.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    pub entries: Vec<String>,
    /// None keeps the history for this run only (tests, no home directory).
    pub file: Option<PathBuf>,
}

impl History {
    /// The history kept in `file`; empty when there is none yet or it cannot be read.
    pub fn load(file: PathBuf) -> History {
        let entries = std::fs::read_to_string(&file)
            .map(|text| {
                text.lines()
                    .map(str::trim)
                    .filter(|line| !line.is_empty())
                    .take(HISTORY_LENGTH)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        History {
            entries,
            file: Some(file),
        }
    }

    /// Where `entry` stands, 0 for the most recent.
    pub fn rank(&self, id: &str) -> Option<usize> {
        self.entries.iter().position(|entry| entry == id)
    }

    /// Puts `id` first and asks for the history to be written.
    pub fn remember(&mut self, id: &str) -> Cmd {
        self.entries.retain(|entry| entry != id);
        self.entries.insert(0, id.to_string());
        self.entries.truncate(HISTORY_LENGTH);
        match &self.file {
            Some(path) => Cmd::SavePaletteHistory {
                path: path.clone(),
                entries: self.entries.clone(),
            },
            None => Cmd::None,
        }
    }
}

/// The history's file in quire's state directory.
pub fn history_file(state_dir: &Path) -> PathBuf {
    state_dir.join("palette-history")
}

/// Writes the history (carrying out `Cmd::SavePaletteHistory`); ids hold no line breaks, and a
/// line that does is left out rather than split.
pub fn save_history(path: &Path, entries: &[String]) -> std::io::Result<()> {
    if let Some(directory) = path.parent() {
        crate::vocabulary::drafts::create_private_dir(directory)?;
    }
    let text: String = entries
        .iter()
        .filter(|entry| !entry.contains(['\n', '\r']))
        .map(|entry| format!("{entry}\n"))
        .collect();
    crate::vocabulary::drafts::write_private(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, label: &str) -> Entry {
        Entry {
            id: id.to_string(),
            label: label.to_string(),
            detail: String::new(),
            kind: EntryKind::Action(Action::Refresh),
        }
    }

    #[test]
    fn history_ranks_up_between_equal_matches() {
        let entries = vec![entry("a", "Open page"), entry("b", "Open page")];
        let mut history = History::default();
        let first = ranked(&entries, "open", &history);
        assert_eq!(first[0].entry, 0);
        let _ = history.remember("b");
        let again = ranked(&entries, "open", &history);
        assert_eq!(again[0].entry, 1);
        assert_eq!(again[0].matched, vec![0, 1, 2, 3]);
    }

    #[test]
    fn history_is_bounded_and_most_recent_first() {
        let mut history = History::default();
        for index in 0..(HISTORY_LENGTH + 10) {
            let _ = history.remember(&format!("e{index}"));
        }
        let _ = history.remember("e105");
        assert_eq!(history.entries.len(), HISTORY_LENGTH);
        assert_eq!(history.entries[0], "e105");
        assert_eq!(history.rank("e0"), None);
    }
}
