//! The settings form of a site: what the server has (`original`), what the user made of it
//! (`values`), validation per field as the user types, and the PATCH holding only what changed.

use ratatui::crossterm::event::KeyEvent;

use crate::api::SiteUpdate;
use crate::api::models::{
    AdaptiveContent, AgentsContext, PublishedSite, Site, SiteSection, SiteSpace, SiteStructureItem,
    SiteVisibility,
};
use crate::ui::input::{InputOutcome, LineInput};
use crate::ui::list::Selection;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Title,
    Visibility,
    Basename,
    AdaptiveContent,
    AgentsContext,
    DefaultSection,
    DefaultSpace,
    Proxy,
}

impl Field {
    pub fn label(self) -> &'static str {
        match self {
            Field::Title => "Title",
            Field::Visibility => "Visibility",
            Field::Basename => "Basename",
            Field::AdaptiveContent => "Adaptive content",
            Field::AgentsContext => "Agents context",
            Field::DefaultSection => "Default section",
            Field::DefaultSpace => "Default space",
            Field::Proxy => "Proxy",
        }
    }

    /// The name in the PATCH body, also how the server names it in a 400.
    pub fn wire_name(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Visibility => "visibility",
            Field::Basename => "basename",
            Field::AdaptiveContent => "adaptiveContent",
            Field::AgentsContext => "agentsContext",
            Field::DefaultSection => "defaultSiteSection",
            Field::DefaultSpace => "defaultSiteSpace",
            Field::Proxy => "proxy",
        }
    }

    /// Typed into a line input (the others are toggled or picked from a list).
    pub fn is_text(self) -> bool {
        matches!(self, Field::Title | Field::Basename | Field::Proxy)
    }
}

/// Every visibility with what it means, for the picker.
pub const VISIBILITIES: [(SiteVisibility, &str); 4] = [
    (
        SiteVisibility::Public,
        "Anyone can read it; search engines index it.",
    ),
    (
        SiteVisibility::Unlisted,
        "Anyone with the address can read it; not indexed.",
    ),
    (
        SiteVisibility::ShareLink,
        "Only people holding one of its share links.",
    ),
    (
        SiteVisibility::VisitorAuth,
        "Only visitors signed in through your identity provider.",
    ),
];

pub fn visibility_explanation(visibility: &SiteVisibility) -> &'static str {
    VISIBILITIES
        .iter()
        .find(|(candidate, _)| candidate == visibility)
        .map_or(
            "A visibility this version of quire does not know.",
            |(_, text)| text,
        )
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Values {
    pub title: String,
    pub visibility: Option<SiteVisibility>,
    pub basename: String,
    pub adaptive_content: bool,
    pub agents_context: Option<AgentsContext>,
    pub default_section: Option<String>,
    pub default_space: Option<String>,
    pub proxy: String,
}

impl Values {
    pub fn from_site(site: &Site) -> Values {
        Values {
            title: site.title.clone(),
            visibility: site.visibility.clone(),
            basename: site.basename.clone().unwrap_or_default(),
            adaptive_content: site.adaptive_content.is_some_and(|a| a.enabled),
            agents_context: site.agents_context.clone(),
            default_section: None,
            default_space: None,
            proxy: site
                .proxy
                .as_ref()
                .map(|proxy| proxy.origin.clone())
                .unwrap_or_default(),
        }
    }
}

/// A section and its site spaces, as choices for the defaults.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SectionChoice {
    pub id: String,
    pub title: String,
    pub spaces: Vec<SpaceChoice>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpaceChoice {
    pub id: String,
    pub title: String,
    pub path: String,
}

/// What the published structure offers for the default section and site space.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Choices {
    /// Sections, for a site with sections.
    pub sections: Vec<SectionChoice>,
    /// Site spaces of a site without sections.
    pub spaces: Vec<SpaceChoice>,
    pub default_section: Option<String>,
    pub default_space: Option<String>,
}

impl Choices {
    pub fn from_published(published: &PublishedSite) -> Choices {
        let mut choices = Choices::default();
        for item in &published.structure.structure {
            choices.collect(item, 0);
        }
        choices
    }

    fn collect(&mut self, item: &SiteStructureItem, depth: usize) {
        if depth > 32 {
            return;
        }
        match item {
            SiteStructureItem::Section(section) => self.add_section(section),
            SiteStructureItem::Group(group) => {
                for child in &group.children {
                    self.collect(child, depth + 1);
                }
                if group.children.is_empty() {
                    for section in &group.sections {
                        self.add_section(section);
                    }
                }
            }
            SiteStructureItem::Space(space) => {
                if space.default == Some(true) {
                    self.default_space = Some(space.id.clone());
                }
                self.spaces.push(space_choice(space));
            }
            SiteStructureItem::ExternalLink(_) | SiteStructureItem::Other(_) => {}
        }
    }

    fn add_section(&mut self, section: &SiteSection) {
        if self.sections.iter().any(|known| known.id == section.id) {
            return;
        }
        if section.default == Some(true) {
            self.default_section = Some(section.id.clone());
            if let Some(space) = section
                .site_spaces
                .iter()
                .find(|space| space.default == Some(true))
            {
                self.default_space = Some(space.id.clone());
            }
        }
        self.sections.push(SectionChoice {
            id: section.id.clone(),
            title: section.title.clone(),
            spaces: section.site_spaces.iter().map(space_choice).collect(),
        });
    }

    pub fn has_sections(&self) -> bool {
        !self.sections.is_empty()
    }

    /// The site spaces one may make default: those of `section` on a site with sections.
    pub fn spaces_in(&self, section: Option<&str>) -> Vec<SpaceChoice> {
        if !self.has_sections() {
            return self.spaces.clone();
        }
        self.sections
            .iter()
            .find(|candidate| Some(candidate.id.as_str()) == section)
            .map(|found| found.spaces.clone())
            .unwrap_or_default()
    }

    pub fn section_title(&self, id: &str) -> Option<&str> {
        self.sections
            .iter()
            .find(|section| section.id == id)
            .map(|section| section.title.as_str())
    }

    pub fn space_title(&self, id: &str) -> Option<String> {
        self.sections
            .iter()
            .flat_map(|section| section.spaces.iter())
            .chain(self.spaces.iter())
            .find(|space| space.id == id)
            .map(|space| format!("{} /{}", space.title, space.path))
    }
}

fn space_choice(space: &SiteSpace) -> SpaceChoice {
    let title = if space.title.is_empty() {
        space
            .space
            .as_ref()
            .map(|inner| inner.title.clone())
            .unwrap_or_default()
    } else {
        space.title.clone()
    };
    SpaceChoice {
        id: space.id.clone(),
        title,
        path: space.path.clone().unwrap_or_default(),
    }
}

#[derive(Debug, Clone, Default)]
pub struct SettingsForm {
    pub original: Values,
    pub values: Values,
    /// None until the published structure arrived.
    pub choices: Option<Choices>,
    pub selection: Selection,
    /// The line being typed into, for the selected text field.
    pub editing: Option<LineInput>,
    /// The server's 400 message, and the field it names when it names one.
    pub server_error: Option<(Option<Field>, String)>,
}

impl SettingsForm {
    pub fn new(site: &Site) -> SettingsForm {
        let values = Values::from_site(site);
        SettingsForm {
            original: values.clone(),
            values,
            ..SettingsForm::default()
        }
    }

    /// Takes a fresh site from the server as the new starting point (after a save).
    pub fn reset(&mut self, site: &Site) {
        let mut values = Values::from_site(site);
        if let Some(choices) = &self.choices {
            values.default_section = choices.default_section.clone();
            values.default_space = choices.default_space.clone();
        }
        self.original = values.clone();
        self.values = values;
        self.editing = None;
        self.server_error = None;
    }

    /// The published structure arrived: the defaults become known. Edited defaults stay.
    pub fn set_choices(&mut self, choices: Choices) {
        if self.values.default_section == self.original.default_section {
            self.values.default_section = choices.default_section.clone();
        }
        if self.values.default_space == self.original.default_space {
            self.values.default_space = choices.default_space.clone();
        }
        self.original.default_section = choices.default_section.clone();
        self.original.default_space = choices.default_space.clone();
        self.choices = Some(choices);
    }

    /// The fields shown, in order. Agents context only when the server reported it; the
    /// default section only on a site with sections.
    pub fn fields(&self) -> Vec<Field> {
        let mut fields = vec![
            Field::Title,
            Field::Visibility,
            Field::Basename,
            Field::AdaptiveContent,
        ];
        if self.original.agents_context.is_some() {
            fields.push(Field::AgentsContext);
        }
        if self.choices.as_ref().is_some_and(Choices::has_sections) {
            fields.push(Field::DefaultSection);
        }
        fields.push(Field::DefaultSpace);
        fields.push(Field::Proxy);
        fields
    }

    pub fn selected_field(&self) -> Option<Field> {
        self.fields().get(self.selection.selected).copied()
    }

    /// The text of a text field as it stands, the line being typed included.
    pub fn text_of(&self, field: Field) -> String {
        if let (Some(input), Some(selected)) = (&self.editing, self.selected_field())
            && selected == field
        {
            return input.text.clone();
        }
        match field {
            Field::Title => self.values.title.clone(),
            Field::Basename => self.values.basename.clone(),
            Field::Proxy => self.values.proxy.clone(),
            _ => String::new(),
        }
    }

    /// Why a field's value would be refused, checked as the user types.
    pub fn error(&self, field: Field) -> Option<String> {
        let text = self.text_of(field);
        let length = text.chars().count();
        match field {
            Field::Title if length < 2 => Some("needs at least 2 characters".into()),
            Field::Title if length > 128 => Some(format!("at most 128 characters ({length})")),
            Field::Basename => {
                let unchanged_empty = text.is_empty() && self.original.basename.is_empty();
                if unchanged_empty {
                    None
                } else if length < 1 {
                    Some("needs 1 to 100 characters".into())
                } else if length > 100 {
                    Some(format!("at most 100 characters ({length})"))
                } else if !is_basename(&text) {
                    Some("only lowercase letters, digits, - and /".into())
                } else {
                    None
                }
            }
            Field::Proxy => {
                let origin = text.trim();
                if origin.is_empty() {
                    None
                } else if origin.len() > 512 {
                    Some("at most 512 characters".into())
                } else if !is_proxy_origin(origin) {
                    Some("a host and path like example.com/docs".into())
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// The first field that blocks a save. Only fields the user changed count: a value the
    /// server already holds is the server's business, and must not stop other fields saving.
    pub fn first_error(&self) -> Option<(Field, String)> {
        self.fields()
            .into_iter()
            .filter(|field| self.is_changed(*field))
            .find_map(|field| self.error(field).map(|reason| (field, reason)))
    }

    /// Selects `field` (when shown), so the cursor is where the user has to look.
    pub fn select(&mut self, field: Field) {
        let fields = self.fields();
        if let Some(index) = fields.iter().position(|shown| *shown == field) {
            self.selection.select(index, fields.len());
        }
    }

    pub fn is_changed(&self, field: Field) -> bool {
        let (original, values) = (&self.original, &self.values);
        match field {
            Field::Title => original.title != values.title,
            Field::Visibility => original.visibility != values.visibility,
            Field::Basename => original.basename != values.basename,
            Field::AdaptiveContent => original.adaptive_content != values.adaptive_content,
            Field::AgentsContext => original.agents_context != values.agents_context,
            Field::DefaultSection => original.default_section != values.default_section,
            Field::DefaultSpace => original.default_space != values.default_space,
            Field::Proxy => original.proxy.trim() != values.proxy.trim(),
        }
    }

    pub fn changed_fields(&self) -> Vec<Field> {
        [
            Field::Title,
            Field::Visibility,
            Field::Basename,
            Field::AdaptiveContent,
            Field::AgentsContext,
            Field::DefaultSection,
            Field::DefaultSpace,
            Field::Proxy,
        ]
        .into_iter()
        .filter(|field| self.is_changed(*field))
        .collect()
    }

    pub fn is_dirty(&self) -> bool {
        !self.changed_fields().is_empty() || self.editing.is_some()
    }

    /// The PATCH: only the fields that differ from what the server has.
    pub fn update(&self) -> SiteUpdate {
        let changed = |field| self.is_changed(field);
        let values = &self.values;
        SiteUpdate {
            title: changed(Field::Title).then(|| values.title.clone()),
            visibility: values
                .visibility
                .clone()
                .filter(|_| changed(Field::Visibility)),
            basename: changed(Field::Basename).then(|| values.basename.clone()),
            adaptive_content: changed(Field::AdaptiveContent).then_some(AdaptiveContent {
                enabled: values.adaptive_content,
            }),
            agents_context: values
                .agents_context
                .clone()
                .filter(|_| changed(Field::AgentsContext)),
            default_level: None,
            default_site_space: values
                .default_space
                .clone()
                .filter(|_| changed(Field::DefaultSpace)),
            default_site_section: values
                .default_section
                .clone()
                .filter(|_| changed(Field::DefaultSection)),
            proxy: changed(Field::Proxy).then(|| {
                let origin = values.proxy.trim();
                (!origin.is_empty()).then(|| origin.to_string())
            }),
        }
    }

    /// Starts typing into the selected text field.
    pub fn start_editing(&mut self) {
        if let Some(field) = self.selected_field().filter(|field| field.is_text()) {
            self.editing = Some(LineInput::with_text(&self.text_of(field)));
        }
    }

    /// A key while typing: enter keeps the text, esc puts the old one back.
    pub fn edit_key(&mut self, key: &KeyEvent) {
        let Some(input) = self.editing.as_mut() else {
            return;
        };
        match input.handle_key(key) {
            InputOutcome::Submitted => self.commit(),
            InputOutcome::Cancelled => self.editing = None,
            _ => {}
        }
    }

    pub fn paste(&mut self, text: &str) {
        if let Some(input) = self.editing.as_mut() {
            input.insert_str(text);
        }
    }

    /// Keeps the typed text in the field.
    pub fn commit(&mut self) {
        let (Some(input), Some(field)) = (self.editing.take(), self.selected_field()) else {
            return;
        };
        match field {
            Field::Title => self.values.title = input.text,
            Field::Basename => self.values.basename = input.text,
            Field::Proxy => self.values.proxy = input.text,
            _ => {}
        }
        if self
            .server_error
            .as_ref()
            .is_some_and(|(about, _)| *about == Some(field))
        {
            self.server_error = None;
        }
    }

    /// Flips an on/off field.
    pub fn toggle(&mut self, field: Field) {
        match field {
            Field::AdaptiveContent => {
                self.values.adaptive_content = !self.values.adaptive_content;
            }
            Field::AgentsContext => {
                self.values.agents_context = Some(match self.values.agents_context {
                    Some(AgentsContext::Included) => AgentsContext::Excluded,
                    _ => AgentsContext::Included,
                });
            }
            _ => {}
        }
    }

    /// The server refused the save: keep its message, beside the field it names.
    pub fn refused(&mut self, message: &str) {
        let field = self.fields().into_iter().find(|field| {
            message.contains(&format!("\"{}\"", field.wire_name()))
                || message.contains(&format!("{}.", field.wire_name()))
        });
        self.server_error = Some((field, message.to_string()));
    }
}

/// The service's slug rule for a basename: lowercase ASCII letters, digits, `-` and `/`.
pub fn is_basename(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '/')
}

/// `[\w-]` of the seed's proxy pattern (ASCII).
fn is_word(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The seed's proxy pattern `^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$`, checked by hand:
/// dotted host labels ending in a letters-only label of two or more, then `/segment`s.
pub fn is_proxy_origin(origin: &str) -> bool {
    let Some((host, path)) = origin.split_once('/') else {
        return false;
    };
    let labels: Vec<&str> = host.split('.').collect();
    let top_level = labels.last().copied().unwrap_or_default();
    labels.len() >= 2
        && labels.iter().all(|label| is_word(label))
        && top_level.len() >= 2
        && top_level.chars().all(|c| c.is_ascii_alphabetic())
        && path.split('/').all(is_word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_pattern_by_hand() {
        for good in [
            "example.com/docs",
            "a_b.c-d.io/x_y/z",
            "docs.acme.example/portal",
        ] {
            assert!(is_proxy_origin(good), "{good}");
        }
        for bad in [
            "example.com",
            "example.com/",
            "example.com/docs/",
            "example/docs",
            "example.c/docs",
            "example.c0m/docs",
            "https://example.com/docs",
            "exa mple.com/docs",
            ".example.com/docs",
            "example.com//docs",
            "",
        ] {
            assert!(!is_proxy_origin(bad), "{bad}");
        }
    }
}
