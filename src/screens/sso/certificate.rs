//! What a pasted or loaded certificate is: its subject and expiry when it parses as an X.509
//! certificate in PEM (or bare base64), else why not. The text may have lost its line breaks
//! (a one-line input drops them), so the base64 body is read without regard to lines and
//! written back as standard PEM.

use base64::Engine;

const BEGIN: &str = "-----BEGIN CERTIFICATE-----";
const END: &str = "-----END CERTIFICATE-----";

/// The longest certificate the API takes.
pub const MAX_LENGTH: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateFacts {
    /// `CN=idp.example.com, O=Example` as the certificate names its subject.
    pub subject: String,
    /// The subject's common name (`idp.example.com`), when it has one.
    pub common_name: Option<String>,
    /// When it stops being valid, as seconds since the epoch.
    pub not_after: i64,
    /// The certificate as standard PEM (64-character lines), what is sent.
    pub pem: String,
}

impl CertificateFacts {
    /// `2036-11-20`.
    pub fn expiry_date(&self) -> String {
        chrono::DateTime::from_timestamp(self.not_after, 0)
            .map(|time| time.format("%Y-%m-%d").to_string())
            .unwrap_or_else(|| "an unreadable date".to_string())
    }

    pub fn is_expired(&self, now: chrono::DateTime<chrono::Utc>) -> bool {
        self.not_after < now.timestamp()
    }

    /// One line for a form: `PEM certificate, 1,234 bytes, expires 2036-11-20,
    /// CN=idp.example.com` (the whole subject when it has no common name). The subject, the
    /// long part, comes last: a narrow form cuts it, not the expiry.
    pub fn summary(&self) -> String {
        let subject = match &self.common_name {
            Some(name) => format!("CN={name}"),
            None => self.subject.clone(),
        };
        format!(
            "PEM certificate, {} bytes, expires {}, {}",
            grouped(self.pem.len()),
            self.expiry_date(),
            one_line(&subject)
        )
    }
}

/// One line for a form of text that is not a certificate: its size and its start, line breaks
/// and other control characters made spaces.
pub fn text_summary(text: &str) -> String {
    format!("{} bytes: {}", grouped(text.trim().len()), one_line(text))
}

/// `text` on one line: every run of whitespace or control characters is one space.
pub fn one_line(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `1234` as `1,234`.
fn grouped(number: usize) -> String {
    let digits = number.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Reads a certificate; `Err` says in words why it is not one.
pub fn inspect(text: &str) -> Result<CertificateFacts, String> {
    let trimmed = text.trim();
    let body = match trimmed.strip_prefix(BEGIN) {
        Some(rest) => rest
            .trim_end()
            .strip_suffix(END)
            .ok_or_else(|| format!("no {END} line"))?,
        None if trimmed.starts_with("-----BEGIN") => {
            return Err("a PEM block, but not a CERTIFICATE".to_string());
        }
        None => trimmed,
    };
    let base64: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    if base64.is_empty() {
        return Err("empty".to_string());
    }
    let der = base64::engine::general_purpose::STANDARD
        .decode(&base64)
        .map_err(|_| "not PEM: the body is not base64".to_string())?;
    let (_, certificate) = x509_parser::parse_x509_certificate(&der)
        .map_err(|_| "base64, but not an X.509 certificate".to_string())?;
    let common_name = certificate
        .subject()
        .iter_common_name()
        .find_map(|name| name.as_str().ok())
        .map(str::to_string);
    Ok(CertificateFacts {
        subject: certificate.subject().to_string(),
        common_name,
        not_after: certificate.validity().not_after.timestamp(),
        pem: to_pem(&base64),
    })
}

fn to_pem(base64: &str) -> String {
    let mut pem = String::with_capacity(base64.len() + base64.len() / 64 + 60);
    pem.push_str(BEGIN);
    pem.push('\n');
    for chunk in base64.as_bytes().chunks(64) {
        pem.push_str(&String::from_utf8_lossy(chunk));
        pem.push('\n');
    }
    pem.push_str(END);
    pem.push('\n');
    pem
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::DEMO_CERTIFICATE;

    #[test]
    fn reads_subject_and_expiry_of_a_pem_certificate() {
        let facts = inspect(DEMO_CERTIFICATE).unwrap();
        assert!(
            facts.subject.contains("CN=idp.acme-robotics.example"),
            "{}",
            facts.subject
        );
        assert_eq!(facts.expiry_date(), "2036-11-20");
        assert_eq!(facts.pem, DEMO_CERTIFICATE);
    }

    #[test]
    fn line_breaks_lost_in_a_one_line_paste_do_not_matter() {
        let flat: String = DEMO_CERTIFICATE.lines().collect();
        assert_eq!(inspect(&flat).unwrap().pem, DEMO_CERTIFICATE);
        let bare: String = DEMO_CERTIFICATE
            .lines()
            .filter(|line| !line.starts_with("-----"))
            .collect();
        assert_eq!(inspect(&bare).unwrap().pem, DEMO_CERTIFICATE);
    }

    #[test]
    fn a_summary_is_one_line_with_size_expiry_and_common_name() {
        let facts = inspect(DEMO_CERTIFICATE).unwrap();
        let size = grouped(DEMO_CERTIFICATE.len());
        assert_eq!(
            facts.summary(),
            format!(
                "PEM certificate, {size} bytes, expires 2036-11-20, CN=idp.acme-robotics.example"
            )
        );
        assert_eq!(grouped(7), "7");
        assert_eq!(grouped(1234), "1,234");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(text_summary("ab\ncd\r\n\u{7}ef"), "10 bytes: ab cd ef");
    }

    #[test]
    fn says_why_text_is_not_a_certificate() {
        assert_eq!(inspect("  ").unwrap_err(), "empty");
        assert!(inspect("hello world").unwrap_err().contains("not base64"));
        assert!(
            inspect("aGVsbG8gd29ybGQ=")
                .unwrap_err()
                .contains("not an X.509")
        );
        assert!(
            inspect("-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----")
                .unwrap_err()
                .contains("not a CERTIFICATE")
        );
        assert!(
            inspect(&format!("{BEGIN}\nMIIC"))
                .unwrap_err()
                .contains("no -----END")
        );
    }
}
