//! Diagnostics at Python source locations, rendered like ruff's: the file,
//! line and column, the source line, a caret under the construct, and what to
//! do instead.

use ruff_text_size::{TextRange, TextSize};
use std::fmt;

/// 1-based line and column of a byte offset.
#[derive(Clone)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: &str, text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self { name: name.to_owned(), text: text.to_owned(), line_starts }
    }

    pub fn line_col(&self, offset: TextSize) -> (usize, usize) {
        let offset = usize::from(offset).min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let col = self.text[self.line_starts[line]..offset].chars().count() + 1;
        (line + 1, col)
    }

    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self.line_starts.get(line).copied().unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// `loc("file":line:col)` for MLIR.
    pub fn mlir_loc(&self, range: TextRange) -> String {
        let (line, col) = self.line_col(range.start());
        format!("loc({:?}:{line}:{col})", self.name)
    }
}

/// One error in the user's program.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub col: usize,
    /// Width of the caret underline, in characters (at least 1).
    pub width: usize,
    pub message: String,
    /// What to do instead, when there is something to say.
    pub help: Option<String>,
    pub source_line: String,
}

impl Diagnostic {
    pub fn new(file: &SourceFile, range: TextRange, message: impl Into<String>) -> Self {
        let (line, col) = file.line_col(range.start());
        let (end_line, end_col) = file.line_col(range.end());
        let source_line = file.line_text(line).to_owned();
        let width = if end_line == line {
            end_col.saturating_sub(col).max(1)
        } else {
            source_line.chars().count().saturating_sub(col - 1).max(1)
        };
        Self { file: file.name.clone(), line, col, width, message: message.into(), help: None, source_line }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}:{}:{}: error: {}", self.file, self.line, self.col, self.message)?;
        let gutter = self.line.to_string().len();
        writeln!(f, "{:gutter$} |", "")?;
        writeln!(f, "{} | {}", self.line, self.source_line)?;
        write!(f, "{:gutter$} | {}{}", "", " ".repeat(self.col - 1), "^".repeat(self.width))?;
        if let Some(help) = &self.help {
            write!(f, "\n{:gutter$} = help: {help}", "")?;
        }
        Ok(())
    }
}

/// All the errors of one compilation, in source order.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
