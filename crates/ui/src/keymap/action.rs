//! The semantic actions keys are bound to, with their config-file names and help text.

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
    NextPage => "next_page", "next changed page";
    PreviousPage => "previous_page", "previous changed page";
    ToggleRendered => "toggle_rendered", "read the change request's version";
    ToggleSideBySide => "toggle_side_by_side", "side by side / unified";
    NextThread => "next_thread", "next unresolved thread";
    PreviousThread => "previous_thread", "previous unresolved thread";
    CycleCommentFilter => "cycle_comment_filter", "all / open / resolved threads";
    AuthorFilter => "author_filter", "only the threads one commenter wrote in";
    NewComment => "new_comment", "new comment (changes: on the block under ›)";
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
    DropChanges => "drop_changes", "drop the unsaved changes and their draft";
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
    MemberSpacesOrder => "member_spaces_order", "a member's spaces: newest / oldest first";
    EditDescription => "edit_description", "edit the description";
    DefaultLevel => "default_level", "default access level";
    Move => "move", "move (to a collection, before/after a space)";
    Transfer => "transfer", "transfer to another organization";
    ToggleLock => "toggle_lock", "lock / unlock editing";
    EditLanguage => "edit_language", "language";
    MergeRules => "merge_rules", "merge rules";
    Duplicate => "duplicate", "duplicate";
    ApplyTemplate => "apply_template", "apply a content template (typed by its id)";
    Restore => "restore", "restore from the trash";
    SearchContent => "search_content", "search the space / organization";
    LinksReport => "links_report", "links of the space or of a page";
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
    ChangeRole => "change_role", "change the role";
    MakeSsoMember => "make_sso_member", "make an SSO member";
    ManageableTeams => "manageable_teams", "all teams / teams I can manage";
    AddTeamMember => "add_team_member", "add a member to the team";
    Mark => "mark", "mark / unmark the row (to act on the marked rows together)";
    BulkEdit => "bulk_edit", "bulk edit: add members, remove the marked ones";

    CopyAcsUrl => "copy_acs_url", "copy the ACS URL";
    CopyStartUrl => "copy_start_url", "copy the SSO start URL";
    CopyEntityId => "copy_entity_id", "copy the service's entity ID";
    LoadCertificate => "load_certificate", "load the certificate from a file";
    JoinOrganization => "join_organization", "join an organization (by email domain)";

    EditInstructions => "edit_instructions", "edit the translation's instructions";
    RunTranslation => "run_translation", "run the translation now";
    SourceSpace => "source_space", "open the source space";
    ResultSpace => "result_space", "open the result space";
    ReplaceSource => "replace_source", "replace the spec's source (a new URL)";
    ToggleVisibility => "toggle_visibility", "public ↔ private";

    ClustersView => "clusters_view", "clusters / conversations";
    ClusterSort => "cluster_sort", "sort clusters: last updated / created";
    ClusterOrder => "cluster_order", "newest / oldest first";
    ClusterStatus => "cluster_status", "clusters of one status: all / active / archived";
    ClusterChangeRequests => "cluster_change_requests", "change requests linked to the cluster";
    SourceFilter => "source_filter", "conversations of one source";
    IngestConversation => "ingest_conversation", "ingest a conversation from a JSON file";
    IntegrationFilters => "integration_filters", "filters: category, scope, target, blocks…";
    PublishIntegration => "publish_integration", "publish an integration from its manifest";

    CommandPalette => "command_palette", "command palette: actions, go to, search";
    ShowThreadHere => "show_thread_here", "a thread marked ▌ ↔ its line in the diff";
    SinceLastReview => "since_last_review", "only what changed since your last review";
    NextNew => "next_new", "next thread new since your last review";
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
    ActionLogView => "action_log", "action log: this session's writes (u undoes)";
    OutboxView => "outbox", "outbox: writes queued while offline, to look at and send";
    OutboxSend => "outbox_send", "send the marked queued writes, or the selected one";
    OutboxSendAll => "outbox_send_all", "send every queued write";
    OutboxEdit => "outbox_edit", "edit the text of the selected queued write";
    OutboxDrop => "outbox_drop", "drop the selected queued write without sending it";
    ShowMessage => "show_message", "the last messages whole (an error or notice cut on screen)";
    Undo => "undo", "undo: apply the inverse of the selected write";
    OverviewTab => "overview_tab", "overview";
    GoHome => "home", "Home: what needs you in every organization";
    GoOrganizations => "organizations", "the organization list";
    ToggleWatch => "watch", "watch this change request: Home lists it and pings when it moves (again: stop)";
    NextChangeRequest => "next_change_request", "next change request of the list";
    PreviousChangeRequest => "previous_change_request", "previous change request of the list";


}
