//! Raw keys become semantic actions through one table. Screens match on `Action`; the footer
//! hints and the `?` help are generated from the same table, and the config file can rebind.

use std::collections::HashMap;
use std::fmt;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Where a binding applies. A screen asks with its contexts, most specific first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyContext {
    Global,
    List,
    /// A list's moves without `/`: for lists with nothing to filter (a handful of rows).
    Browse,
    Tree,
    Tabs,
    Reader,
    ChangeRequests,
    Review,
    Changes,
    Comments,
    Reviews,
    /// A settings form: save.
    Form,
    /// The organization's Sites tab.
    SiteList,
    /// One site, on every tab: publish / unpublish.
    Site,
    ShareLinks,
    SectionGroups,
    Adaptive,
    AccessAudit,
    /// The organization's Members tab: role filter and sort.
    Members,
    /// The organization's Spaces tab: acting on the selected collection or space.
    ContentTree,
    /// Inside a space: its page tree (search, links, files, git sync, new change request).
    SpaceTree,
    /// The organization's Trash tab: deleted spaces.
    Trash,
    /// A space's or a change request's files.
    Files,
    /// A space's git sync screen: import, export, remove a legacy installation.
    Git,
    // ── people: members, teams ──
    /// The organization's Teams tab: create, rename, delete, "teams I can manage".
    Teams,
    /// A team's members: add, remove, change a role, mark rows for a bulk edit.
    TeamMembers,
    // ── admin: SSO, org settings, agent instructions ──
    /// The organization's SSO tab: SAML providers.
    SsoProviders,
    /// The SAML provider form.
    SamlForm,
    /// The organization's Settings tab: the form, agent instructions, invite links.
    OrgSettings,
    /// The organizations list (joining one).
    OrganizationList,
    // ── translations, OpenAPI ──
    /// The organization's Translations tab.
    Translations,
    /// The organization's OpenAPI tab.
    OpenApi,
    /// A spec's versions, and a version's files.
    SpecVersions,
    // ── conversations, integrations ──
    /// The organization's Clusters tab: clusters and conversations.
    Clusters,
    /// A cluster's issues.
    ClusterIssues,
    /// The organization's Integrations tab: the catalogue.
    Integrations,
    // ── reader ──
    /// A page read at full width: its links and the history of pages read.
    ReaderLinks,
    /// The space's page preview while it has the focus: scrolling.
    Preview,
    // ── review flow ──
    /// The action log: this session's writes, `u` undoes one.
    ActionLog,
    // ── end of the area blocks ──
}

macro_rules! actions {
    ($($variant:ident => $name:literal, $help:literal;)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Action { $($variant,)* }

        impl Action {
            pub const ALL: &'static [Action] = &[$(Action::$variant,)*];

            /// The name used in the config file's `[keys]` table.
            pub fn name(self) -> &'static str {
                match self { $(Action::$variant => $name,)* }
            }

            pub fn help(self) -> &'static str {
                match self { $(Action::$variant => $help,)* }
            }

            pub fn from_name(name: &str) -> Option<Action> {
                match name { $($name => Some(Action::$variant),)* _ => None }
            }
        }
    };
}

actions! {
    Up => "up", "move up";
    Down => "down", "move down";
    HalfPageUp => "half_page_up", "half a page up";
    HalfPageDown => "half_page_down", "half a page down";
    PageUp => "page_up", "page up";
    PageDown => "page_down", "page down";
    Top => "top", "go to the top";
    Bottom => "bottom", "go to the bottom";
    Open => "open", "open";
    Back => "back", "back";
    Expand => "expand", "expand";
    Collapse => "collapse", "collapse";
    ExpandAll => "expand_all", "expand all";
    CollapseAll => "collapse_all", "collapse all";
    NextTab => "next_tab", "next tab";
    PreviousTab => "previous_tab", "previous tab";
    Filter => "filter", "filter";
    Search => "search", "search in page";
    NextMatch => "next_match", "next match";
    PreviousMatch => "previous_match", "previous match";
    TableOfContents => "table_of_contents", "table of contents";
    CopyLink => "copy_link", "copy link (OSC 52)";
    OpenInBrowser => "open_in_browser", "open in browser";
    Refresh => "refresh", "refresh";
    Help => "help", "help";
    Quit => "quit", "quit";
    Suspend => "suspend", "suspend (fg resumes)";
    ChangeRequestsOfSpace => "change_requests", "change requests of this space";
    CycleStatus => "cycle_status", "next status tab";
    CycleWho => "cycle_who", "created by me / review requested / contributed";
    NextHunk => "next_hunk", "next change";
    PreviousHunk => "previous_hunk", "previous change";
    ToggleRendered => "toggle_rendered", "read the change request's version";
    ToggleSideBySide => "toggle_side_by_side", "side by side / unified";
    NextThread => "next_thread", "next unresolved thread";
    PreviousThread => "previous_thread", "previous unresolved thread";
    CycleCommentFilter => "cycle_comment_filter", "all / open / resolved threads";
    NewComment => "new_comment", "new comment (changes tab: on the line under ›)";
    Reply => "reply", "reply to the thread";
    React => "react", "react";
    ToggleResolved => "toggle_resolved", "resolve / reopen the thread";
    EditOwn => "edit_comment", "edit your comment";
    DeleteOwn => "delete_comment", "delete your comment";
    WhoReacted => "who_reacted", "who reacted";
    Approve => "approve", "approve";
    RequestChanges => "request_changes", "request changes";
    AddReviewer => "add_reviewer", "request a reviewer";
    RemoveReviewer => "remove_reviewer", "remove a requested reviewer";
    Merge => "merge", "merge (shows a pre-flight check first)";
    UpdateFromMain => "update_from_main", "bring main's changes in";
    ToggleDraft => "toggle_draft", "draft ↔ ready for review";
    Archive => "archive", "archive";
    EditSubject => "edit_subject", "edit the change request's subject";
    ChangesTab => "changes_tab", "changes";
    CommentsTab => "comments_tab", "comments";
    ReviewsTab => "reviews_tab", "reviews";
    Save => "save", "save changes";
    Publish => "publish", "publish / unpublish the site";
    Create => "create", "create";
    Rename => "rename", "rename";
    ChangeIcon => "change_icon", "change the icon";
    ToggleActive => "toggle_active", "activate / deactivate";
    Delete => "delete", "delete";
    AddSection => "add_section", "add a section to the group";
    RemoveSection => "remove_section", "remove a section from the group";
    PublishedFilter => "published_filter", "show published: all / yes / no";
    AccessView => "access_view", "access: who can reach what";
    Revoke => "revoke", "revoke (deactivate) a share link";
    EditSchema => "edit_schema", "edit the schema as JSON";
    RoleFilter => "role_filter", "role shown: all / admin / … / guest";
    MemberSort => "member_sort", "order: joined / last seen, newest / oldest";
    EditDescription => "edit_description", "edit the description";
    DefaultLevel => "default_level", "default access level";
    Move => "move", "move (to a collection, before/after a space)";
    Transfer => "transfer", "transfer to another organization";
    ToggleLock => "toggle_lock", "lock / unlock editing";
    EditLanguage => "edit_language", "language";
    MergeRules => "merge_rules", "merge rules";
    Duplicate => "duplicate", "duplicate";
    Restore => "restore", "restore from the trash";
    SearchContent => "search_content", "search the space / organization";
    LinksReport => "links_report", "links report";
    Files => "files", "files";
    Backlinks => "backlinks", "what links here";
    NewChangeRequest => "new_change_request", "new change request";
    Pdf => "pdf", "PDF address";
    StatusPicker => "status_picker", "statuses shown (several at once)";
    IssueCluster => "issue_cluster", "filter by conversations issues cluster";
    GitSync => "git_sync", "git sync";
    GitImport => "git_import", "import from a git branch";
    GitExport => "git_export", "export to a git branch";
    RemoveLegacyInstallation => "remove_legacy_installation", "remove the legacy git installation";
    // ── people: members, teams ──
    ChangeRole => "change_role", "change the role";
    MakeSsoMember => "make_sso_member", "make an SSO member";
    ManageableTeams => "manageable_teams", "all teams / teams I can manage";
    AddTeamMember => "add_team_member", "add a member to the team";
    Mark => "mark", "mark / unmark the row for a bulk edit";
    BulkEdit => "bulk_edit", "bulk edit: add members, remove the marked ones";

    // ── admin: SSO, org settings, agent instructions ──
    CopyAcsUrl => "copy_acs_url", "copy the ACS URL";
    CopyStartUrl => "copy_start_url", "copy the SSO start URL";
    CopyEntityId => "copy_entity_id", "copy the service's entity ID";
    LoadCertificate => "load_certificate", "load the certificate from a file";
    JoinOrganization => "join_organization", "join an organization (by email domain)";

    // ── translations, OpenAPI ──
    EditInstructions => "edit_instructions", "edit the translation's instructions";
    RunTranslation => "run_translation", "run the translation now";
    SourceSpace => "source_space", "open the source space";
    ResultSpace => "result_space", "open the result space";
    ReplaceSource => "replace_source", "replace the spec's source (a new URL)";
    ToggleVisibility => "toggle_visibility", "public ↔ private";

    // ── conversations, integrations ──
    ClustersView => "clusters_view", "clusters / conversations";
    ClusterSort => "cluster_sort", "sort clusters: last updated / created";
    ClusterOrder => "cluster_order", "newest / oldest first";
    ClusterChangeRequests => "cluster_change_requests", "change requests linked to the cluster";
    SourceFilter => "source_filter", "conversations of one source";
    IngestConversation => "ingest_conversation", "ingest a conversation from a JSON file";
    IntegrationFilters => "integration_filters", "filters: category, scope, target, blocks…";

    // ── command palette ──
    CommandPalette => "command_palette", "command palette: actions, go to, search";
    // ── threads on the diff ──
    ShowThreadHere => "show_thread_here", "a thread marked ▌ ↔ its line in the diff";
    SinceLastReview => "since_last_review", "only what changed since your last review";
    NextNew => "next_new", "next thread new since your last review";
    // ── reader ──
    NextLink => "next_link", "next link on the page";
    PreviousLink => "previous_link", "previous link on the page";
    FollowLink => "follow_link", "follow the link";
    HistoryBack => "history_back", "back to the page read before";
    HistoryForward => "history_forward", "forward again";
    FocusPane => "focus_pane", "focus the tree / the preview";
    ZoomPane => "zoom_pane", "zoom the focused pane to full width and back";
    // The mouse wheel over a space's preview (no key: `j`/`k` move the tree there).
    PreviewWheelDown => "preview_wheel_down", "scroll the preview down (mouse wheel)";
    PreviewWheelUp => "preview_wheel_up", "scroll the preview up (mouse wheel)";
    // ── review flow ──
    ActionLogView => "action_log", "action log: this session's writes (u undoes)";
    Undo => "undo", "undo: apply the inverse of the selected write";
    OverviewTab => "overview_tab", "overview";
    NextChangeRequest => "next_change_request", "next change request of the list";
    PreviousChangeRequest => "previous_change_request", "previous change request of the list";

    // ── end of the area blocks ──

}

/// A key with its modifiers, comparable and printable ("ctrl-d", "G", "enter").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyCombo {
    pub code: KeyCode,
    pub modifiers: KeyModifiers,
}

impl KeyCombo {
    pub const fn plain(code: KeyCode) -> KeyCombo {
        KeyCombo {
            code,
            modifiers: KeyModifiers::NONE,
        }
    }

    pub const fn ctrl(c: char) -> KeyCombo {
        KeyCombo {
            code: KeyCode::Char(c),
            modifiers: KeyModifiers::CONTROL,
        }
    }

    /// Normalises a key event: shift is implied by an upper-case character.
    pub fn from_event(event: &KeyEvent) -> KeyCombo {
        let mut modifiers = event.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
        // Shift is part of an upper-case character and of BackTab (terminals report shift-tab
        // as BackTab with SHIFT set); for other keys it is a modifier of its own.
        if !matches!(event.code, KeyCode::Char(_) | KeyCode::BackTab) {
            modifiers |= event.modifiers & KeyModifiers::SHIFT;
        }
        KeyCombo {
            code: event.code,
            modifiers,
        }
    }

    /// Parses "j", "G", "ctrl-d", "alt-x", "enter", "esc", "pgdn", "space", "f5", "shift-tab".
    pub fn parse(text: &str) -> Option<KeyCombo> {
        let mut modifiers = KeyModifiers::NONE;
        let mut rest = text;
        loop {
            let lower = rest.to_ascii_lowercase();
            if let Some(stripped) = lower.strip_prefix("ctrl-") {
                modifiers |= KeyModifiers::CONTROL;
                rest = &rest[rest.len() - stripped.len()..];
            } else if let Some(stripped) = lower.strip_prefix("alt-") {
                modifiers |= KeyModifiers::ALT;
                rest = &rest[rest.len() - stripped.len()..];
            } else if let Some(stripped) = lower.strip_prefix("shift-") {
                modifiers |= KeyModifiers::SHIFT;
                rest = &rest[rest.len() - stripped.len()..];
            } else {
                break;
            }
        }
        let code = match rest.to_ascii_lowercase().as_str() {
            "enter" | "return" => KeyCode::Enter,
            "esc" | "escape" => KeyCode::Esc,
            "tab" if modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "space" => KeyCode::Char(' '),
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pgup" | "pageup" => KeyCode::PageUp,
            "pgdn" | "pagedown" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "backspace" => KeyCode::Backspace,
            "delete" | "del" => KeyCode::Delete,
            function if function.len() > 1 && function.starts_with('f') => {
                KeyCode::F(function[1..].parse().ok()?)
            }
            _ => {
                let mut chars = rest.chars();
                let c = chars.next()?;
                if chars.next().is_some() {
                    return None;
                }
                KeyCode::Char(c)
            }
        };
        if matches!(code, KeyCode::Char(_) | KeyCode::BackTab) {
            modifiers.remove(KeyModifiers::SHIFT);
        }
        Some(KeyCombo { code, modifiers })
    }
}

impl fmt::Display for KeyCombo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.modifiers.contains(KeyModifiers::CONTROL) {
            f.write_str("ctrl-")?;
        }
        if self.modifiers.contains(KeyModifiers::ALT) {
            f.write_str("alt-")?;
        }
        if self.modifiers.contains(KeyModifiers::SHIFT) {
            f.write_str("shift-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Enter => f.write_str("enter"),
            KeyCode::Esc => f.write_str("esc"),
            KeyCode::Tab => f.write_str("tab"),
            KeyCode::BackTab => f.write_str("shift-tab"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::PageUp => f.write_str("pgup"),
            KeyCode::PageDown => f.write_str("pgdn"),
            KeyCode::Home => f.write_str("home"),
            KeyCode::End => f.write_str("end"),
            KeyCode::Delete => f.write_str("delete"),
            KeyCode::F(n) => write!(f, "f{n}"),
            other => write!(f, "{other:?}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub context: KeyContext,
    pub key: KeyCombo,
    pub action: Action,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Keymap {
    bindings: Vec<Binding>,
    /// Two-key sequences ("]c"): the first key waits, shown in the footer, for the second.
    sequences: Vec<Sequence>,
}

/// A binding of two keys pressed one after the other.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequence {
    pub context: KeyContext,
    pub first: KeyCombo,
    pub second: KeyCombo,
    pub action: Action,
}

impl Default for Keymap {
    fn default() -> Self {
        use KeyContext::*;
        let table: &[(KeyContext, &[&str], Action)] = &[
            (Global, &["?"], Action::Help),
            (Global, &["q"], Action::Quit),
            (Global, &["ctrl-c"], Action::Quit),
            (Global, &["ctrl-z"], Action::Suspend),
            (Global, &["esc"], Action::Back),
            (Global, &["r", "f5"], Action::Refresh),
            (Global, &["y"], Action::CopyLink),
            (Global, &["o"], Action::OpenInBrowser),
            (List, &["j", "down"], Action::Down),
            (List, &["k", "up"], Action::Up),
            (List, &["ctrl-d"], Action::HalfPageDown),
            (List, &["ctrl-u"], Action::HalfPageUp),
            (List, &["pgdn", "ctrl-f"], Action::PageDown),
            (List, &["pgup", "ctrl-b"], Action::PageUp),
            (List, &["g", "home"], Action::Top),
            (List, &["G", "end"], Action::Bottom),
            (List, &["enter"], Action::Open),
            (List, &["/"], Action::Filter),
            (Tree, &["l", "right"], Action::Expand),
            (Tree, &["h", "left"], Action::Collapse),
            (Tree, &["E"], Action::ExpandAll),
            (Tree, &["C"], Action::CollapseAll),
            (Tabs, &["tab", "]"], Action::NextTab),
            (Tabs, &["shift-tab", "["], Action::PreviousTab),
            (Reader, &["j", "down"], Action::Down),
            (Reader, &["k", "up"], Action::Up),
            (Reader, &["ctrl-d"], Action::HalfPageDown),
            (Reader, &["ctrl-u"], Action::HalfPageUp),
            (Reader, &["pgdn", "space", "ctrl-f"], Action::PageDown),
            (Reader, &["pgup", "ctrl-b"], Action::PageUp),
            (Reader, &["g", "home"], Action::Top),
            (Reader, &["G", "end"], Action::Bottom),
            (Reader, &["/"], Action::Search),
            (Reader, &["n"], Action::NextMatch),
            (Reader, &["N"], Action::PreviousMatch),
            (Reader, &["t"], Action::TableOfContents),
            (Tree, &["c"], Action::ChangeRequestsOfSpace),
            (ChangeRequests, &["s"], Action::CycleStatus),
            (ChangeRequests, &["f"], Action::CycleWho),
            (Review, &["1"], Action::OverviewTab),
            (Review, &["2"], Action::ChangesTab),
            (Review, &["3"], Action::CommentsTab),
            (Review, &["4"], Action::ReviewsTab),
            (Review, &["M"], Action::Merge),
            (Review, &["U"], Action::UpdateFromMain),
            (Review, &["T"], Action::ToggleDraft),
            (Review, &["Z"], Action::Archive),
            (Review, &["S"], Action::EditSubject),
            (Review, &["A"], Action::Approve),
            (Review, &["X"], Action::RequestChanges),
            (Changes, &["n", "}"], Action::NextHunk),
            (Changes, &["N", "{"], Action::PreviousHunk),
            (Changes, &["v"], Action::ToggleRendered),
            (Changes, &["s"], Action::ToggleSideBySide),
            (Changes, &["c"], Action::NewComment),
            (Comments, &["n"], Action::NextThread),
            (Comments, &["N"], Action::PreviousThread),
            (Comments, &["f"], Action::CycleCommentFilter),
            (Comments, &["c"], Action::NewComment),
            (Comments, &["R", "enter"], Action::Reply),
            (Comments, &["+"], Action::React),
            (Comments, &["x"], Action::ToggleResolved),
            (Comments, &["e"], Action::EditOwn),
            (Comments, &["d"], Action::DeleteOwn),
            (Comments, &["w"], Action::WhoReacted),
            (Reviews, &["+"], Action::AddReviewer),
            (Reviews, &["-"], Action::RemoveReviewer),
            (Form, &["ctrl-s", "s"], Action::Save),
            (SiteList, &["p"], Action::PublishedFilter),
            (SiteList, &["A"], Action::AccessView),
            (Site, &["P"], Action::Publish),
            (ShareLinks, &["n"], Action::Create),
            (ShareLinks, &["R"], Action::Rename),
            (ShareLinks, &["a"], Action::ToggleActive),
            (ShareLinks, &["d", "delete"], Action::Delete),
            (SectionGroups, &["n"], Action::Create),
            (SectionGroups, &["R"], Action::Rename),
            (SectionGroups, &["i"], Action::ChangeIcon),
            (SectionGroups, &["d", "delete"], Action::Delete),
            (SectionGroups, &["+"], Action::AddSection),
            (SectionGroups, &["-"], Action::RemoveSection),
            (Adaptive, &["e"], Action::EditSchema),
            (AccessAudit, &["x"], Action::Revoke),
            (Members, &["f"], Action::RoleFilter),
            (Members, &["s"], Action::MemberSort),
            (ContentTree, &["n"], Action::Create),
            (ContentTree, &["R"], Action::Rename),
            (ContentTree, &["D"], Action::EditDescription),
            (ContentTree, &["L"], Action::DefaultLevel),
            (ContentTree, &["m"], Action::Move),
            (ContentTree, &["T"], Action::Transfer),
            (ContentTree, &["d", "delete"], Action::Delete),
            (ContentTree, &["x"], Action::ToggleLock),
            (ContentTree, &["i"], Action::ChangeIcon),
            (ContentTree, &["a"], Action::EditLanguage),
            (ContentTree, &["M"], Action::MergeRules),
            (ContentTree, &["Y"], Action::Duplicate),
            (ContentTree, &["s"], Action::SearchContent),
            (Trash, &["u"], Action::Restore),
            (SpaceTree, &["s"], Action::SearchContent),
            (SpaceTree, &["L"], Action::LinksReport),
            (SpaceTree, &["F"], Action::Files),
            (SpaceTree, &["b"], Action::Backlinks),
            (SpaceTree, &["N"], Action::NewChangeRequest),
            (SpaceTree, &["P"], Action::Pdf),
            (SpaceTree, &["I"], Action::GitSync),
            (Reader, &["b"], Action::Backlinks),
            (Reader, &["P"], Action::Pdf),
            (Review, &["D"], Action::EditDescription),
            (Review, &["F"], Action::Files),
            (Review, &["b"], Action::Backlinks),
            (Review, &["P"], Action::Pdf),
            (ChangeRequests, &["S"], Action::StatusPicker),
            (ChangeRequests, &["I"], Action::IssueCluster),
            (ChangeRequests, &["N"], Action::NewChangeRequest),
            (Files, &["b"], Action::Backlinks),
            (Git, &["i"], Action::GitImport),
            (Git, &["e"], Action::GitExport),
            (Git, &["d", "delete"], Action::RemoveLegacyInstallation),
            // ── people: members, teams ──
            (Members, &["e"], Action::ChangeRole),
            (Members, &["S"], Action::MakeSsoMember),
            (Members, &["d", "delete"], Action::Delete),
            (Teams, &["n"], Action::Create),
            (Teams, &["R"], Action::Rename),
            (Teams, &["d", "delete"], Action::Delete),
            (Teams, &["m"], Action::ManageableTeams),
            (TeamMembers, &["a"], Action::AddTeamMember),
            (TeamMembers, &["e"], Action::ChangeRole),
            (TeamMembers, &["d", "delete"], Action::Delete),
            (TeamMembers, &["space"], Action::Mark),
            (TeamMembers, &["B"], Action::BulkEdit),
            // ── admin: SSO, org settings, agent instructions ──
            (SsoProviders, &["n"], Action::Create),
            (SsoProviders, &["d", "delete"], Action::Delete),
            (SsoProviders, &["a"], Action::CopyAcsUrl),
            (SsoProviders, &["u"], Action::CopyStartUrl),
            (SsoProviders, &["i"], Action::CopyEntityId),
            (SamlForm, &["f"], Action::LoadCertificate),
            (OrgSettings, &["D"], Action::EditDescription),
            (OrgSettings, &["x"], Action::Revoke),
            (OrganizationList, &["J"], Action::JoinOrganization),
            // ── translations, OpenAPI ──
            (Translations, &["n"], Action::Create),
            (Translations, &["e", "D"], Action::EditInstructions),
            (Translations, &["x"], Action::RunTranslation),
            (Translations, &["s"], Action::SourceSpace),
            (Translations, &["t"], Action::ResultSpace),
            (Translations, &["d", "delete"], Action::Delete),
            (OpenApi, &["n"], Action::Create),
            (OpenApi, &["u"], Action::ReplaceSource),
            (OpenApi, &["v"], Action::ToggleVisibility),
            (OpenApi, &["d", "delete"], Action::Delete),
            // ── conversations, integrations ──
            (Clusters, &["v"], Action::ClustersView),
            (Clusters, &["s"], Action::ClusterSort),
            (Clusters, &["O"], Action::ClusterOrder),
            (Clusters, &["c"], Action::ClusterChangeRequests),
            (Clusters, &["f"], Action::SourceFilter),
            (Clusters, &["i"], Action::IngestConversation),
            (ClusterIssues, &["c"], Action::ClusterChangeRequests),
            (Integrations, &["f"], Action::IntegrationFilters),
            // ── command palette ──
            (Global, &[":", "ctrl-k"], Action::CommandPalette),
            // ── threads on the diff ──
            (Changes, &["m"], Action::ShowThreadHere),
            (Comments, &["m"], Action::ShowThreadHere),
            (Changes, &["L"], Action::SinceLastReview),
            (Comments, &["L"], Action::NextNew),
            // ── reader ──
            // `ctrl-i` is `tab` in a classic terminal: it arrives apart only where the terminal
            // reports keys distinctly (the kitty keyboard protocol); `L` works everywhere.
            (ReaderLinks, &["tab"], Action::NextLink),
            (ReaderLinks, &["shift-tab"], Action::PreviousLink),
            (ReaderLinks, &["enter"], Action::FollowLink),
            (ReaderLinks, &["ctrl-o", "H"], Action::HistoryBack),
            (ReaderLinks, &["ctrl-i", "L"], Action::HistoryForward),
            (ReaderLinks, &["l"], Action::LinksReport),
            (SpaceTree, &["tab", "ctrl-w"], Action::FocusPane),
            (SpaceTree, &["z"], Action::ZoomPane),
            (Preview, &["j", "down"], Action::Down),
            (Preview, &["k", "up"], Action::Up),
            (Preview, &["ctrl-d"], Action::HalfPageDown),
            (Preview, &["ctrl-u"], Action::HalfPageUp),
            (Preview, &["pgdn", "space", "ctrl-f"], Action::PageDown),
            (Preview, &["pgup", "ctrl-b"], Action::PageUp),
            (Preview, &["g", "home"], Action::Top),
            (Preview, &["G", "end"], Action::Bottom),
            (Preview, &["enter"], Action::Open),
            // ── review flow ──
            (Global, &["!"], Action::ActionLogView),
            (ActionLog, &["u"], Action::Undo),
            // ── end of the area blocks ──
        ];
        let mut bindings: Vec<Binding> = table
            .iter()
            .flat_map(|(context, keys, action)| {
                keys.iter().filter_map(move |key| {
                    KeyCombo::parse(key).map(|key| Binding {
                        context: *context,
                        key,
                        action: *action,
                    })
                })
            })
            .collect();
        let browse: Vec<Binding> = bindings
            .iter()
            .filter(|binding| binding.context == List && binding.action != Action::Filter)
            .map(|binding| Binding {
                context: Browse,
                ..binding.clone()
            })
            .collect();
        bindings.extend(browse);
        // ── review flow ──
        let sequences = [
            (Review, "]", "c", Action::NextChangeRequest),
            (Review, "[", "c", Action::PreviousChangeRequest),
        ]
        .into_iter()
        .filter_map(|(context, first, second, action)| {
            Some(Sequence {
                context,
                first: KeyCombo::parse(first)?,
                second: KeyCombo::parse(second)?,
                action,
            })
        })
        .collect();
        Keymap {
            bindings,
            sequences,
        }
    }
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum KeymapError {
    #[error("[keys]: unknown action `{0}`")]
    UnknownAction(String),
    #[error("[keys]: cannot read key `{key}` for `{action}`")]
    UnknownKey { action: String, key: String },
}

impl Keymap {
    /// The first action bound to `key` in the given contexts, searched in order.
    pub fn action_for(&self, contexts: &[KeyContext], key: &KeyEvent) -> Option<Action> {
        let combo = KeyCombo::from_event(key);
        contexts.iter().find_map(|context| {
            self.bindings
                .iter()
                .find(|b| b.context == *context && b.key == combo)
                .map(|b| b.action)
        })
    }

    /// True when `key` starts a two-key sequence in these contexts.
    pub fn starts_sequence(&self, contexts: &[KeyContext], key: &KeyEvent) -> bool {
        let combo = KeyCombo::from_event(key);
        self.sequences
            .iter()
            .any(|s| contexts.contains(&s.context) && s.first == combo)
    }

    /// The action of `first` then `second`, searched in the contexts' order.
    pub fn sequence_action(
        &self,
        contexts: &[KeyContext],
        first: KeyCombo,
        second: &KeyEvent,
    ) -> Option<Action> {
        let second = KeyCombo::from_event(second);
        contexts.iter().find_map(|context| {
            self.sequences
                .iter()
                .find(|s| s.context == *context && s.first == first && s.second == second)
                .map(|s| s.action)
        })
    }

    /// What may follow a pending first key, for the footer: ("]c", help) pairs.
    pub fn sequences_after(
        &self,
        contexts: &[KeyContext],
        first: KeyCombo,
    ) -> Vec<(String, &'static str)> {
        self.sequences
            .iter()
            .filter(|s| contexts.contains(&s.context) && s.first == first)
            .map(|s| (format!("{}{}", s.first, s.second), s.action.help()))
            .collect()
    }

    fn sequence_labels(&self, contexts: &[KeyContext], action: Action) -> Vec<String> {
        self.sequences
            .iter()
            .filter(|s| s.action == action && contexts.contains(&s.context))
            .map(|s| format!("{}{}", s.first, s.second))
            .collect()
    }

    /// Keys bound to an action in the given contexts, for hints ("j/↓").
    pub fn keys_for(&self, contexts: &[KeyContext], action: Action) -> Vec<KeyCombo> {
        let mut keys = Vec::new();
        for binding in &self.bindings {
            if binding.action == action
                && contexts.contains(&binding.context)
                && !keys.contains(&binding.key)
            {
                keys.push(binding.key);
            }
        }
        keys
    }

    /// The first key label of an action, for a footer hint; None when unbound.
    pub fn label(&self, contexts: &[KeyContext], action: Action) -> Option<String> {
        self.keys_for(contexts, action)
            .first()
            .map(|k| k.to_string())
            .or_else(|| self.sequence_labels(contexts, action).into_iter().next())
    }

    /// Every (keys, description) pair for the help overlay, grouped by action.
    pub fn help_rows(&self, contexts: &[KeyContext]) -> Vec<(String, &'static str)> {
        let mut rows = Vec::new();
        for action in Action::ALL {
            let keys = self.keys_for(contexts, *action);
            let mut labels: Vec<String> = keys.iter().map(ToString::to_string).collect();
            labels.extend(self.sequence_labels(contexts, *action));
            if !labels.is_empty() {
                rows.push((labels.join(" "), action.help()));
            }
        }
        rows
    }

    /// Rebinds actions from the config file's `[keys]` table: `action = ["key", …]` replaces every
    /// key of that action in every context where it was bound.
    pub fn apply_overrides(
        &mut self,
        overrides: &HashMap<String, Vec<String>>,
    ) -> Result<(), KeymapError> {
        for (name, keys) in overrides {
            let action =
                Action::from_name(name).ok_or_else(|| KeymapError::UnknownAction(name.clone()))?;
            let combos = keys
                .iter()
                .map(|key| {
                    KeyCombo::parse(key).ok_or_else(|| KeymapError::UnknownKey {
                        action: name.clone(),
                        key: key.clone(),
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let mut contexts: Vec<KeyContext> = self
                .bindings
                .iter()
                .filter(|b| b.action == action)
                .map(|b| b.context)
                .collect();
            contexts.dedup();
            self.bindings.retain(|b| b.action != action);
            for context in contexts {
                for key in &combos {
                    self.bindings.insert(
                        0,
                        Binding {
                            context,
                            key: *key,
                            action,
                        },
                    );
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventKind;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press,
            state: ratatui::crossterm::event::KeyEventState::NONE,
        }
    }

    #[test]
    fn upper_case_g_with_shift_is_bottom() {
        let keymap = Keymap::default();
        let shifted_g = key(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(
            keymap.action_for(&[KeyContext::List], &shifted_g),
            Some(Action::Bottom)
        );
    }

    #[test]
    fn shift_tab_from_a_terminal_is_previous_tab() {
        let keymap = Keymap::default();
        let from_terminal = key(KeyCode::BackTab, KeyModifiers::SHIFT);
        assert_eq!(
            keymap.action_for(&[KeyContext::Tabs], &from_terminal),
            Some(Action::PreviousTab)
        );
    }

    #[test]
    fn contexts_are_searched_in_order() {
        let keymap = Keymap::default();
        let esc = key(KeyCode::Esc, KeyModifiers::NONE);
        assert_eq!(
            keymap.action_for(&[KeyContext::List, KeyContext::Global], &esc),
            Some(Action::Back)
        );
        let j = key(KeyCode::Char('j'), KeyModifiers::NONE);
        assert_eq!(keymap.action_for(&[KeyContext::Global], &j), None);
    }

    #[test]
    fn keys_parse_and_print_round_trip() {
        for text in [
            "ctrl-d",
            "G",
            "enter",
            "esc",
            "pgdn",
            "space",
            "f5",
            "shift-tab",
            "/",
        ] {
            let combo = KeyCombo::parse(text).unwrap();
            assert_eq!(KeyCombo::parse(&combo.to_string()), Some(combo), "{text}");
        }
        assert_eq!(KeyCombo::parse("nonsense"), None);
    }

    #[test]
    fn overrides_rebind_an_action() {
        let mut keymap = Keymap::default();
        let overrides = HashMap::from([("down".to_string(), vec!["n".to_string()])]);
        keymap.apply_overrides(&overrides).unwrap();
        let n = key(KeyCode::Char('n'), KeyModifiers::NONE);
        let j = key(KeyCode::Char('j'), KeyModifiers::NONE);
        assert_eq!(
            keymap.action_for(&[KeyContext::List], &n),
            Some(Action::Down)
        );
        assert_eq!(keymap.action_for(&[KeyContext::List], &j), None);
        let bad = HashMap::from([("fly".to_string(), vec!["x".to_string()])]);
        assert!(keymap.apply_overrides(&bad).is_err());
    }

    #[test]
    fn help_lists_every_bound_action_once() {
        let rows = Keymap::default().help_rows(&[KeyContext::Reader, KeyContext::Global]);
        assert!(
            rows.iter()
                .any(|(keys, help)| keys == "t" && *help == "table of contents")
        );
        let searches = rows.iter().filter(|(_, h)| *h == "search in page").count();
        assert_eq!(searches, 1);
    }

    #[test]
    fn browse_moves_like_a_list_but_has_no_filter() {
        let keymap = Keymap::default();
        let list = keymap.help_rows(&[KeyContext::List]);
        let browse = keymap.help_rows(&[KeyContext::Browse]);
        let filter = Action::Filter.help();
        assert!(list.iter().any(|(_, help)| *help == filter));
        assert!(
            !browse.iter().any(|(_, help)| *help == filter),
            "{browse:?}"
        );
        let without_filter: Vec<_> = list
            .into_iter()
            .filter(|(_, help)| *help != filter)
            .collect();
        assert_eq!(browse, without_filter);
    }
}
