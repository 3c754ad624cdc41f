//! Diagnostics of pydev-opt: rendering with the source line and a caret, and
//! the `--verify-diagnostics` checker (mlir-opt's `expected-*` syntax:
//! `// expected-error {{text}}`, `@+N`, `@-N`, `@above`, `@below`).

use crate::capi::file_line_col;
use melior::diagnostic::{Diagnostic, DiagnosticSeverity};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

/// A diagnostic copied out of MLIR.
#[derive(Clone, Debug)]
pub struct Diag {
    pub severity: Severity,
    pub location: Option<(String, u32, u32)>,
    pub message: String,
    pub notes: Vec<Diag>,
}

impl Diag {
    pub fn from_melior(d: &Diagnostic) -> Self {
        let severity = match d.severity() {
            DiagnosticSeverity::Error => Severity::Error,
            DiagnosticSeverity::Warning => Severity::Warning,
            DiagnosticSeverity::Note => Severity::Note,
            DiagnosticSeverity::Remark => Severity::Remark,
        };
        let notes = (0..d.note_count()).filter_map(|i| d.note(i).ok()).map(|n| Diag::from_melior(&n)).collect();
        Self { severity, location: file_line_col(d.location()), message: d.to_string(), notes }
    }

    pub fn error_without_location(message: &str) -> Self {
        Self { severity: Severity::Error, location: None, message: message.to_owned(), notes: vec![] }
    }

    /// `file:line:col: error: message`, the source line and a caret, then notes.
    pub fn render(&self, source: &str) -> String {
        let mut out = String::new();
        match &self.location {
            Some((file, line, col)) => {
                out.push_str(&format!("{file}:{line}:{col}: {}: {}\n", self.severity.as_str(), self.message));
                if let Some(text) = source.lines().nth((*line as usize).saturating_sub(1)) {
                    out.push_str(&format!("{text}\n{}^\n", " ".repeat((*col as usize).saturating_sub(1))));
                }
            }
            None => out.push_str(&format!("{}: {}\n", self.severity.as_str(), self.message)),
        }
        for note in &self.notes {
            out.push_str(&note.render(source));
        }
        out
    }
}

struct Expected {
    severity: Severity,
    line: u32,
    text: String,
    seen: bool,
}

/// The `expected-*` comments of a chunk.
pub struct Expectations(Vec<Expected>);

impl Expectations {
    pub fn parse(source: &str) -> Self {
        let mut out = Vec::new();
        let lines: Vec<&str> = source.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            let mut rest = *line;
            while let Some(at) = rest.find("expected-") {
                rest = &rest[at + "expected-".len()..];
                let Some((severity, after)) = [
                    ("error", Severity::Error),
                    ("warning", Severity::Warning),
                    ("note", Severity::Note),
                    ("remark", Severity::Remark),
                ]
                .iter()
                .find_map(|(w, s)| rest.strip_prefix(w).map(|a| (*s, a))) else {
                    continue;
                };
                let mut target = n as i64 + 1;
                let mut after = after.trim_start();
                if let Some(spec) = after.strip_prefix('@') {
                    let end = spec.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(spec.len());
                    let (offset, tail) = spec.split_at(end);
                    target = match offset {
                        "above" => Self::non_comment(&lines, n, -1),
                        "below" => Self::non_comment(&lines, n, 1),
                        o => target + o.parse::<i64>().unwrap_or(0),
                    };
                    after = tail;
                }
                let after = after.trim_start();
                let Some(body) = after.strip_prefix("{{") else { continue };
                let Some(end) = body.find("}}") else { continue };
                out.push(Expected { severity, line: target as u32, text: body[..end].to_owned(), seen: false });
                rest = &body[end..];
            }
        }
        Self(out)
    }

    /// The nearest line above or below `n` that is not only a comment.
    fn non_comment(lines: &[&str], n: usize, step: i64) -> i64 {
        let mut i = n as i64 + step;
        while i >= 0 && (i as usize) < lines.len() && lines[i as usize].trim_start().starts_with("//") {
            i += step;
        }
        i + 1
    }

    /// Matches diagnostics (and their notes) against the expectations; returns
    /// one message per mismatch.
    pub fn check(mut self, emitted: &[Diag], file: &str) -> Vec<String> {
        let mut errors = Vec::new();
        let mut all = Vec::new();
        // MLIR attaches the failing op to verifier errors; mlir-opt turns
        // that off under --verify-diagnostics, the C API cannot, so it is
        // ignored here.
        let op_note = |d: &&Diag| !(d.severity == Severity::Note && d.message.starts_with("see current operation"));
        for d in emitted {
            all.push(d);
            all.extend(d.notes.iter().filter(op_note));
        }
        for d in all {
            let line = d.location.as_ref().map(|l| l.1).unwrap_or(0);
            let found = self
                .0
                .iter_mut()
                .find(|e| !e.seen && e.severity == d.severity && e.line == line && d.message.contains(&e.text));
            match found {
                Some(e) => e.seen = true,
                None => errors.push(format!("{file}:{line}: unexpected {}: {}", d.severity.as_str(), d.message)),
            }
        }
        for e in self.0.iter().filter(|e| !e.seen) {
            errors.push(format!("{file}:{}: expected {} \"{}\" was not produced", e.line, e.severity.as_str(), e.text));
        }
        errors
    }
}
