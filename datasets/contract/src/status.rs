//! What happened to one row on a backend: the `status` cell of replay outputs.

/// The status of a row: ran, could not run (`unsupported: <reason>`), or failed
/// (`error: <message>`). A row that cannot run is reported, never dropped.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ok,
    /// The body uses something the backend or the recompiler does not implement.
    Unsupported(String),
    /// The row was attempted and failed (fault, timeout, driver error).
    Error(String),
}

impl Status {
    pub fn is_ok(&self) -> bool {
        matches!(self, Status::Ok)
    }

    /// Parses a `status` cell: `ok` (or empty), `unsupported: <reason>`, `error: <message>`.
    /// `None` for anything else.
    pub fn parse(cell: &str) -> Option<Status> {
        let cell = cell.trim();
        if cell.is_empty() || cell == "ok" {
            return Some(Status::Ok);
        }
        let rest = |prefix: &str| {
            cell.strip_prefix(prefix)
                .map(|r| r.trim_start_matches(':').trim().to_string())
        };
        if let Some(reason) = rest("unsupported") {
            return Some(Status::Unsupported(reason));
        }
        rest("error").map(Status::Error)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Status::Ok => f.write_str("ok"),
            Status::Unsupported(r) => write!(f, "unsupported: {r}"),
            Status::Error(m) => write!(f, "error: {m}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_parse_and_print() {
        assert_eq!(Status::parse("ok"), Some(Status::Ok));
        assert_eq!(Status::parse(""), Some(Status::Ok));
        assert_eq!(
            Status::parse("unsupported: v_interp needs a pixel shader"),
            Some(Status::Unsupported("v_interp needs a pixel shader".into()))
        );
        assert_eq!(
            Status::parse("error: timeout"),
            Some(Status::Error("timeout".into()))
        );
        assert_eq!(Status::parse("fine"), None);
        for s in [
            Status::Ok,
            Status::Unsupported("no rule".into()),
            Status::Error("worker crashed: signal 11".into()),
        ] {
            assert_eq!(Status::parse(&s.to_string()), Some(s));
        }
    }
}
