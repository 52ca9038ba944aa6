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

#[cfg(test)]
mod tests {
    use super::*;

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
