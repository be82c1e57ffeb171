//! ULP histograms as SVG (plotters, SVG backend only), inlined into the HTML report and also
//! written next to it as `plots/*.svg`.

use plotters::prelude::*;

use super::aggregate::{bucket_label, Histogram as UlpHistogram};
use crate::error::{Error, Result};

/// Draws the non-exact rows of one instruction x backend by ULP bucket.
pub fn histogram_svg(h: &UlpHistogram) -> Result<String> {
    let mut svg = String::new();
    draw(h, &mut svg).map_err(|message| Error::Plot {
        path: format!("{} {}", h.instruction, h.backend).into(),
        message,
    })?;
    Ok(svg)
}

fn draw(h: &UlpHistogram, svg: &mut String) -> std::result::Result<(), String> {
    let labels: Vec<String> = h.buckets.iter().map(|(b, _)| bucket_label(*b)).collect();
    let n = h.buckets.len() as u32;
    let top = h.buckets.iter().map(|(_, r)| *r).max().unwrap_or(1).max(1);
    let root = SVGBackend::with_string(svg, (480, 260)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{} on {}: non-exact rows by ULP", h.instruction, h.backend),
            ("sans-serif", 15),
        )
        .margin(8)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d((0u32..n).into_segmented(), 0u64..top + top / 10 + 1)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("ULP distance")
        .y_desc("rows")
        .x_labels(labels.len().max(1))
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
                labels.get(*i as usize).cloned().unwrap_or_default()
            }
            SegmentValue::Last => String::new(),
        })
        .draw()
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(
            Histogram::vertical(&chart)
                .style(RGBColor(200, 80, 60).filled())
                .margin(6)
                .data(
                    h.buckets
                        .iter()
                        .enumerate()
                        .map(|(i, (_, rows))| (i as u32, *rows)),
                ),
        )
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}
