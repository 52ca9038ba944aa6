//! Turning the configured base URL and a resource path into a request URL.

use url::Url;

/// The public service; used when nothing else is configured.
pub const DEFAULT_BASE_URL: &str = "https://api.gitbook.com";

/// Normalizes a configured base URL into the API root ending in `/v1` (no trailing slash).
/// Accepts `https://host`, `https://host/`, `https://host/v1` and `https://host/v1/`; a prefix
/// path such as `http://127.0.0.1:8080/proxy` is kept. Errors are plain text for
/// `ApiError::InvalidConfig` and never repeat a password found in the URL.
pub fn api_root(base_url: &str) -> Result<String, String> {
    let trimmed = base_url.trim();
    if trimmed.is_empty() {
        return Err("the API base URL is empty".to_owned());
    }
    let url =
        Url::parse(trimmed).map_err(|error| format!("the API base URL is invalid: {error}"))?;
    if url.scheme() != "http" && url.scheme() != "https" {
        return Err(format!(
            "the API base URL must start with http:// or https://, not {}://",
            url.scheme()
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("the API base URL must not contain a user name or password".to_owned());
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("the API base URL has no host".to_owned());
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("the API base URL must not have a query or fragment".to_owned());
    }
    let origin_and_path = url.as_str().trim_end_matches('/');
    if origin_and_path.ends_with("/v1") {
        Ok(origin_and_path.to_owned())
    } else {
        Ok(format!("{origin_and_path}/v1"))
    }
}

/// Percent-encodes one path segment (an id) so that `/`, `?`, `#`, `%`, spaces and non-ASCII
/// text cannot change the path. Only RFC 3986 unreserved characters pass through, and a segment
/// made only of dots is encoded so it cannot act as `.` or `..`.
pub fn encode_segment(segment: &str) -> String {
    let only_dots = !segment.is_empty() && segment.bytes().all(|byte| byte == b'.');
    let mut encoded = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        let unreserved = byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'~');
        if unreserved || (byte == b'.' && !only_dots) {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

/// Checks a path handed to the generic request helpers: it must start with `/`, carry no query
/// or fragment, and have no empty or dot segments (an empty id would silently hit another
/// endpoint, a dot segment would climb out of it).
pub fn check_path(path: &str) -> Result<(), String> {
    if !path.starts_with('/') {
        return Err(format!("the path `{path}` must start with /"));
    }
    if path.len() > 1 && path.ends_with('/') {
        return Err(format!("the path `{path}` ends with /"));
    }
    if path.contains(['?', '#']) || path.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("the path contains a query, fragment or whitespace".to_owned());
    }
    let bad_segment = path
        .split('/')
        .skip(1)
        .any(|segment| segment.is_empty() && path != "/" || segment == "." || segment == "..");
    if bad_segment {
        return Err(format!("the path `{path}` has an empty or dot segment"));
    }
    Ok(())
}

/// The full request URL for `path` under an API root produced by [`api_root`].
pub fn join(root: &str, path: &str) -> Result<Url, String> {
    check_path(path)?;
    Url::parse(&format!("{root}{path}")).map_err(|error| format!("cannot build the URL: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_gets_exactly_one_v1() {
        for base in [
            "https://api.gitbook.com",
            "https://api.gitbook.com/",
            "https://api.gitbook.com/v1",
            "https://api.gitbook.com/v1/",
            "  https://api.gitbook.com//  ",
        ] {
            assert_eq!(
                api_root(base).as_deref(),
                Ok("https://api.gitbook.com/v1"),
                "{base}"
            );
        }
    }

    #[test]
    fn base_url_keeps_port_and_prefix() {
        assert_eq!(
            api_root("http://127.0.0.1:8080").as_deref(),
            Ok("http://127.0.0.1:8080/v1")
        );
        assert_eq!(
            api_root("http://localhost:9/proxy/").as_deref(),
            Ok("http://localhost:9/proxy/v1")
        );
        assert_eq!(
            api_root("http://localhost:9/not-v1").as_deref(),
            Ok("http://localhost:9/not-v1/v1")
        );
    }

    #[test]
    fn bad_base_urls_are_refused_without_echoing_passwords() {
        assert!(api_root("").is_err());
        assert!(api_root("api.gitbook.com").is_err());
        assert!(api_root("ftp://example.com").is_err());
        assert!(api_root("https://example.com/?a=b").is_err());
        let error = api_root("https://user:hunter2@example.com").unwrap_err();
        assert!(!error.contains("hunter2"), "{error}");
    }

    #[test]
    fn segments_are_percent_encoded() {
        assert_eq!(encode_segment("abc-DEF_1.2~"), "abc-DEF_1.2~");
        assert_eq!(encode_segment("a/b?c#d"), "a%2Fb%3Fc%23d");
        assert_eq!(encode_segment("100% é"), "100%25%20%C3%A9");
        assert_eq!(encode_segment(".."), "%2E%2E");
        assert_eq!(encode_segment("."), "%2E");
        assert_eq!(encode_segment(""), "");
    }

    #[test]
    fn join_appends_the_path() {
        let url = join("https://api.gitbook.com/v1", "/spaces/s%2F1/content").unwrap();
        assert_eq!(
            url.as_str(),
            "https://api.gitbook.com/v1/spaces/s%2F1/content"
        );
        assert_eq!(url.path(), "/v1/spaces/s%2F1/content");
    }

    #[test]
    fn join_refuses_bad_paths() {
        for path in [
            "spaces",
            "/spaces//content",
            "/spaces/",
            "/spaces/../user",
            "/spaces/./x",
            "/orgs?page=2",
            "/orgs#x",
            "/or gs",
        ] {
            assert!(join("https://h/v1", path).is_err(), "{path}");
        }
        assert!(join("https://h/v1", "/user").is_ok());
    }
}
