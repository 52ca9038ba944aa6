//! A form's unsaved values as a small text, so they can be kept on disk as a draft and put back
//! over freshly loaded values in a later run: one `name: value` line per changed field, the
//! value escaped so a line break or a backslash in it cannot end or corrupt the line.

use super::{FormFields, Kind};
use crate::form::Form;

/// `name: value` lines, each value escaped: the text a draft is kept as.
pub fn encode_lines<'a>(lines: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    lines
        .into_iter()
        .map(|(name, value)| format!("{name}: {}\n", escape(value)))
        .collect()
}

/// The `(name, value)` pairs of a text [`encode_lines`] made; a line that is not `name: value`
/// is skipped, so a damaged file gives what it still holds.
pub fn decode_lines(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| line.split_once(": "))
        .map(|(name, value)| (name.to_string(), unescape(value)))
        .collect()
}

fn escape(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => escaped.push_str("\\\\"),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            other => escaped.push(other),
        }
    }
    escaped
}

fn unescape(value: &str) -> String {
    let mut plain = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            plain.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => plain.push('\n'),
            Some('r') => plain.push('\r'),
            Some(other) => plain.push(other),
            None => plain.push('\\'),
        }
    }
    plain
}

impl<F: FormFields> Form<F> {
    /// What the user changed, as a draft's text: every text field whose text (the line being
    /// typed included) is not the loaded one, and every toggled or picked field that changed
    /// and that the screen can write as text. `None` when nothing is worth keeping.
    pub fn draft_text(&self) -> Option<String> {
        let values: Vec<(&str, String)> = F::ALL
            .iter()
            .filter_map(|field| Some((field.spec().wire_name, self.draft_value(*field)?)))
            .collect();
        if values.is_empty() {
            return None;
        }
        Some(encode_lines(
            values.iter().map(|(name, value)| (*name, value.as_str())),
        ))
    }

    /// `field`'s value for a draft; `None` when it is as loaded (or cannot be written).
    fn draft_value(&self, field: F) -> Option<String> {
        match field.spec().kind {
            Kind::Text => {
                let text = self.text_of(field);
                (text != field.text(&self.original)).then(|| text.to_string())
            }
            Kind::Toggle | Kind::Choice => {
                if !field.picked_changed(&self.original, &self.values) {
                    return None;
                }
                field.picked_text(&self.values)
            }
        }
    }

    /// Puts a draft's values back over the loaded ones; lines naming no field of this form
    /// are ignored. Typing stops (its line is in the draft). Returns the fields put back.
    pub fn restore_draft(&mut self, text: &str) -> Vec<F> {
        self.editing = None;
        let mut restored = Vec::new();
        for (name, value) in decode_lines(text) {
            let Some(field) = F::ALL
                .iter()
                .copied()
                .find(|field| field.spec().wire_name == name)
            else {
                continue;
            };
            let put_back = match field.spec().kind {
                Kind::Text => {
                    field.set_text(&mut self.values, value);
                    true
                }
                Kind::Toggle | Kind::Choice => field.set_picked_text(&mut self.values, &value),
            };
            if put_back {
                self.edited(field);
                restored.push(field);
            }
        }
        restored
    }
}

/// A toggled or picked value as its JSON: a text that reads the same in a later run, `null`
/// for nothing picked. For [`super::FormFields::picked_text`].
pub fn picked_json<T: serde::Serialize>(value: &T) -> Option<String> {
    serde_json::to_string(value).ok()
}

/// How a form's values read and write as JSON, for values that serialize each field under its
/// wire name: the form then finds a toggled or picked field in them by that name, to compare it
/// and keep it in a draft (see [`super::FormFields::JSON`]).
pub struct ValuesJson<V> {
    write: fn(&V) -> Option<serde_json::Value>,
    read: fn(serde_json::Value) -> Option<V>,
}

impl<V: serde::Serialize + serde::de::DeserializeOwned> ValuesJson<V> {
    /// Through the values' own `Serialize` and `Deserialize`.
    pub const SERDE: ValuesJson<V> = ValuesJson {
        write: |values| serde_json::to_value(values).ok(),
        read: |json| serde_json::from_value(json).ok(),
    };
}

impl<V> ValuesJson<V> {
    /// The field named `name` in `values`, as [`picked_json`] writes it.
    pub(super) fn field(&self, values: &V, name: &str) -> Option<String> {
        (self.write)(values)?.get(name).map(ToString::to_string)
    }

    /// Puts a field [`Self::field`] wrote back into `values`; false, leaving them, when `text`
    /// is not one.
    pub(super) fn set_field(&self, values: &mut V, name: &str, text: &str) -> bool {
        serde_json::from_str(text).is_ok_and(|value| self.set_value(values, name, value))
    }

    /// Puts `value` into `values` as the field named `name`; false, leaving them, when it does
    /// not fit there.
    pub(super) fn set_value(&self, values: &mut V, name: &str, value: serde_json::Value) -> bool {
        let Some(mut json) = (self.write)(values) else {
            return false;
        };
        match json.get_mut(name) {
            Some(slot) => *slot = value,
            None => return false,
        }
        match (self.read)(json) {
            Some(read) => {
                *values = read;
                true
            }
            None => false,
        }
    }
}

/// Puts a value [`picked_json`] wrote into `slot`; false, leaving it, when `text` is not one.
pub fn read_picked_json<T: serde::de::DeserializeOwned>(text: &str, slot: &mut T) -> bool {
    match serde_json::from_str(text) {
        Ok(value) => {
            *slot = value;
            true
        }
        Err(_) => false,
    }
}
