//! `--jq EXPR`: a jq filter run over the JSON a subcommand would print, with jaq (jq in Rust).
//! Like gh, a string the filter yields is printed raw (unquoted); anything else as compact JSON.

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars, data};
use jaq_json::Val;

/// jq functions left out: they read the environment, which holds the token.
const TOKEN_REVEALING: &[&str] = &["env"];

/// The lines `expression` prints for `input`, or what is wrong with the expression or its run.
pub fn filter_lines(expression: &str, input: &serde_json::Value) -> Result<Vec<String>, String> {
    let text = input.to_string();
    let value = jaq_json::read::parse_single(text.as_bytes())
        .map_err(|error| format!("cannot read the JSON: {error:?}"))?;
    let defs = jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs());
    // No `env`: it would print the environment, GITBOOK_TOKEN included, into a CI log.
    let funs = jaq_core::funs()
        .chain(jaq_std::funs())
        .chain(jaq_json::funs())
        .filter(|(name, ..)| !TOKEN_REVEALING.contains(name));
    let loader = Loader::new(defs);
    let arena = Arena::default();
    let program = File {
        code: expression,
        path: (),
    };
    let modules = loader
        .load(&arena, program)
        .map_err(|errors| format!("the jq expression does not parse: {}", load_errors(&errors)))?;
    refuse_data_imports(&modules)?;
    let filter = Compiler::default()
        .with_funs(funs)
        .compile(modules)
        .map_err(|errors| {
            let names: Vec<String> = errors
                .iter()
                .flat_map(|(_, errors)| errors.iter().map(|(name, _)| format!("`{name}`")))
                .collect();
            format!(
                "the jq expression names what jq lacks: {}",
                names.join(", ")
            )
        })?;
    let ctx = Ctx::<data::JustLut<Val>>::new(&filter.lut, Vars::new([]));
    let mut lines = Vec::new();
    for output in filter.id.run((ctx, value)) {
        match output {
            Ok(value) => lines.push(line_of(&value)),
            Err(exception) => {
                return Err(match exception.get_err() {
                    Ok(error) => error.to_string(),
                    Err(_) => "the filter stopped (halt)".to_string(),
                });
            }
        }
    }
    Ok(lines)
}

/// `import "file" as $name;` asks for a JSON file's contents as `$name`. The loader leaves
/// reading those to its caller, and a program that names one but is run without its value
/// panics in jaq; --jq reads no files (an expression from a script must not read the disk), so
/// such an import is refused before the program runs.
fn refuse_data_imports<P: Clone>(modules: &jaq_core::load::Modules<&str, P>) -> Result<(), String> {
    let mut named = Vec::new();
    let _ = jaq_core::load::import(modules, |import| {
        named.push(format!("`{}`", import.path));
        Ok(())
    });
    if named.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the jq expression imports {}: --jq reads no files",
            named.join(", ")
        ))
    }
}

/// A string raw, anything else as JSON.
fn line_of(value: &Val) -> String {
    match value {
        Val::TStr(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        other => crate::cli::output::escape_hidden_characters(&other.to_string()).into_owned(),
    }
}

fn load_errors<P>(errors: &jaq_core::load::Errors<&str, P>) -> String {
    let found: Vec<String> = errors
        .iter()
        .map(|(_, error)| match error {
            jaq_core::load::Error::Io(_) => "a module that cannot be read".to_string(),
            jaq_core::load::Error::Lex(errors) => errors
                .iter()
                .map(|(expected, rest)| format!("expected {} {}", expected.as_str(), at(rest)))
                .collect::<Vec<_>>()
                .join("; "),
            jaq_core::load::Error::Parse(errors) => errors
                .iter()
                .map(|(expected, found)| format!("expected {} {}", expected.as_str(), at(found)))
                .collect::<Vec<_>>()
                .join("; "),
        })
        .collect();
    found.join("; ")
}

/// Where the expression went wrong: "at `| .x`" (its first characters from there), or "at the
/// end" when it stopped short.
fn at(text: &str) -> String {
    let head: String = text.chars().take(20).collect();
    if head.trim().is_empty() {
        "at the end".to_string()
    } else {
        format!("at `{head}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_come_out_raw_and_other_values_as_json() {
        let input = json!([{"number": 1, "subject": "One"}, {"number": 2, "subject": "Two"}]);
        assert_eq!(filter_lines(".[].subject", &input).unwrap(), ["One", "Two"]);
        assert_eq!(filter_lines("map(.number)", &input).unwrap(), ["[1,2]"]);
        assert_eq!(
            filter_lines("[.[] | select(.number > 1)] | length", &input).unwrap(),
            ["1"]
        );
    }

    #[test]
    fn a_wrong_expression_is_told_not_panicked() {
        let input = json!([]);
        assert!(filter_lines(".[", &input).is_err());
        let cut_short = filter_lines(".[] |", &input).expect_err("nothing after the pipe");
        assert!(cut_short.ends_with("at the end"), "{cut_short}");
        assert!(filter_lines("no_such_function", &input).is_err());
        assert!(filter_lines("error(\"x\")", &input).is_err());
    }

    #[test]
    fn an_import_of_a_file_is_refused_not_run() {
        let input = json!([]);
        let data = filter_lines(r#"import "x" as $p; $p"#, &input).expect_err("no data import");
        assert!(
            data.contains("`x`") && data.contains("reads no files"),
            "{data}"
        );
        let module = filter_lines(r#"import "m" as m; m::f"#, &input).expect_err("no module");
        assert!(module.contains("module"), "{module}");
        assert!(filter_lines(r#"include "m"; ."#, &input).is_err());
    }

    #[test]
    fn the_environment_and_its_token_stay_out_of_reach() {
        let input = json!([]);
        let error = filter_lines("env", &input).expect_err("env is left out");
        assert!(error.contains("`env`"), "{error}");
        assert!(filter_lines("$ENV", &input).is_err());
    }
}
