//! The Section groups tab: groups as a tree with their sections under them, and the writes on
//! them (create, rename, icon, delete, add or remove a section).

use super::modal::PromptPurpose;
use super::{
    Confirmed, GroupRow, Modal, Pending, PickOption, PickPurpose, Picker, Prompt, SiteScreen,
};
use crate::api::models::{SiteSectionGroup, SiteStructureItem};
use crate::screens::step::{Ctx, Step};
use crate::ui::confirm::Confirm;
use crate::ui::keymap::Action;
use crate::vocabulary::sites::SitesCall;

impl SiteScreen {
    /// Groups as a tree (parents first, depth by nesting) with their sections under them.
    pub fn group_rows(&self) -> Vec<GroupRow> {
        let Some(groups) = self.groups.value().map(|listed| &listed.items) else {
            return Vec::new();
        };
        let known: Vec<&str> = groups.iter().map(|group| group.id.as_str()).collect();
        let mut rows = Vec::new();
        let mut visited = Vec::new();
        for root in groups.iter().filter(|group| {
            group
                .section_group
                .as_deref()
                .is_none_or(|parent| !known.contains(&parent))
        }) {
            self.push_group(groups, root, 0, &mut rows, &mut visited);
        }
        rows
    }

    fn push_group<'a>(
        &self,
        groups: &'a [SiteSectionGroup],
        group: &'a SiteSectionGroup,
        depth: usize,
        rows: &mut Vec<GroupRow>,
        visited: &mut Vec<&'a str>,
    ) {
        if visited.contains(&group.id.as_str()) || depth > 16 {
            return;
        }
        visited.push(&group.id);
        rows.push(GroupRow::Group {
            id: group.id.clone(),
            title: group.title.clone(),
            icon: group.icon.clone(),
            depth,
        });
        for section in group.section_ids() {
            rows.push(GroupRow::Section {
                group: group.id.clone(),
                id: section.to_string(),
                title: self.section_title(group, section),
                depth: depth + 1,
            });
        }
        for child in groups
            .iter()
            .filter(|child| child.section_group.as_deref() == Some(group.id.as_str()))
        {
            self.push_group(groups, child, depth + 1, rows, visited);
        }
    }

    fn section_title(&self, group: &SiteSectionGroup, section: &str) -> String {
        let from_group = group.children.iter().find_map(|child| match child {
            SiteStructureItem::Section(found) if found.id == section => Some(found.title.clone()),
            _ => None,
        });
        from_group
            .or_else(|| {
                group
                    .sections
                    .iter()
                    .find(|found| found.id == section)
                    .map(|found| found.title.clone())
            })
            .or_else(|| {
                self.form
                    .choices
                    .as_ref()
                    .and_then(|choices| choices.section_title(section))
                    .map(str::to_string)
            })
            .unwrap_or_else(|| section.to_string())
    }

    /// Every section of the site, from the published structure.
    pub fn all_sections(&self) -> Vec<(String, String)> {
        self.form
            .choices
            .as_ref()
            .map(|choices| {
                choices
                    .sections
                    .iter()
                    .map(|section| (section.id.clone(), section.title.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn selected_group_row(&self) -> Option<GroupRow> {
        self.group_rows()
            .get(self.group_selection.selected)
            .cloned()
    }

    pub(super) fn on_group_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let rows = self.group_rows();
        let len = rows.len();
        let writes = matches!(
            action,
            Action::Create
                | Action::Rename
                | Action::ChangeIcon
                | Action::Delete
                | Action::AddSection
                | Action::RemoveSection
        );
        if writes && let Some(reason) = self.read_only_reason() {
            self.warn(reason);
            return Some(Step::default());
        }
        let row = self.selected_group_row();
        match (action, row) {
            (Action::Down, _) => self.group_selection.move_by(1, len),
            (Action::Up, _) => self.group_selection.move_by(-1, len),
            (Action::Top, _) => self.group_selection.top(),
            (Action::Bottom, _) => self.group_selection.bottom(len),
            (Action::Create, _) => {
                self.modal = Some(Modal::Prompt(Prompt::new(
                    "New section group: title",
                    "1–100 characters",
                    "",
                    PromptPurpose::NewGroupTitle,
                )));
            }
            (Action::Rename, Some(GroupRow::Group { id, title, .. })) => {
                self.modal = Some(Modal::Prompt(Prompt::new(
                    "Rename section group",
                    "1–100 characters",
                    &title,
                    PromptPurpose::RenameGroup { id },
                )));
            }
            (Action::ChangeIcon, Some(GroupRow::Group { id, icon, .. })) => {
                self.modal = Some(Modal::Prompt(Prompt::new(
                    "Icon name",
                    "At most 50 characters; empty removes the icon",
                    icon.as_deref().unwrap_or_default(),
                    PromptPurpose::GroupIcon { id },
                )));
            }
            (Action::Delete, Some(GroupRow::Group { id, title, .. })) => {
                self.modal = Some(Modal::Confirm {
                    confirm: Confirm::new(
                        format!("Delete section group “{title}”?"),
                        "Its sections and groups move up to its parent; none is deleted.",
                        "delete",
                    ),
                    then: Confirmed::DeleteGroup { id, title },
                });
            }
            (Action::AddSection, Some(row)) => {
                let group = match row {
                    GroupRow::Group { id, .. } => id,
                    GroupRow::Section { group, .. } => group,
                };
                self.pick_section_to_add(group);
            }
            (
                Action::RemoveSection,
                Some(GroupRow::Section {
                    group, id, title, ..
                }),
            ) => {
                let (organization, site) = self.ids();
                let cmd = self.write(
                    SitesCall::RemoveSectionFromGroup {
                        organization,
                        site,
                        group,
                        section: id,
                    },
                    Pending::SectionGroup(format!("Removed “{title}” from its group"), None),
                    ctx,
                );
                return Some(Step::cmd(cmd));
            }
            (Action::RemoveSection, Some(GroupRow::Group { id, .. })) => {
                let options: Vec<PickOption> = rows
                    .iter()
                    .filter_map(|row| match row {
                        GroupRow::Section {
                            group,
                            id: section,
                            title,
                            ..
                        } if *group == id => Some(PickOption {
                            value: section.clone(),
                            label: title.clone(),
                            detail: String::new(),
                        }),
                        _ => None,
                    })
                    .collect();
                if options.is_empty() {
                    self.warn("This group holds no section");
                } else {
                    self.modal = Some(Modal::Picker(Picker::new(
                        "Remove which section from the group?",
                        options,
                        PickPurpose::RemoveSection { group: id },
                    )));
                }
            }
            (
                Action::Rename | Action::ChangeIcon | Action::Delete,
                Some(GroupRow::Section { .. }),
            ) => {
                self.warn("Select a group row for this");
            }
            (
                Action::Rename
                | Action::ChangeIcon
                | Action::Delete
                | Action::AddSection
                | Action::RemoveSection,
                None,
            ) => self.warn("No group selected"),
            _ => return None,
        }
        Some(Step::default())
    }

    fn pick_section_to_add(&mut self, group: String) {
        let inside: Vec<String> = self
            .group_rows()
            .into_iter()
            .filter_map(|row| match row {
                GroupRow::Section {
                    group: holder, id, ..
                } if holder == group => Some(id),
                _ => None,
            })
            .collect();
        let options: Vec<PickOption> = self
            .all_sections()
            .into_iter()
            .filter(|(id, _)| !inside.contains(id))
            .map(|(id, title)| PickOption {
                value: id,
                label: title,
                detail: String::new(),
            })
            .collect();
        if options.is_empty() {
            self.warn("No other section to add");
            return;
        }
        self.modal = Some(Modal::Picker(Picker::new(
            "Add which section to the group?",
            options,
            PickPurpose::AddSection { group },
        )));
    }
}
