//! How the scripting subcommands (`quire org|space|page|search|cr`) print, after gh: a table
//! for a person at a terminal, tab-separated lines without a header for a pipe, `--json
//! FIELDS` for a program, `--jq EXPR` to pick from that JSON. Colour only on a terminal and
//! never under NO_COLOR. Errors go to stderr; a progress line too, but only when stderr is a
//! terminal, so a script's logs stay clean.

pub mod ansi;
pub mod jq;
pub mod table;

use std::io::{IsTerminal, Write};

use serde_json::{Map, Value};

use crate::cli::script::{Failure, Outcome};
use crate::ui::sanitize::sanitize;

/// One record of a list: field name to value, every field the list offers.
pub type Record = Map<String, Value>;

/// `--json [FIELDS]` and `--jq EXPR`, shared by every list. The field names each list offers
/// are set on its own command (see [`fields`]), so completions and `--help` know them.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct JsonArgs {
    /// Print JSON with these fields (comma-separated). Alone, print the field names, one a
    /// line, and exit 0.
    #[arg(long, value_name = "FIELDS", num_args = 0..=1, value_delimiter = ',')]
    pub json: Option<Vec<String>>,
    /// Filter the JSON with a jq expression (implies --json; every field unless --json names
    /// some). A string the filter yields prints raw, without quotes.
    #[arg(long, value_name = "EXPR")]
    pub jq: Option<String>,
}

impl JsonArgs {
    /// `--json` alone: the field names are printed, and nothing needs reading.
    pub fn wants_field_names(&self) -> bool {
        self.jq.is_none() && self.json.as_ref().is_some_and(Vec::is_empty)
    }
}

/// `--json` taking only `fields`, for `#[command(mut_arg("json", fields(LIST)))]` on each
/// list: clap then refuses an unknown field (exit 2) and the shell completions offer them.
pub fn fields(list: &'static [&'static str]) -> impl FnOnce(clap::Arg) -> clap::Arg {
    move |arg| arg.value_parser(clap::builder::PossibleValuesParser::new(list))
}

/// The standard streams of a subcommand and what they are connected to.
pub struct Streams {
    pub out: Box<dyn Write>,
    pub err: Box<dyn Write>,
    pub out_is_terminal: bool,
    pub err_is_terminal: bool,
    /// Colour is written to stdout: a terminal, and NO_COLOR unset.
    pub colour: bool,
    /// The terminal's width when stdout is one.
    pub width: u16,
    /// A progress line is on stderr, to be wiped before anything else is written.
    progress_shown: bool,
}

impl Streams {
    /// The process's own stdout and stderr.
    pub fn std() -> Streams {
        let out_is_terminal = std::io::stdout().is_terminal();
        let width = ratatui::crossterm::terminal::size()
            .map(|(columns, _)| columns)
            .unwrap_or(80);
        Streams {
            out: Box::new(std::io::stdout()),
            err: Box::new(std::io::stderr()),
            out_is_terminal,
            err_is_terminal: std::io::stderr().is_terminal(),
            colour: out_is_terminal && !crate::output::no_color_requested(),
            width: width.max(20),
            progress_shown: false,
        }
    }

    /// Says what is being waited for, on stderr when it is a terminal; [`Streams::done`]
    /// wipes it.
    pub fn progress(&mut self, text: &str) {
        if self.err_is_terminal {
            self.done();
            let _ = write!(self.err, "{text}…");
            let _ = self.err.flush();
            self.progress_shown = true;
        }
    }

    pub fn done(&mut self) {
        if self.progress_shown {
            let _ = write!(self.err, "\r\x1b[2K");
            let _ = self.err.flush();
            self.progress_shown = false;
        }
    }

    /// Server text for stdout: made harmless for a terminal, as it is for a pipe.
    pub fn shown<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        if self.out_is_terminal {
            crate::ui::sanitize::sanitize(text)
        } else {
            std::borrow::Cow::Borrowed(text)
        }
    }

    /// One line on stderr, server text made harmless.
    pub fn error(&mut self, text: &str) {
        self.done();
        let _ = writeln!(self.err, "{}", sanitize(text));
    }
}

/// A list as a subcommand found it: every record with every field, and which of the fields
/// make the table a person reads.
pub struct Listing {
    pub fields: &'static [&'static str],
    pub columns: &'static [&'static str],
    pub records: Vec<Record>,
}

/// A JSON object as a [`Record`] (anything else is an empty one).
pub fn record(value: Value) -> Record {
    match value {
        Value::Object(map) => map,
        _ => Record::new(),
    }
}

/// What the output flags asked for.
enum Shape<'a> {
    FieldNames,
    Json(Vec<&'a str>),
    Jq(&'a str, Vec<&'a str>),
    Table,
}

fn shape<'a>(args: &'a JsonArgs, all: &'static [&'static str]) -> Shape<'a> {
    let named = |fields: &'a Option<Vec<String>>| match fields {
        Some(fields) if !fields.is_empty() => fields.iter().map(String::as_str).collect(),
        _ => all.to_vec(),
    };
    match (&args.jq, &args.json) {
        (Some(expression), json) => Shape::Jq(expression, named(json)),
        (None, Some(fields)) if fields.is_empty() => Shape::FieldNames,
        (None, Some(_)) => Shape::Json(named(&args.json)),
        (None, None) => Shape::Table,
    }
}

/// Prints `listing` as the flags ask; a jq expression that failed is said on stderr.
pub fn print_list(streams: &mut Streams, args: &JsonArgs, listing: &Listing) -> Outcome {
    match shape(args, listing.fields) {
        Shape::FieldNames => {
            for field in listing.fields {
                let _ = writeln!(streams.out, "{field}");
            }
            Ok(())
        }
        Shape::Json(fields) => {
            let value = Value::Array(select_all(&listing.records, &fields));
            print_json(streams, &value);
            Ok(())
        }
        Shape::Jq(expression, fields) => {
            let value = Value::Array(select_all(&listing.records, &fields));
            print_jq(streams, expression, &value)
        }
        Shape::Table => {
            table::print(streams, listing.columns, &listing.records);
            Ok(())
        }
    }
}

/// Prints one record (a `view`) as JSON when the flags ask for it; false when they do not
/// and the caller prints it for a person.
pub fn print_one(
    streams: &mut Streams,
    args: &JsonArgs,
    fields: &'static [&'static str],
    record: &Record,
) -> Option<Outcome> {
    match shape(args, fields) {
        Shape::Table => None,
        Shape::FieldNames => {
            for field in fields {
                let _ = writeln!(streams.out, "{field}");
            }
            Some(Ok(()))
        }
        Shape::Json(named) => {
            print_json(streams, &select(record, &named));
            Some(Ok(()))
        }
        Shape::Jq(expression, named) => {
            Some(print_jq(streams, expression, &select(record, &named)))
        }
    }
}

fn select_all(records: &[Record], fields: &[&str]) -> Vec<Value> {
    records
        .iter()
        .map(|record| select(record, fields))
        .collect()
}

/// The record with just `fields`, in the order named; a field it lacks is null.
fn select(record: &Record, fields: &[&str]) -> Value {
    let picked: Map<String, Value> = fields
        .iter()
        .map(|field| {
            let value = record.get(*field).cloned().unwrap_or(Value::Null);
            ((*field).to_string(), value)
        })
        .collect();
    Value::Object(picked)
}

/// Indented for a person at a terminal, one line for a pipe.
pub fn print_json(streams: &mut Streams, value: &Value) {
    let _ = writeln!(streams.out, "{}", json_text(value, streams.out_is_terminal));
}

/// `value` as JSON, indented or on one line, with the characters a terminal would obey or
/// misorder written as escapes (see [`escape_hidden_characters`]).
pub fn json_text(value: &Value, indented: bool) -> String {
    let text = if indented {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    };
    escape_hidden_characters(&text.unwrap_or_default()).into_owned()
}

/// JSON text with C1 controls, DEL, bidi overrides and isolates and invisible format
/// characters written as `\uXXXX`: the same value and still valid JSON, but nothing a terminal
/// acts on (0x9b starts a control sequence on some) or reorders. serde_json already escapes
/// the C0 controls, and leaves these raw. Such characters can only stand inside strings (JSON
/// allows nothing else outside them but ASCII), where an escape means the same character.
/// Always, not only at a terminal: the text stays as valid and means the same to a program,
/// and a pipe often ends at a terminal anyway (`| less -R`, a CI log viewed later).
pub fn escape_hidden_characters(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.chars().any(crate::ui::sanitize::is_neutralised) {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut escaped = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if crate::ui::sanitize::is_neutralised(c) {
            // Every such character is in the Basic Multilingual Plane: one escape each.
            let _ =
                std::fmt::Write::write_fmt(&mut escaped, format_args!("\\u{:04x}", u32::from(c)));
        } else {
            escaped.push(c);
        }
    }
    std::borrow::Cow::Owned(escaped)
}

/// The lines a `--jq` filter made. Raw strings are the server's text: made harmless at a
/// terminal, passed as they are to a pipe.
pub fn write_jq_lines(out: &mut dyn Write, lines: &[String], to_terminal: bool) {
    for line in lines {
        if to_terminal {
            let _ = writeln!(out, "{}", crate::ui::sanitize::sanitize_multiline(line));
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
}

fn print_jq(streams: &mut Streams, expression: &str, value: &Value) -> Outcome {
    match jq::filter_lines(expression, value) {
        Ok(lines) => {
            write_jq_lines(&mut streams.out, &lines, streams.out_is_terminal);
            Ok(())
        }
        Err(problem) => {
            streams.error(&format!("--jq: {problem}"));
            Err(Failure::Said)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_keeps_the_named_fields_in_their_order() {
        let one = record(json!({"number": 1, "subject": "A", "status": "open"}));
        assert_eq!(
            select(&one, &["status", "number", "missing"]),
            json!({"status": "open", "number": 1, "missing": null})
        );
    }

    #[test]
    fn hidden_characters_are_escaped_and_the_json_means_the_same() {
        let hostile = "a\u{9b}31m\u{202e}b\u{2066}c\u{2069}\u{200e}\u{200f}\u{7f}\u{feff}\n\u{1b}";
        let value = json!({"subject": hostile, "list": [hostile], "plain": "é 👍‍"});
        for indented in [true, false] {
            let text = json_text(&value, indented);
            assert!(
                !text
                    .chars()
                    .any(|c| c != '\n' && crate::ui::sanitize::is_neutralised(c)),
                "{text:?}"
            );
            assert!(
                text.contains("\\u009b") && text.contains("\\u202e"),
                "{text}"
            );
            let read: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(read, value);
        }
    }

    #[test]
    fn the_flags_pick_the_shape() {
        const ALL: &[&str] = &["a", "b"];
        let args = |json: Option<Vec<&str>>, jq: Option<&str>| JsonArgs {
            json: json.map(|fields| fields.into_iter().map(str::to_string).collect()),
            jq: jq.map(str::to_string),
        };
        assert!(matches!(shape(&args(None, None), ALL), Shape::Table));
        assert!(matches!(
            shape(&args(Some(vec![]), None), ALL),
            Shape::FieldNames
        ));
        assert!(matches!(shape(&args(Some(vec!["b"]), None), ALL), Shape::Json(f) if f == ["b"]));
        assert!(matches!(shape(&args(None, Some(".")), ALL), Shape::Jq(_, f) if f == ["a", "b"]));
    }
}
