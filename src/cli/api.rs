//! `quire api PATH`: any endpoint from a shell, signed in as quire is, JSON printed — like
//! `gh api`. GET by default (POST once fields or `--input` are given); `-f key=value` fields go
//! into the query of a GET and into a JSON body otherwise (`-F` reads `true`, `false`, `null`
//! and numbers as JSON); `--paginate` follows `next.page` and prints every page's items as one
//! list. Exit status: 0 success, 1 the server refused or failed, 2 a wrong command line, 4 the
//! token was refused.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

use reqwest::Method;
use serde_json::{Map, Value};

use crate::api::{ApiError, Client, PageCursor};

#[derive(Debug, clap::Args)]
pub struct ApiArgs {
    /// The path after `/v1`, e.g. `/orgs` or `orgs/ORG/spaces?limit=5`.
    pub path: String,
    /// The HTTP method (default GET, or POST when fields or --input are given).
    #[arg(short = 'X', long = "method", value_name = "METHOD")]
    pub method: Option<String>,
    /// A field `key=value` taken as a string: the query of a GET, the JSON body otherwise
    /// (repeatable).
    #[arg(short = 'f', long = "raw-field", value_name = "KEY=VALUE")]
    pub raw_fields: Vec<String>,
    /// A field `key=value` whose value `true`, `false`, `null` or a number is sent as JSON
    /// (repeatable).
    #[arg(short = 'F', long = "field", value_name = "KEY=VALUE")]
    pub fields: Vec<String>,
    /// The request body, JSON, from a file (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Follow `next.page` and print every page's `items` as one list: `{"items": [...]}`.
    #[arg(long)]
    pub paginate: bool,
    /// Filter the answer with a jq expression (jaq; strings printed raw), as gh api does.
    #[arg(long, value_name = "EXPR")]
    pub jq: Option<String>,
}

/// Exit statuses, as every quire subcommand uses them.
pub const EXIT_FAILED: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_SIGNED_OUT: i32 = 4;
/// A write's answer was lost and reading it back could not tell whether the server stored it:
/// a script must look before it runs the command again, or it may post twice.
pub const EXIT_UNKNOWN: i32 = 3;
/// `cr watch` saw the change request merged or archived while waiting for something else
/// (approval, say), which it then can never reach.
pub const EXIT_NOT_REACHED: i32 = 5;

/// Pages followed by `--paginate` before it stops and says so (a server that never ends).
const MAX_PAGES: usize = 1_000;

/// A request as the command line asked for it.
struct Request {
    method: Method,
    path: String,
    query: Vec<(String, String)>,
    body: Option<Vec<u8>>,
}

/// Runs the command; returns the exit status.
pub async fn run(client: &Client, args: &ApiArgs, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let request = match request_of(args) {
        Ok(request) => request,
        Err(problem) => {
            let _ = writeln!(err, "quire api: {problem}");
            return EXIT_USAGE;
        }
    };
    let creates = crate::cli::lost_answers::creates(&request.method);
    let answer = if args.paginate {
        every_page(client, &request, err).await
    } else if creates {
        crate::cli::lost_answers::send_once(
            client,
            request.method.clone(),
            (&request.path, &request.query),
            request.body.clone(),
        )
        .await
        .and_then(|(bytes, read_back)| {
            if read_back {
                let _ = writeln!(
                    err,
                    "quire api: the answer was lost; reading back found the write stored, so \
                     it was not sent again."
                );
            }
            json_answer(&request.method, &request.path, &bytes)
        })
    } else {
        client
            .raw(
                request.method.clone(),
                &request.path,
                &request.query,
                request.body.clone(),
            )
            .await
            .and_then(|bytes| json_answer(&request.method, &request.path, &bytes))
    };
    match answer {
        Ok(Some(value)) => match &args.jq {
            Some(expression) => print_filtered(out, err, expression, &value),
            None => {
                print_json(out, &value);
                0
            }
        },
        Ok(None) => 0,
        Err(error)
            if creates
                && (error.outcome_unknown() || matches!(error, ApiError::MaybeSaved { .. })) =>
        {
            let said = crate::cli::script::unknown_outcome_message(&error);
            let _ = writeln!(err, "{}", crate::ui::sanitize::sanitize(&said));
            EXIT_UNKNOWN
        }
        Err(error) => {
            let _ = writeln!(
                err,
                "{}",
                crate::ui::sanitize::sanitize(&error.command_line_message_at(client.api_root()))
            );
            if error.is_unauthorized() {
                EXIT_SIGNED_OUT
            } else {
                EXIT_FAILED
            }
        }
    }
}

/// The lines `--jq` makes of the answer, or what is wrong with the expression (exit 1: the
/// request itself was sent and answered).
fn print_filtered(
    out: &mut dyn Write,
    err: &mut dyn Write,
    expression: &str,
    value: &Value,
) -> i32 {
    match crate::cli::output::jq::filter_lines(expression, value) {
        Ok(lines) => {
            let to_terminal = std::io::stdout().is_terminal();
            crate::cli::output::write_jq_lines(out, &lines, to_terminal);
            0
        }
        Err(problem) => {
            let _ = writeln!(err, "quire api: --jq: {problem}");
            EXIT_FAILED
        }
    }
}

/// The answer's JSON, or nothing for an empty body (a 204). A body that is not JSON (a sign-in
/// page or a proxy's error page, answered with a success status) is said as every subcommand
/// says it, and fails the command: printing nothing would pass for success.
fn json_answer(method: &Method, path: &str, bytes: &[u8]) -> Result<Option<Value>, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    crate::api::decode::decode_body::<Value>(&format!("{method} {path}"), bytes).map(Some)
}

fn request_of(args: &ApiArgs) -> Result<Request, String> {
    let (path, query_text) = match args.path.split_once('?') {
        Some((path, query)) => (path, query),
        None => (args.path.as_str(), ""),
    };
    let path = format!(
        "/{}",
        path.trim_start_matches('/').trim_start_matches("v1/")
    );
    // A path the client would refuse is a wrong command line, most often a title where the
    // API wants an id ("/spaces/Getting Started").
    crate::api::address::check_path(&path)
        .map_err(|problem| format!("{problem}; a path names things by their ids"))?;
    let mut query: Vec<(String, String)> = url::form_urlencoded::parse(query_text.as_bytes())
        .into_owned()
        .collect();
    let mut fields = Map::new();
    for text in &args.raw_fields {
        let (key, value) = field(text)?;
        fields.insert(key, Value::String(value));
    }
    for text in &args.fields {
        let (key, value) = field(text)?;
        fields.insert(key, typed(&value));
    }
    let input = match &args.input {
        Some(file) => Some(read_input(file)?),
        None => None,
    };
    let method = match &args.method {
        Some(name) => Method::from_bytes(name.to_uppercase().as_bytes())
            .map_err(|_| format!("{name} is not an HTTP method"))?,
        None if input.is_some() || !fields.is_empty() => Method::POST,
        None => Method::GET,
    };
    if args.paginate && method != Method::GET {
        return Err("--paginate follows the pages of a GET only".into());
    }
    let body = if method == Method::GET {
        query.extend(fields.into_iter().map(|(key, value)| match value {
            Value::String(text) => (key, text),
            other => (key, other.to_string()),
        }));
        None
    } else if let Some(input) = input {
        Some(input)
    } else if fields.is_empty() {
        None
    } else {
        Some(Value::Object(fields).to_string().into_bytes())
    };
    if body.is_some() && takes_no_body(&method, &path) {
        return Err(format!(
            "{method} {path} takes no request body: the fields and --input would not be sent; \
             leave them out"
        ));
    }
    Ok(Request {
        method,
        path,
        query,
        body,
    })
}

/// True when the operations table knows the operation and it takes no body: the client would
/// drop one, and the user would believe their fields were sent.
fn takes_no_body(method: &Method, path: &str) -> bool {
    crate::api::operations::find(method, path)
        .is_some_and(|operation| operation.body == crate::api::operations::BodyRule::None)
}

fn field(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_owned(), value.to_owned())),
        _ => Err(format!("a field is key=value, not `{text}`")),
    }
}

/// `true`, `false`, `null` and numbers as JSON; anything else a string.
fn typed(value: &str) -> Value {
    match value {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "null" => Value::Null,
        _ => serde_json::from_str::<serde_json::Number>(value)
            .map(Value::Number)
            .unwrap_or_else(|_| Value::String(value.to_owned())),
    }
}

fn read_input(file: &PathBuf) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let read = if file.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(file).map(|read| bytes = read)
    };
    read.map_err(|error| format!("cannot read {}: {error}", file.display()))?;
    serde_json::from_slice::<Value>(&bytes)
        .map_err(|error| format!("{} is not JSON: {error}", file.display()))?;
    Ok(bytes)
}

/// Every page's `items`, following `next.page`; stops (and says so on stderr) at a page seen
/// before or after [`MAX_PAGES`], keeping what was read.
async fn every_page(
    client: &Client,
    request: &Request,
    err: &mut dyn Write,
) -> Result<Option<Value>, ApiError> {
    let mut items = Vec::new();
    let mut cursor = PageCursor::with_max_pages(MAX_PAGES);
    let mut page: Option<String> = None;
    loop {
        if let Err(reason) = cursor.begin(page.as_deref()) {
            let _ = writeln!(err, "quire api: stopped following pages: {reason}");
            break;
        }
        let mut query = request.query.clone();
        query.retain(|(key, _)| key != "page");
        if let Some(page) = &page {
            query.push(("page".into(), page.clone()));
        }
        let bytes = client.raw(Method::GET, &request.path, &query, None).await?;
        let answer = json_answer(&Method::GET, &request.path, &bytes)?.unwrap_or(Value::Null);
        match answer.get("items").and_then(Value::as_array) {
            Some(page_items) => items.extend(page_items.iter().cloned()),
            // Not a list: nothing to follow; print it as it is.
            None if items.is_empty() => return Ok(Some(answer)),
            None => break,
        }
        page = answer
            .pointer("/next/page")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if page.is_none() {
            break;
        }
    }
    Ok(Some(serde_json::json!({ "items": items })))
}

/// Indented for a person on a terminal, one line for a pipe.
fn print_json(out: &mut dyn Write, value: &Value) {
    let indented = std::io::stdout().is_terminal();
    let _ = writeln!(out, "{}", crate::cli::output::json_text(value, indented));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(path: &str) -> ApiArgs {
        ApiArgs {
            path: path.into(),
            method: None,
            raw_fields: Vec::new(),
            fields: Vec::new(),
            input: None,
            paginate: false,
            jq: None,
        }
    }

    #[test]
    fn fields_go_to_the_query_of_a_get_and_the_body_of_a_post() {
        let mut get = args("/orgs?limit=2");
        get.method = Some("get".into());
        get.raw_fields = vec!["status=open".into()];
        let request = request_of(&get).unwrap();
        assert_eq!(request.method, Method::GET);
        assert_eq!(request.path, "/orgs");
        assert!(request.query.contains(&("limit".into(), "2".into())));
        assert!(request.query.contains(&("status".into(), "open".into())));
        let mut post = args("v1/spaces/s/comments");
        post.fields = vec!["resolved=true".into(), "count=3".into(), "text=hi".into()];
        let request = request_of(&post).unwrap();
        assert_eq!(request.method, Method::POST);
        assert_eq!(request.path, "/spaces/s/comments");
        let body: Value = serde_json::from_slice(&request.body.unwrap()).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"resolved": true, "count": 3, "text": "hi"})
        );
    }

    #[test]
    fn a_wrong_field_or_method_is_a_usage_error() {
        let mut bad = args("/orgs");
        bad.raw_fields = vec!["novalue".into()];
        assert!(request_of(&bad).is_err());
        let mut method = args("/orgs");
        method.method = Some("GE T".into());
        assert!(request_of(&method).is_err());
    }
}
