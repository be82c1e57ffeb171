//! Progress of long commands on stderr: rows done, rows per second and (when the total is
//! known) the time left, drawn only when stderr is a terminal so that logs and pipes stay
//! clean. The rows per second of a short local run are what `rdnaprobe plan --estimate`
//! scales up from.

use std::io::IsTerminal;
use std::time::Duration;

/// A row counter with an optional bar; does nothing when stderr is not a terminal.
pub struct Rows {
    bar: Option<indicatif::ProgressBar>,
}

impl Rows {
    /// `total`: the rows the command will do, when known (a bar with ETA); otherwise a spinner
    /// with the count and the rate.
    pub fn new(what: &str, total: Option<u64>) -> Rows {
        if !std::io::stderr().is_terminal() {
            return Rows { bar: None };
        }
        let (bar, template) = match total {
            Some(n) => (
                indicatif::ProgressBar::new(n),
                "{prefix} {bar:30} {human_pos}/{human_len} rows {per_sec} {elapsed} (eta {eta})",
            ),
            None => (
                indicatif::ProgressBar::new_spinner(),
                "{prefix} {spinner} {human_pos} rows {per_sec} {elapsed}",
            ),
        };
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr_with_hz(4));
        if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_prefix(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(250));
        Rows { bar: Some(bar) }
    }

    /// A bar of `total` rows without a label or a steady tick, redrawn as rows are added:
    /// the bar of `replay` and `sweep`, whose rows come in batches.
    pub fn plain(total: u64) -> Rows {
        if !std::io::stderr().is_terminal() {
            return Rows { bar: None };
        }
        let bar = indicatif::ProgressBar::new(total);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {human_pos}/{human_len} rows {per_sec} {elapsed} (eta {eta})",
        ) {
            bar.set_style(style);
        }
        Rows { bar: Some(bar) }
    }

    pub fn add(&self, rows: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(rows);
        }
    }

    pub fn set(&self, rows: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(rows);
        }
    }

    /// Removes the bar (the command prints its own summary).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Rows {
    fn drop(&mut self) {
        self.finish();
    }
}
