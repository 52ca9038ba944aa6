//! Reading answers: a body gathered into one buffer, and JSON decoded with the path of the
//! field that failed.

use serde::de::DeserializeOwned;

use super::error::ApiError;

/// The most a `Content-Length` may make us set aside before the body arrives: a bigger body
/// still arrives in full, in a buffer that grows as it comes.
const MAX_BODY_PREALLOCATION: u64 = 16 * 1024 * 1024;

/// Reads a body chunk by chunk into one buffer sized from its `Content-Length`. reqwest's
/// `bytes()` gathers the chunks and then copies them into one piece: a 7 MB page list would be
/// held two or three times over while it arrives.
pub(super) async fn read_body(mut response: reqwest::Response) -> Result<Vec<u8>, reqwest::Error> {
    let expected = response
        .content_length()
        .unwrap_or(0)
        .min(MAX_BODY_PREALLOCATION);
    let mut body = Vec::with_capacity(usize::try_from(expected).unwrap_or(0));
    while let Some(chunk) = response.chunk().await? {
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Decodes a JSON body, naming the field path that failed (`items[2].visibility`, or `.` when
/// the body as a whole is not JSON of the right shape).
pub fn decode_body<T: DeserializeOwned>(endpoint: &str, bytes: &[u8]) -> Result<T, ApiError> {
    decode_body_with(endpoint, bytes, std::marker::PhantomData::<T>)
}

/// As [`decode_body`], through a seed that builds the value as it reads (a page tree made
/// straight from the answer, with no typed copy of every page in between).
pub fn decode_body_with<'de, S>(
    endpoint: &str,
    bytes: &'de [u8],
    seed: S,
) -> Result<S::Value, ApiError>
where
    S: serde::de::DeserializeSeed<'de>,
{
    let decode_error = |path: String, message: String| ApiError::Decode {
        endpoint: endpoint.to_owned(),
        path,
        message,
    };
    if looks_like_html(bytes) {
        return Err(ApiError::NotJson {
            endpoint: endpoint.to_owned(),
        });
    }
    let no_body = bytes.iter().all(u8::is_ascii_whitespace);
    // No body (a 204) is read as JSON `null`: success for a caller that expects nothing (`()`,
    // an answer it ignores) and a `Decode` error for one that needs data. It goes through the
    // same deserializer as a body: a second one (`serde_json::Value`'s) would compile every
    // model's decoder a second time (a twentieth of the library's machine code).
    let bytes: &'de [u8] = if no_body { b"null" } else { bytes };
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let mut track = serde_path_to_error::Track::new();
    let tracked = serde_path_to_error::Deserializer::new(&mut deserializer, &mut track);
    let value = seed.deserialize(tracked).map_err(|error| {
        if no_body {
            return decode_error(".".to_owned(), "the answer had no body".to_owned());
        }
        // JSON that ends in the middle says nothing about the API's shape: the field named
        // would be whichever the cut happened in.
        if error.is_eof() {
            return ApiError::CutOff {
                endpoint: endpoint.to_owned(),
            };
        }
        decode_error(track.path().to_string(), error.to_string())
    })?;
    deserializer
        .end()
        .map_err(|error| decode_error(".".to_owned(), error.to_string()))?;
    Ok(value)
}

/// A body starting with `<` (after blanks) is markup, never the API's JSON.
fn looks_like_html(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|byte| !byte.is_ascii_whitespace())
        .is_some_and(|first| *first == b'<')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Needed {
        #[allow(dead_code)]
        id: String,
    }

    #[test]
    fn no_body_is_nothing_for_a_caller_that_expects_nothing() {
        for body in [&b""[..], b" \n"] {
            assert_eq!(decode_body::<()>("POST /x", body), Ok(()));
            assert!(decode_body::<serde::de::IgnoredAny>("POST /x", body).is_ok());
            assert_eq!(
                decode_body::<serde_json::Value>("POST /x", body),
                Ok(serde_json::Value::Null)
            );
            let needed = decode_body::<Needed>("POST /x", body).unwrap_err();
            assert!(
                matches!(&needed, ApiError::Decode { message, .. } if message == "the answer had no body"),
                "{needed:?}"
            );
        }
    }
}
