//! The default bindings table: every context's keys, and the two-key sequences.

use super::{Action, Binding, KeyCombo, KeyContext, Keymap, Sequence};

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
            (Changes, &["J"], Action::NextPage),
            (Changes, &["K"], Action::PreviousPage),
            (Changes, &["v"], Action::ToggleRendered),
            (Changes, &["s"], Action::ToggleSideBySide),
            (Changes, &["c"], Action::NewComment),
            (Comments, &["n"], Action::NextThread),
            (Comments, &["N"], Action::PreviousThread),
            (Comments, &["f"], Action::CycleCommentFilter),
            (Comments, &["a"], Action::AuthorFilter),
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
            (SiteList, &["n"], Action::Create),
            (SiteList, &["d", "delete"], Action::Delete),
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
            (Global, &["ctrl-g"], Action::ShowMessage),
            (ActionLog, &["u"], Action::Undo),
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
