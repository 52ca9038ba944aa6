//! The Settings tab: the keys on the settings form, the pickers its fields open, saving the
//! changed fields, and the question before publishing or unpublishing.

use super::form;
use super::{Confirmed, Field, Modal, Pending, PickOption, PickPurpose, Picker, SiteScreen};
use crate::screens::sites::role::audience;
use crate::screens::step::{Ctx, Step};
use crate::ui::confirm::Confirm;
use crate::ui::keymap::Action;
use crate::vocabulary::Cmd;
use crate::vocabulary::sites::SitesCall;

impl SiteScreen {
    pub(super) fn on_settings_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        match action {
            Action::Down => self.form.move_by(1),
            Action::Up => self.form.move_by(-1),
            Action::Top => self.form.first(),
            Action::Bottom => self.form.last(),
            Action::Open => self.activate_field(),
            Action::Save => return Some(Step::cmd(self.save(ctx))),
            Action::DropChanges => self.drop_changes(),
            _ => return None,
        }
        Some(Step::default())
    }

    fn activate_field(&mut self) {
        if let Some(reason) = self.read_only_reason() {
            self.warn(reason);
            return;
        }
        // The answer to a save replaces the form; a change made meanwhile would be lost.
        if matches!(self.pending, Some((_, Pending::Save(_)))) {
            self.warn("Saving… the fields can change again once the server answers");
            return;
        }
        let Some(field) = self.form.selected_field() else {
            return;
        };
        match field {
            Field::Title | Field::Basename | Field::Proxy => self.form.start_editing(),
            Field::AdaptiveContent | Field::AgentsContext => self.form.toggle(field),
            Field::Visibility => {
                let options = form::VISIBILITIES
                    .iter()
                    .map(|(visibility, detail)| PickOption {
                        value: visibility.as_str().to_string(),
                        label: visibility.as_str().to_string(),
                        detail: format!("{detail} Reachable by {}.", audience(Some(visibility))),
                    })
                    .collect();
                let current = self.form.values.visibility.as_ref().map(|v| v.as_str());
                self.modal = Some(Modal::Picker(
                    Picker::new(
                        "Visibility: who can read the site",
                        options,
                        PickPurpose::Visibility,
                    )
                    .at(current),
                ));
            }
            Field::DefaultSection => self.pick_default_section(),
            Field::DefaultSpace => self.pick_default_space(),
        }
    }

    fn pick_default_section(&mut self) {
        let Some(choices) = &self.form.choices else {
            self.warn("The site's structure is still loading");
            return;
        };
        let options = choices
            .sections
            .iter()
            .map(|section| PickOption {
                value: section.id.clone(),
                label: section.title.clone(),
                detail: format!("{} site spaces", section.spaces.len()),
            })
            .collect();
        let current = self.form.values.default_section.clone();
        self.modal = Some(Modal::Picker(
            Picker::new("Default section", options, PickPurpose::DefaultSection)
                .at(current.as_deref()),
        ));
    }

    fn pick_default_space(&mut self) {
        let Some(choices) = &self.form.choices else {
            self.warn("The site's structure is still loading");
            return;
        };
        let spaces = choices.spaces_in(self.form.values.default_section.as_deref());
        if spaces.is_empty() {
            self.warn("No site spaces to choose from");
            return;
        }
        let options = spaces
            .into_iter()
            .map(|space| PickOption {
                value: space.id,
                label: space.title,
                detail: format!("/{}", space.path),
            })
            .collect();
        let current = self.form.values.default_space.clone();
        self.modal = Some(Modal::Picker(
            Picker::new("Default site space", options, PickPurpose::DefaultSpace)
                .at(current.as_deref()),
        ));
    }

    /// Sends the changed fields, once every field is valid.
    pub fn save(&mut self, ctx: &mut Ctx) -> Cmd {
        if let Some(reason) = self.read_only_reason() {
            self.warn(reason);
            return Cmd::None;
        }
        self.form.commit();
        if let Some((field, reason)) = self.form.first_error() {
            self.form.select(field);
            self.warn(format!("Not saved: {} — {reason}", field.label()));
            return Cmd::None;
        }
        let update = self.form.update();
        if update.is_empty() {
            self.say("Nothing to save");
            return Cmd::None;
        }
        let (organization, site) = self.ids();
        let changed = self.form.changed_fields();
        self.write(
            SitesCall::UpdateSite {
                organization,
                site,
                update,
            },
            Pending::Save(changed),
            ctx,
        )
    }

    /// The confirmation before publishing or unpublishing, naming who will (or will no
    /// longer) reach the site.
    pub fn ask_publish(&mut self) {
        if let Some(reason) = self.read_only_reason() {
            self.warn(reason);
            return;
        }
        let visibility = self.site.visibility.as_ref();
        let who = audience(visibility);
        let named = visibility.map_or("unknown".to_string(), |v| v.to_string());
        let title = &self.site.title;
        let (confirm, then) = if self.site.published {
            (
                Confirm::new(
                    format!("Unpublish “{title}”?"),
                    format!("It will no longer be reachable by {who} (visibility: {named})."),
                    "unpublish",
                ),
                Confirmed::Unpublish,
            )
        } else {
            let mut consequence = format!("It will be reachable by {who} (visibility: {named}).");
            if self.form.is_changed(Field::Visibility) {
                consequence.push_str(" Your unsaved visibility change is not part of this.");
            }
            (
                Confirm::new(format!("Publish “{title}”?"), consequence, "publish"),
                Confirmed::Publish,
            )
        };
        self.modal = Some(Modal::Confirm { confirm, then });
    }
}
