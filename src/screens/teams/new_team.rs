//! A team being created: its title and the members picked for it, kept in the tab and on disk
//! from the first key, so `esc`, a refused create or a lost quire leaves them for the next `n`.

use super::tab::{Modal, TeamsTab, TitleFor};
use crate::screens::form_draft::and_then;
use crate::screens::step::Step;
use crate::ui::form::{decode_lines, encode_lines};
use crate::ui::notice::Notice;
use crate::ui::picker::Picker;
use crate::ui::sanitize::sanitize;
use crate::vocabulary::Cmd;

/// What the user gave a team not created yet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewTeam {
    pub title: String,
    /// Member ids, as picked.
    pub members: Vec<String>,
}

impl NewTeam {
    fn is_empty(&self) -> bool {
        self.title.trim().is_empty() && self.members.is_empty()
    }

    /// The draft's text: a `title` line and one `member` line per member.
    pub fn draft_text(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let title = std::iter::once(("title", self.title.as_str()));
        let members = self.members.iter().map(|id| ("member", id.as_str()));
        Some(encode_lines(title.chain(members)))
    }

    /// A team read back from its draft; `None` when the draft holds nothing of one.
    pub fn from_draft(text: &str) -> Option<NewTeam> {
        let mut team = NewTeam::default();
        for (name, value) in decode_lines(text) {
            match name.as_str() {
                "title" => team.title = value,
                "member" => team.members.push(value),
                _ => {}
            }
        }
        (!team.is_empty()).then_some(team)
    }

    /// The prompt's hint: what is kept from before, if anything.
    pub fn hint(&self) -> String {
        match self.members.len() {
            _ if self.is_empty() => "title, 1 to 64 characters".to_string(),
            0 => "title, 1 to 64 characters — kept from before".to_string(),
            1 => "title, 1 to 64 characters — kept from before, with 1 member".to_string(),
            count => format!("title, 1 to 64 characters — kept from before, with {count} members"),
        }
    }

    /// Marks the kept members in the initial members' picker.
    pub fn mark(&self, picker: &mut Picker<String>) {
        for (index, option) in picker.options.iter().enumerate() {
            if self.members.contains(&option.value) {
                picker.chosen.insert(index);
            }
        }
    }
}

impl TeamsTab {
    /// Where the team being created is kept on disk.
    pub fn new_team_draft_key(&self) -> String {
        format!("team-create:{}", self.organization)
    }

    /// The title being typed, or the members being marked, become the team being created.
    fn note_new_team(&mut self) {
        let noted = match &self.modal {
            Some(Modal::Title(prompt)) if prompt.purpose == TitleFor::Create => {
                (prompt.input.text.clone(), None)
            }
            Some(Modal::Members(picker)) => {
                let members = picker
                    .chosen
                    .iter()
                    .filter_map(|index| picker.options.get(*index))
                    .map(|option| option.value.clone())
                    .collect();
                (picker.purpose.clone(), Some(members))
            }
            _ => return,
        };
        let team = self.new_team.get_or_insert_default();
        team.title = noted.0;
        if let Some(members) = noted.1 {
            team.members = members;
        }
        if team.is_empty() {
            self.new_team = None;
        }
    }

    /// Follows the team being created into the tab's state and its draft on disk.
    pub(super) fn keep_new_team(&mut self) -> Cmd {
        self.note_new_team();
        let key = self.new_team_draft_key();
        let text = self.new_team.as_ref().and_then(NewTeam::draft_text);
        self.new_team_draft.follow(key, text)
    }

    /// `step`, then whatever keeps the team being created.
    pub(super) fn with_new_team(&mut self, step: Option<Step>) -> Option<Step> {
        let keep = self.keep_new_team();
        and_then(step, keep)
    }

    /// A team being created in an earlier run, found on disk: the next `n` offers it.
    pub(super) fn on_new_team_draft(&mut self, drafts: &[(String, String)]) {
        let key = self.new_team_draft_key();
        let Some((_, text)) = drafts.iter().find(|(found, _)| *found == key) else {
            return;
        };
        let Some(team) = NewTeam::from_draft(text).filter(|_| self.new_team.is_none()) else {
            return;
        };
        self.new_team_draft.found(text);
        self.notice = Some(Notice::info(format!(
            "A team being created in an earlier run is kept: n offers “{}” again",
            sanitize(&team.title)
        )));
        self.new_team = Some(team);
    }
}
