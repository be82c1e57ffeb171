//! The site's small pictures as SVG text: history sparklines, the history chart of one
//! instruction (exact share per backend over runs) and the instruction x mode heat map. ULP
//! histograms come from the report's plotters code ([`crate::report::plot`]).

use std::fmt::Write;

use super::html::esc;

/// Series colours of the charts, in backend order.
pub const COLOURS: [&str; 6] = ["#36c", "#c63", "#393", "#939", "#399", "#993"];

/// Colour of an exact share on a log scale of the missing share, so that 99% and 99.9% differ:
/// exact is green, 0.01% missing yellow-green, 1% amber, 10% orange, everything missing red.
pub fn share_colour(share: f64) -> String {
    let miss = (1.0 - share).clamp(0.0, 1.0);
    let t = if miss == 0.0 {
        1.0
    } else {
        (-miss.log10() / 4.0).clamp(0.0, 0.9)
    };
    let (r, g) = if t < 0.5 {
        (220.0, 60.0 + 300.0 * t)
    } else {
        (220.0 - 360.0 * (t - 0.5), 210.0)
    };
    format!("rgb({},{},{})", r.round() as u8, g.round() as u8, 80)
}

/// The lower end of a share axis: the smallest value, floored to 5%, so that small moves near
/// 100% show.
fn axis_floor<'a>(values: impl Iterator<Item = &'a f64>) -> f64 {
    let lowest = values.fold(1.0f64, |a, b| a.min(*b));
    ((lowest - 0.005) * 20.0).floor().clamp(0.0, 19.0) / 20.0
}

/// A 120x24 sparkline of exact shares over runs, one line per series (backend, over its own
/// runs), each one's last point marked.
pub fn sparkline(series: &[Vec<Option<f64>>]) -> String {
    let (w, h) = (120.0, 24.0);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let n = series.iter().map(Vec::len).max().unwrap_or(0);
    let lo = axis_floor(series.iter().flat_map(|v| v.iter().flatten()));
    let x = |i: usize| {
        if n <= 1 {
            w / 2.0
        } else {
            2.0 + (w - 4.0) * i as f64 / (n - 1) as f64
        }
    };
    let y = |v: f64| 2.0 + (h - 4.0) * (1.0 - (v.clamp(lo, 1.0) - lo) / (1.0 - lo));
    for (k, values) in series.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let points: Vec<(usize, f64)> = values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| (i, v)))
            .collect();
        let text: Vec<String> = points
            .iter()
            .map(|(i, v)| format!("{:.1},{:.1}", x(*i), y(*v)))
            .collect();
        let _ = write!(
            s,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{}"/>"#,
            text.join(" ")
        );
        if let Some((i, v)) = points.last() {
            let _ = write!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="2.5" fill="{colour}"/>"#,
                x(*i),
                y(*v)
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// A line chart of exact share (0..100%) per series over run positions, with run labels.
pub fn history_chart(
    title: &str,
    labels: &[String],
    series: &[(String, Vec<Option<f64>>)],
) -> String {
    let (w, h, left, bottom, top, right) = (700.0, 320.0, 110.0, 96.0, 28.0, 150.0);
    let lo = axis_floor(series.iter().flat_map(|(_, v)| v.iter().flatten()));
    let pw = w - left - right;
    let ph = h - top - bottom;
    let n = labels.len().max(1);
    let x = |i: usize| {
        if n <= 1 {
            left + pw / 2.0
        } else {
            left + pw * i as f64 / (n - 1) as f64
        }
    };
    let y = |v: f64| top + ph * (1.0 - (v.clamp(lo, 1.0) - lo) / (1.0 - lo));
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"#
    );
    let _ = write!(
        s,
        r#"<rect width="{w}" height="{h}" fill="white"/><text x="{left}" y="16" font-size="13">{}</text>"#,
        esc(title)
    );
    for k in 0..=4 {
        let v = lo + (1.0 - lo) * f64::from(k) / 4.0;
        let yy = y(v);
        let pct = format!("{:.1}", 100.0 * v);
        let _ = write!(
            s,
            r##"<line x1="{left}" x2="{}" y1="{yy:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{pct}%</text>"##,
            left + pw,
            left - 4.0,
            yy + 4.0
        );
    }
    for (i, l) in labels.iter().enumerate() {
        let _ = write!(
            s,
            r#"<text transform="translate({:.1},{:.1}) rotate(-35)" text-anchor="end">{}</text>"#,
            x(i),
            top + ph + 14.0,
            esc(l)
        );
    }
    for (k, (name, values)) in series.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let pts: Vec<String> = values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| format!("{:.1},{:.1}", x(i), y(v))))
            .collect();
        let _ = write!(
            s,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"#,
            pts.join(" ")
        );
        for (i, v) in values.iter().enumerate() {
            if let Some(v) = v {
                let _ = write!(
                    s,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}"><title>{}: {:.2}%</title></circle>"#,
                    x(i),
                    y(*v),
                    esc(name),
                    100.0 * v
                );
            }
        }
        let ly = top + 14.0 * k as f64 + 8.0;
        let _ = write!(
            s,
            r#"<rect x="{}" y="{:.1}" width="10" height="10" fill="{colour}"/><text x="{}" y="{:.1}">{}</text>"#,
            left + pw + 12.0,
            ly - 8.0,
            left + pw + 26.0,
            ly + 1.0,
            esc(name)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Heat map of exact share: one row per instruction, one column per mode (numbered; the
/// legend under the map spells the modes). `cells[r][c]`: `None` when not measured.
pub fn heat_map(
    title: &str,
    rows: &[String],
    modes: &[String],
    cells: &[Vec<Option<f64>>],
) -> String {
    let (cw, ch, left, top) = (14.0, 12.0, 170.0, 40.0);
    let legend = 14.0 * modes.len() as f64 + 10.0;
    let w = (left + cw * modes.len() as f64 + 20.0).max(420.0);
    let h = top + ch * rows.len() as f64 + 20.0 + legend;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="10">"#
    );
    let _ = write!(
        s,
        r#"<rect width="{w}" height="{h}" fill="white"/><text x="4" y="14" font-size="13">{}</text>"#,
        esc(title)
    );
    for c in 0..modes.len() {
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            left + cw * c as f64 + cw / 2.0,
            top - 4.0,
            c + 1
        );
    }
    for (r, name) in rows.iter().enumerate() {
        let yy = top + ch * r as f64;
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            left - 4.0,
            yy + ch - 2.0,
            esc(name)
        );
        for (c, v) in cells[r].iter().enumerate() {
            let fill = match v {
                Some(v) => share_colour(*v),
                None => "#f4f4f4".into(),
            };
            let tip = match v {
                Some(v) => format!("{name} mode {}: {:.2}% exact", c + 1, 100.0 * v),
                None => format!("{name} mode {}: not measured", c + 1),
            };
            let _ = write!(
                s,
                r#"<rect x="{:.1}" y="{yy:.1}" width="{}" height="{}" fill="{fill}" stroke="white"><title>{}</title></rect>"#,
                left + cw * c as f64,
                cw - 1.0,
                ch - 1.0,
                esc(&tip)
            );
        }
    }
    let ly = top + ch * rows.len() as f64 + 24.0;
    for (c, m) in modes.iter().enumerate() {
        let _ = write!(
            s,
            r#"<text x="4" y="{:.1}">{}: {}</text>"#,
            ly + 14.0 * c as f64,
            c + 1,
            esc(m)
        );
    }
    s.push_str("</svg>\n");
    s
}
