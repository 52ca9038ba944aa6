//! Shapes shared by several resources: the string-enum macro, `urls`, users and roles.

use serde::{Deserialize, Serialize};

/// Declares a string enum that keeps values it does not know as `Other(String)`. The service's
/// enums grow (and the seed hides many values), so an unknown value must never fail a decode.
/// Generates `as_str()`, `Display`, `From<&str>`, `Serialize` and `Deserialize`.
macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        $visibility:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident => $text:literal),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        $visibility enum $name {
            $($(#[$variant_meta])* $variant,)+
            /// A value this version of quire does not know, kept verbatim.
            Other(String),
        }

        impl $name {
            /// The wire value.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $text,)+
                    $name::Other(text) => text.as_str(),
                }
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                match text {
                    $($text => $name::$variant,)+
                    other => $name::Other(other.to_owned()),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
                Ok($name::from(text.as_ref()))
            }
        }
    };
}

pub(crate) use string_enum;

string_enum! {
    /// A member's role (`MemberRole`); a `null` role (guest) is `None` where it appears.
    pub enum MemberRole {
        Admin => "admin",
        Create => "create",
        Edit => "edit",
        Review => "review",
        Comment => "comment",
        Read => "read",
    }
}

string_enum! {
    /// Default access level of a collection or space: a role, or `inherit` from the parent.
    /// A `null` level (guest) is `None` where it appears.
    pub enum DefaultLevel {
        Admin => "admin",
        Create => "create",
        Edit => "edit",
        Review => "review",
        Comment => "comment",
        Read => "read",
        Inherit => "inherit",
    }
}

/// The `urls` object. Each resource fills a different subset of these keys, so all are optional
/// and unknown keys are ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Urls {
    /// The API address of the resource.
    #[serde(default)]
    pub location: Option<String>,
    /// The web app address, for "open in browser".
    #[serde(default)]
    pub app: Option<String>,
    #[serde(default)]
    pub published: Option<String>,
    #[serde(default)]
    pub public: Option<String>,
    #[serde(default)]
    pub icon: Option<String>,
    #[serde(default)]
    pub logo: Option<String>,
    #[serde(default)]
    pub preview: Option<String>,
}

/// A user (`object`='user'), the caller of `GET /user` or the person inside a member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub display_name: String,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default, rename = "photoURL")]
    pub photo_url: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// A nullable field that may also be absent: both mean "no value" to the UI.
pub(crate) fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// The largest count believed: anything above is a broken value, not a real number of things.
pub const MAX_COUNT: u64 = u32::MAX as u64;

/// A count the service types as `number` (comments, replies, reactions, `number`,
/// `siteSpaces`, `trial.count`, a list's `count`…). Every count field decodes through this one
/// helper, leniently, so one odd value cannot fail a whole item or list: a float is rounded, a
/// negative value becomes 0, an absurd one [`MAX_COUNT`], a numeric string is read as its
/// number; `null` or absent is no count. Only a value that is not a number at all fails.
pub(crate) fn lenient_count<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: CountField,
{
    Ok(T::from_count(deserializer.deserialize_any(CountVisitor)?))
}

/// The shapes a count field takes: `Option<u64>` (absent = `None`) or `u64` (absent = 0).
pub(crate) trait CountField {
    fn from_count(count: Option<u64>) -> Self;
}

impl CountField for u64 {
    fn from_count(count: Option<u64>) -> u64 {
        count.unwrap_or(0)
    }
}

impl CountField for Option<u64> {
    fn from_count(count: Option<u64>) -> Option<u64> {
        count
    }
}

/// Rounds and clamps a JSON number into a count; `NaN` is no count.
fn clamp_count(number: f64) -> Option<u64> {
    if number.is_nan() {
        return None;
    }
    // `as` saturates, and the value is already inside 0..=MAX_COUNT.
    Some(number.round().clamp(0.0, MAX_COUNT as f64) as u64)
}

struct CountVisitor;

impl<'de> serde::de::Visitor<'de> for CountVisitor {
    type Value = Option<u64>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a count (a number)")
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Option<u64>, E> {
        Ok(Some(value.min(MAX_COUNT)))
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Option<u64>, E> {
        Ok(Some(u64::try_from(value).unwrap_or(0).min(MAX_COUNT)))
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Option<u64>, E> {
        Ok(clamp_count(value))
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Option<u64>, E> {
        match text.trim().parse::<f64>() {
            Ok(number) => Ok(clamp_count(number)),
            Err(_) => Err(E::invalid_value(serde::de::Unexpected::Str(text), &self)),
        }
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Option<u64>, E> {
        Ok(None)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Option<u64>, E> {
        Ok(None)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, inner: D) -> Result<Option<u64>, D::Error> {
        inner.deserialize_any(CountVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Counts {
        #[serde(default, deserialize_with = "lenient_count")]
        optional: Option<u64>,
        #[serde(default, deserialize_with = "lenient_count")]
        plain: u64,
    }

    fn counts(json: &str) -> (Option<u64>, u64) {
        let counts: Counts = serde_json::from_str(json).unwrap();
        (counts.optional, counts.plain)
    }

    #[test]
    fn counts_are_rounded_and_clamped_not_refused() {
        assert_eq!(counts(r#"{"optional":3,"plain":4}"#), (Some(3), 4));
        assert_eq!(counts(r#"{"optional":2.6,"plain":1.2}"#), (Some(3), 1));
        assert_eq!(counts(r#"{"optional":-4,"plain":-0.5}"#), (Some(0), 0));
        assert_eq!(
            counts(r#"{"optional":1e300,"plain":18446744073709551615}"#),
            (Some(MAX_COUNT), MAX_COUNT)
        );
        assert_eq!(counts(r#"{"optional":"7","plain":null}"#), (Some(7), 0));
        assert_eq!(counts("{}"), (None, 0));
        assert!(serde_json::from_str::<Counts>(r#"{"optional":"many"}"#).is_err());
        assert!(serde_json::from_str::<Counts>(r#"{"plain":[1]}"#).is_err());
    }

    #[test]
    fn string_enum_round_trips_known_and_unknown_values() {
        let role: MemberRole = serde_json::from_str(r#""review""#).unwrap();
        assert_eq!(role, MemberRole::Review);
        assert_eq!(role.as_str(), "review");
        assert_eq!(role.to_string(), "review");
        let unknown: MemberRole = serde_json::from_str(r#""owner""#).unwrap();
        assert_eq!(unknown, MemberRole::Other("owner".into()));
        assert_eq!(serde_json::to_string(&unknown).unwrap(), r#""owner""#);
    }

    #[test]
    fn string_enum_decodes_from_escaped_strings() {
        let level: DefaultLevel = serde_json::from_str(r#""inh\u0065rit""#).unwrap();
        assert_eq!(level, DefaultLevel::Inherit);
    }

    #[test]
    fn user_tolerates_missing_optional_fields() {
        let user: User = serde_json::from_str(r#"{"object":"user","id":"u1"}"#).unwrap();
        assert_eq!(user.id, "u1");
        assert_eq!(user.display_name, "");
        assert_eq!(user.urls, Urls::default());
        let user: User = serde_json::from_str(
            r#"{"id":"u2","displayName":"Ada","email":"ada@example.com",
                "photoURL":"https://p/x.png","urls":{"location":"https://api/u2"},"new":1}"#,
        )
        .unwrap();
        assert_eq!(user.photo_url.as_deref(), Some("https://p/x.png"));
        assert_eq!(user.urls.location.as_deref(), Some("https://api/u2"));
    }
}
