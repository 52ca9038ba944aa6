//! One form widget for the settings screens: fields under a cursor, a line typed into a text
//! field, a check per field shown on that field, what changed since the values were loaded, and
//! a server's refusal placed on the field it names. A screen names its fields with an enum
//! implementing [`FormFields`] and keeps its own typed values, so the form knows no screen and no
//! API type.

mod draft;
mod draw;
#[cfg(test)]
mod tests;

use std::fmt;

use ratatui::crossterm::event::KeyEvent;

use crate::input::{InputOutcome, LineInput};
use crate::list::Selection;

pub use draft::{ValuesJson, decode_lines, encode_lines, picked_json, read_picked_json};
pub use draw::{
    FormLines, FormStyle, Marks, Messages, Row, ShowChecks, ValueFit, draw, place_cursor,
};

/// What a field holds, which says what enter does on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A line typed into.
    Text,
    /// On or off (or one of two values), flipped by enter.
    Toggle,
    /// Picked from a list the screen offers.
    Choice,
}

/// Whether a text field may be left empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// The field's check decides, an empty value included.
    Checked,
    /// Blank (nothing, or only spaces) is fine; anything else goes through the check.
    Optional,
    /// Empty is fine while the loaded value was empty too (the server never had one); once it
    /// had one, the check decides.
    OptionalWhileUnset,
}

/// How a text field's value is compared with the loaded one.
#[derive(Debug, Clone, Copy)]
pub enum Compare {
    Exact,
    /// Spaces at either end do not count.
    Trimmed,
    /// Equal when the function makes the same of both (a list typed with commas, say).
    By(fn(&str) -> String),
}

impl Compare {
    fn same(self, original: &str, value: &str) -> bool {
        match self {
            Compare::Exact => original == value,
            Compare::Trimmed => original.trim() == value.trim(),
            Compare::By(normal) => normal(original) == normal(value),
        }
    }
}

/// How one field is shown, typed, checked and compared.
#[derive(Debug, Clone, Copy)]
pub struct FieldSpec {
    pub label: &'static str,
    /// How the server names the field, in a request body and in a refusal.
    pub wire_name: &'static str,
    pub kind: Kind,
    pub presence: Presence,
    pub compare: Compare,
    /// Why a typed text would be refused; `None` when it would not.
    pub check: Option<fn(&str) -> Option<String>>,
}

impl FieldSpec {
    fn new(label: &'static str, wire_name: &'static str, kind: Kind) -> FieldSpec {
        FieldSpec {
            label,
            wire_name,
            kind,
            presence: Presence::Checked,
            compare: Compare::Exact,
            check: None,
        }
    }

    /// A line typed into, compared exactly and not checked until told otherwise.
    pub fn text(label: &'static str, wire_name: &'static str) -> FieldSpec {
        FieldSpec::new(label, wire_name, Kind::Text)
    }

    /// A field enter flips.
    pub fn toggle(label: &'static str, wire_name: &'static str) -> FieldSpec {
        FieldSpec::new(label, wire_name, Kind::Toggle)
    }

    /// A field picked from a list.
    pub fn choice(label: &'static str, wire_name: &'static str) -> FieldSpec {
        FieldSpec::new(label, wire_name, Kind::Choice)
    }

    /// Checks the typed text with `check`.
    pub fn checked(self, check: fn(&str) -> Option<String>) -> FieldSpec {
        FieldSpec {
            check: Some(check),
            ..self
        }
    }

    pub fn presence(self, presence: Presence) -> FieldSpec {
        FieldSpec { presence, ..self }
    }

    pub fn compared(self, compare: Compare) -> FieldSpec {
        FieldSpec { compare, ..self }
    }
}

/// How a server's refusal names a field (`title` stands for a field's wire name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// `"title"`.
    Quoted,
    /// `"title"`, or a quoted path into it: `"title.…`.
    QuotedOrQuotedPath,
    /// `"title"`, or a path into it, quoted or not: `title.…`.
    QuotedOrPath,
}

impl Naming {
    fn names(self, message: &str, wire_name: &str) -> bool {
        let quoted = message.contains(&format!("\"{wire_name}\""));
        quoted
            || match self {
                Naming::Quoted => false,
                Naming::QuotedOrQuotedPath => message.contains(&format!("\"{wire_name}.")),
                Naming::QuotedOrPath => message.contains(&format!("{wire_name}.")),
            }
    }
}

/// The fields of one form: an enum whose values name them.
pub trait FormFields: Copy + PartialEq + fmt::Debug + 'static {
    /// Every field's value, as the screen keeps them.
    type Values: Clone + Default + PartialEq + fmt::Debug;

    /// Every field, in the order shown.
    const ALL: &'static [Self];

    fn spec(self) -> FieldSpec;

    /// The text of a text field in `values` ("" for the others).
    fn text(self, values: &Self::Values) -> &str;

    /// Keeps typed text in a text field of `values`: through [`Self::JSON`] when there is one.
    fn set_text(self, values: &mut Self::Values, text: String) {
        let spec = self.spec();
        if let Some(json) = Self::JSON.filter(|_| spec.kind == Kind::Text) {
            json.set_value(values, spec.wire_name, serde_json::Value::String(text));
        }
    }

    /// How the values read as JSON when they serialize each field under its wire name: then
    /// [`Self::picked_text`] and [`Self::set_picked_text`] need nothing else from the screen.
    const JSON: Option<ValuesJson<Self::Values>> = None;

    /// Whether a toggled or picked field holds something else in `values` than in `original`:
    /// by default, whether its [`Self::picked_text`] does. Text fields are compared by the
    /// form, as their spec's [`Compare`] says.
    fn picked_changed(self, original: &Self::Values, values: &Self::Values) -> bool {
        self.picked_text(original) != self.picked_text(values)
    }

    /// A toggled or picked field's value in `values` as a text that reads the same in a later
    /// run, for a draft; `None` when the screen has no such text for it.
    fn picked_text(self, values: &Self::Values) -> Option<String> {
        let spec = self.spec();
        let json = Self::JSON.filter(|_| spec.kind != Kind::Text)?;
        json.field(values, spec.wire_name)
    }

    /// Puts a value [`Self::picked_text`] wrote back into `values`. False, changing nothing,
    /// for a text it does not read.
    fn set_picked_text(self, values: &mut Self::Values, text: &str) -> bool {
        let spec = self.spec();
        match Self::JSON {
            Some(json) if spec.kind != Kind::Text => json.set_field(values, spec.wire_name, text),
            _ => false,
        }
    }
}

/// A form over the fields `F`: what was loaded, what the user made of it, the cursor, the line
/// being typed and the server's last refusal.
#[derive(Debug, Clone, PartialEq)]
pub struct Form<F: FormFields> {
    /// What the server has (empty for something not created yet).
    pub original: F::Values,
    /// What the user made of it.
    pub values: F::Values,
    /// The fields shown, in order: all of them unless the screen hides some.
    fields: Vec<F>,
    pub selection: Selection,
    /// The line being typed into, for the selected text field.
    pub editing: Option<LineInput>,
    /// The server's refusal, and the field it names when it names one.
    pub server_error: Option<(Option<F>, String)>,
    /// A form for something the server does not have yet: every field counts for a save, not
    /// only the changed ones.
    pub creating: bool,
    /// Changing a field also drops a refusal that named no field.
    pub edits_clear_form_error: bool,
}

impl<F: FormFields> Default for Form<F> {
    fn default() -> Self {
        Form::new(F::Values::default())
    }
}

impl<F: FormFields> Form<F> {
    /// A form on `values` as loaded: nothing changed, every field shown, the first selected.
    pub fn new(values: F::Values) -> Form<F> {
        Form {
            original: values.clone(),
            values,
            fields: F::ALL.to_vec(),
            selection: Selection::default(),
            editing: None,
            server_error: None,
            creating: false,
            edits_clear_form_error: false,
        }
    }

    /// Takes fresh values from the server as the new starting point: what was typed and
    /// refused goes.
    pub fn load(&mut self, values: F::Values) {
        self.original = values.clone();
        self.values = values;
        self.editing = None;
        self.server_error = None;
    }

    // ----- fields and cursor -----

    /// The fields shown, in order.
    pub fn fields(&self) -> &[F] {
        &self.fields
    }

    /// Shows only `fields` (in that order). The cursor stays on its row.
    pub fn show(&mut self, fields: Vec<F>) {
        self.fields = fields;
    }

    /// Moves the cursor back onto the last field shown when it is past it.
    pub fn clamp_cursor(&mut self) {
        self.selection.clamp(self.fields.len());
    }

    /// The field under the cursor; `None` when the cursor is past the fields shown.
    pub fn selected_field(&self) -> Option<F> {
        self.fields.get(self.selection.selected).copied()
    }

    /// Moves the cursor by `delta` fields, stopping at the first and the last.
    pub fn move_by(&mut self, delta: isize) {
        self.selection.move_by(delta, self.fields.len());
    }

    pub fn first(&mut self) {
        self.selection.top();
    }

    pub fn last(&mut self) {
        self.selection.bottom(self.fields.len());
    }

    /// Selects `field` (when shown), so the cursor is where the user has to look.
    pub fn select(&mut self, field: F) {
        if let Some(index) = self.fields.iter().position(|shown| *shown == field) {
            self.selection.select(index, self.fields.len());
        }
    }

    // ----- values, checks and changes -----

    /// The text of a text field as it stands, the line being typed included.
    pub fn text_of(&self, field: F) -> &str {
        if let Some(input) = &self.editing
            && self.selected_field() == Some(field)
        {
            return &input.text;
        }
        field.text(&self.values)
    }

    /// Why a field's value would be refused, checked as the user types.
    pub fn error(&self, field: F) -> Option<String> {
        let spec = field.spec();
        let check = spec.check?;
        let text = self.text_of(field);
        let may_be_empty = match spec.presence {
            Presence::Checked => false,
            Presence::Optional => text.trim().is_empty(),
            Presence::OptionalWhileUnset => {
                text.is_empty() && field.text(&self.original).is_empty()
            }
        };
        if may_be_empty { None } else { check(text) }
    }

    pub fn is_changed(&self, field: F) -> bool {
        let spec = field.spec();
        match spec.kind {
            Kind::Text => !spec
                .compare
                .same(field.text(&self.original), field.text(&self.values)),
            Kind::Toggle | Kind::Choice => field.picked_changed(&self.original, &self.values),
        }
    }

    /// Every field that differs from what was loaded, in order: what a PATCH sends.
    pub fn changed_fields(&self) -> Vec<F> {
        F::ALL
            .iter()
            .copied()
            .filter(|field| self.is_changed(*field))
            .collect()
    }

    /// Something changed, or is being typed.
    pub fn is_dirty(&self) -> bool {
        F::ALL.iter().any(|field| self.is_changed(*field)) || self.editing.is_some()
    }

    /// Whether a field's check stops a save: it changed, or the form creates something. A
    /// value the server already holds is the server's business, and must not stop other fields
    /// saving.
    pub fn counts(&self, field: F) -> bool {
        self.creating || self.is_changed(field)
    }

    /// The first field shown that blocks a save, and why.
    pub fn first_error(&self) -> Option<(F, String)> {
        self.fields
            .iter()
            .copied()
            .filter(|field| self.counts(*field))
            .find_map(|field| self.error(field).map(|reason| (field, reason)))
    }

    // ----- typing -----

    /// Starts typing into the selected text field.
    pub fn start_editing(&mut self) {
        if let Some(field) = self
            .selected_field()
            .filter(|field| field.spec().kind == Kind::Text)
        {
            self.editing = Some(LineInput::with_text(self.text_of(field)));
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

    /// Pasted text goes into the line being typed.
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
        field.set_text(&mut self.values, input.text);
        self.edited(field);
    }

    /// `field` was changed: the server's refusal of it no longer holds (nor, when
    /// [`Self::edits_clear_form_error`], one naming no field).
    pub fn edited(&mut self, field: F) {
        if self.server_error.as_ref().is_some_and(|(about, _)| {
            *about == Some(field) || (about.is_none() && self.edits_clear_form_error)
        }) {
            self.server_error = None;
        }
    }

    // ----- the server's refusal -----

    /// The field shown that `message` names, if any.
    pub fn named_field(&self, message: &str, naming: Naming) -> Option<F> {
        self.fields
            .iter()
            .copied()
            .find(|field| naming.names(message, field.spec().wire_name))
    }

    /// The server refused the save: keep its message, on the field it names or for the whole
    /// form. Returns the field, for a screen that moves the cursor there.
    pub fn place_server_error(&mut self, message: &str, naming: Naming) -> Option<F> {
        let field = self.named_field(message, naming);
        self.server_error = Some((field, message.to_string()));
        field
    }
}
