//! Keys while a modal is open, and what each answer does: a confirmed write, a prompted name or
//! icon, a picked option, a submitted adaptive schema.

use ratatui::crossterm::event::KeyEvent;

use super::modal::PromptPurpose;
use super::{
    Confirmed, GroupRow, Modal, Pending, PickOption, PickOutcome, PickPurpose, Picker, Prompt,
    SiteScreen, check_schema,
};
use crate::api::NewSectionGroup;
use crate::api::models::SiteVisibility;
use crate::screens::step::{Ctx, Step};
use crate::ui::composer::ComposerOutcome;
use crate::ui::confirm::ConfirmOutcome;
use crate::ui::input::InputOutcome;
use crate::vocabulary::Cmd;
use crate::vocabulary::sites::SitesCall;

impl SiteScreen {
    pub(super) fn on_modal_key(&mut self, modal: Modal, key: &KeyEvent, ctx: &mut Ctx) -> Step {
        match modal {
            Modal::Confirm { confirm, then } => match confirm.handle_key(key) {
                ConfirmOutcome::Confirmed => return self.confirmed(then, ctx),
                ConfirmOutcome::Cancelled => {}
                ConfirmOutcome::Ignored => self.modal = Some(Modal::Confirm { confirm, then }),
            },
            Modal::Prompt(mut prompt) => match prompt.input.handle_key(key) {
                InputOutcome::Submitted => {
                    if prompt.error().is_some() {
                        self.modal = Some(Modal::Prompt(prompt));
                    } else {
                        let text = prompt.input.text.trim().to_string();
                        return Step::cmd(self.prompted(prompt.purpose, text, ctx));
                    }
                }
                InputOutcome::Cancelled => {}
                _ => self.modal = Some(Modal::Prompt(prompt)),
            },
            Modal::Picker(mut picker) => match picker.handle_key(key) {
                PickOutcome::Picked(values) => {
                    return Step::cmd(self.picked(picker.purpose, values, ctx));
                }
                PickOutcome::Cancelled => {}
                PickOutcome::Pending => self.modal = Some(Modal::Picker(picker)),
            },
            Modal::Composer(mut editor) => {
                let composer = editor.get_mut();
                let mut cmd = Cmd::None;
                match composer.handle_key(key) {
                    ComposerOutcome::Submit => match check_schema(&composer.text()) {
                        Err(reason) => composer.error = Some(reason),
                        Ok(schema) => {
                            let (organization, site) = self.ids();
                            cmd = self.write(
                                SitesCall::PutAdaptiveSchema {
                                    organization,
                                    site,
                                    schema,
                                },
                                Pending::Schema,
                                ctx,
                            );
                            composer.submitting = cmd != Cmd::None;
                        }
                    },
                    // Closed keeps the draft for next time; discarded throws it away on purpose.
                    ComposerOutcome::Closed => return Step::default(),
                    ComposerOutcome::Discarded => {
                        self.schema_draft = None;
                        return Step::cmd(Cmd::DiscardDraft {
                            key: self.schema_draft_key(),
                        });
                    }
                    ComposerOutcome::OpenEditor => {
                        cmd = Cmd::EditExternally {
                            key: self.schema_draft_key(),
                            text: composer.text(),
                        };
                    }
                    ComposerOutcome::Edited => {
                        let text = composer.text();
                        self.schema_draft = Some(text.clone());
                        cmd = Cmd::SaveDraft {
                            key: self.schema_draft_key(),
                            text,
                        };
                    }
                    ComposerOutcome::Ignored => {}
                }
                self.modal = Some(Modal::Composer(editor));
                return Step::cmd(cmd);
            }
        }
        Step::default()
    }

    fn confirmed(&mut self, then: Confirmed, ctx: &mut Ctx) -> Step {
        let (organization, site) = self.ids();
        let cmd = match then {
            Confirmed::Leave => return Step::pop(),
            Confirmed::Publish => self.write(
                SitesCall::Publish { organization, site },
                Pending::Publish,
                ctx,
            ),
            Confirmed::Unpublish => self.write(
                SitesCall::Unpublish { organization, site },
                Pending::Unpublish,
                ctx,
            ),
            Confirmed::DeactivateShareLink { id, name } => {
                self.set_link_active(id, &name, false, ctx)
            }
            Confirmed::DeleteShareLink { id, name } => self.write(
                SitesCall::DeleteShareLink {
                    organization,
                    site,
                    link: id,
                },
                Pending::ShareLink(format!("Deleted share link “{name}”")),
                ctx,
            ),
            Confirmed::DeleteGroup { id, title } => self.write(
                SitesCall::DeleteSectionGroup {
                    organization,
                    site,
                    group: id,
                },
                Pending::SectionGroup(format!("Deleted section group “{title}”"), None),
                ctx,
            ),
        };
        Step::cmd(cmd)
    }

    fn prompted(&mut self, purpose: PromptPurpose, text: String, ctx: &mut Ctx) -> Cmd {
        let (organization, site) = self.ids();
        match purpose {
            PromptPurpose::NewShareLink => self.write(
                SitesCall::CreateShareLink {
                    organization,
                    site,
                    name: text.clone(),
                },
                Pending::ShareLink(format!("Created share link “{text}”")),
                ctx,
            ),
            PromptPurpose::RenameShareLink { id } => self.write(
                SitesCall::UpdateShareLink {
                    organization,
                    site,
                    link: id,
                    active: None,
                    name: Some(text.clone()),
                },
                Pending::ShareLink(format!("Renamed the share link to “{text}”")),
                ctx,
            ),
            PromptPurpose::NewGroupTitle => {
                self.modal = Some(Modal::Prompt(Prompt::new(
                    "New section group: icon name",
                    "Optional, at most 50 characters; enter to skip",
                    "",
                    PromptPurpose::NewGroupIcon { title: text },
                )));
                Cmd::None
            }
            PromptPurpose::NewGroupIcon { title } => {
                let icon = Some(text).filter(|icon| !icon.is_empty());
                let options: Vec<PickOption> = self
                    .all_sections()
                    .into_iter()
                    .map(|(id, title)| PickOption {
                        value: id,
                        label: title,
                        detail: String::new(),
                    })
                    .collect();
                self.modal = Some(Modal::Picker(
                    Picker::new(
                        "Sections to move into it (space marks, enter goes on)",
                        options,
                        PickPurpose::NewGroupSections { title, icon },
                    )
                    .multiple(),
                ));
                Cmd::None
            }
            PromptPurpose::RenameGroup { id } => self.write(
                SitesCall::UpdateSectionGroup {
                    organization,
                    site,
                    group: id,
                    title: Some(text.clone()),
                    icon: None,
                },
                Pending::SectionGroup(format!("Renamed the group to “{text}”"), None),
                ctx,
            ),
            PromptPurpose::GroupIcon { id } => {
                let done = if text.is_empty() {
                    "Removed the group's icon".to_string()
                } else {
                    format!("Set the group's icon to “{text}”")
                };
                let icon = Some(Some(text).filter(|icon| !icon.is_empty()));
                self.write(
                    SitesCall::UpdateSectionGroup {
                        organization,
                        site,
                        group: id,
                        title: None,
                        icon,
                    },
                    Pending::SectionGroup(done, None),
                    ctx,
                )
            }
        }
    }

    fn picked(&mut self, purpose: PickPurpose, values: Vec<String>, ctx: &mut Ctx) -> Cmd {
        let first = values.first().cloned();
        let (organization, site) = self.ids();
        match purpose {
            PickPurpose::Visibility => {
                if let Some(value) = first {
                    self.form.values.visibility = Some(SiteVisibility::from(value.as_str()));
                }
                Cmd::None
            }
            PickPurpose::DefaultSection => {
                if first != self.form.values.default_section {
                    self.form.values.default_section = first;
                    // The section brings its own default space unless one is picked.
                    self.form.values.default_space = self.form.original.default_space.clone();
                }
                Cmd::None
            }
            PickPurpose::DefaultSpace => {
                if first.is_some() {
                    self.form.values.default_space = first;
                }
                Cmd::None
            }
            PickPurpose::NewGroupSections { title, icon } => {
                let mut options = vec![PickOption {
                    value: String::new(),
                    label: "(the site's top level)".into(),
                    detail: String::new(),
                }];
                for row in self.group_rows() {
                    if let GroupRow::Group {
                        id, title, depth, ..
                    } = row
                    {
                        options.push(PickOption {
                            value: id,
                            label: format!("{}{title}", "  ".repeat(depth.min(8))),
                            detail: String::new(),
                        });
                    }
                }
                self.modal = Some(Modal::Picker(Picker::new(
                    "Parent group",
                    options,
                    PickPurpose::NewGroupParent {
                        title,
                        icon,
                        sections: values,
                    },
                )));
                Cmd::None
            }
            PickPurpose::NewGroupParent {
                title,
                icon,
                sections,
            } => {
                let parent = first.filter(|parent| !parent.is_empty());
                self.write(
                    SitesCall::CreateSectionGroup {
                        organization,
                        site,
                        group: NewSectionGroup {
                            title: title.clone(),
                            icon,
                            sections,
                            parent,
                        },
                    },
                    Pending::SectionGroup(format!("Created section group “{title}”"), None),
                    ctx,
                )
            }
            PickPurpose::AddSection { group } => match first {
                Some(section) => self.write(
                    SitesCall::AddSectionToGroup {
                        organization,
                        site,
                        group,
                        section: section.clone(),
                    },
                    Pending::SectionGroup("Added the section to the group".into(), Some(section)),
                    ctx,
                ),
                None => Cmd::None,
            },
            PickPurpose::RemoveSection { group } => match first {
                Some(section) => self.write(
                    SitesCall::RemoveSectionFromGroup {
                        organization,
                        site,
                        group,
                        section,
                    },
                    Pending::SectionGroup("Removed the section from the group".into(), None),
                    ctx,
                ),
                None => Cmd::None,
            },
        }
    }
}
