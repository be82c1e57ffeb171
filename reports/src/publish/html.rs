//! HTML pieces shared by the site's pages: escaping, the page frame (relative links to
//! `assets/`, so the site works from file:// and any static host), embedded JSON, file names
//! and a small Markdown subset for the rules' statements.

/// Escapes text for HTML element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON for a `<script type="application/json">` block (`</` cannot end the block).
pub fn json_block(id: &str, value: &serde_json::Value) -> String {
    let text = value.to_string().replace("</", "<\\/");
    format!("<script type=\"application/json\" id=\"{id}\">{text}</script>\n")
}

/// A file-name-safe form of a label (`vulkan:lavapipe` -> `vulkan-lavapipe`).
pub fn slug(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// A whole page. `root` is the relative path to the site root (`""` or `"../"`).
pub fn page(title: &str, root: &str, body: &str, scripts: &[&str]) -> String {
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n<link rel=\"icon\" href=\"data:,\">\n\
         <link rel=\"stylesheet\" href=\"{root}assets/site.css\">\n</head>\n<body>\n\
         <nav><a href=\"{root}index.html\">matrix</a> <a href=\"{root}table.html\">table</a> \
         <a href=\"{root}history.html\">history</a> \
         <a href=\"{root}rules.html\">rules</a></nav>\n<main>\n<h1>{t}</h1>\n",
        t = esc(title)
    );
    s.push_str(body);
    s.push_str("</main>\n");
    for js in scripts {
        s.push_str(&format!("<script src=\"{root}assets/{js}\"></script>\n"));
    }
    s.push_str("</body>\n</html>\n");
    s
}

/// `text` with `` `code` `` spans, escaped.
pub fn inline_md(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{}</code>", esc(part)));
        } else {
            out.push_str(&esc(part));
        }
    }
    out
}

/// Paragraphs (blank-line separated) and `- ` lists of a Markdown statement.
pub fn markdown(text: &str) -> String {
    let mut out = String::new();
    for block in text.split("\n\n") {
        let block = block.trim();
        if block.is_empty() {
            continue;
        }
        if block.lines().all(|l| l.trim_start().starts_with("- ")) {
            out.push_str("<ul>");
            for l in block.lines() {
                out.push_str(&format!(
                    "<li>{}</li>",
                    inline_md(l.trim_start().trim_start_matches("- "))
                ));
            }
            out.push_str("</ul>\n");
        } else {
            let joined: Vec<&str> = block.lines().map(str::trim).collect();
            out.push_str(&format!("<p>{}</p>\n", inline_md(&joined.join(" "))));
        }
    }
    out
}

/// Whether `name` matches a rule's instruction pattern: the recompiler's own matcher
/// (`rules::Rule::governs` calls the same glob), so a page lists exactly the rules the
/// recompiler applies.
pub use rdnaprobe_isa::known::glob;

pub const CSS: &str = r#"body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
nav{background:#234;padding:8px 16px}nav a{color:#fff;margin-right:16px;text-decoration:none}
main{padding:8px 20px 40px}h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;background:#fff;font-size:13px}
th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#eef}td.num{text-align:right;font-variant-numeric:tabular-nums}
td.cell{text-align:right;white-space:nowrap}code,.repro{font-family:ui-monospace,monospace;font-size:12px}
.repro{white-space:pre-wrap;word-break:break-all;max-width:900px;background:#f3f3f3;padding:2px 4px}
.filters{margin:8px 0 12px}.filters label{margin-right:14px}
tr.regressed td{background:#fdd}span.badge{background:#c33;color:#fff;border-radius:3px;padding:0 4px;font-size:11px}
.muted{color:#777}img{vertical-align:middle}
"#;

pub const INDEX_JS: &str = r#"(function () {
  var data = JSON.parse(document.getElementById('matrix-data').textContent);
  var family = document.getElementById('family');
  var backend = document.getElementById('backend');
  var mode = document.getElementById('mode');
  var search = document.getElementById('search');
  var body = document.querySelector('#matrix tbody');
  var head = document.querySelector('#matrix thead tr');
  function option(sel, value, text) {
    var o = document.createElement('option'); o.value = value; o.textContent = text; sel.appendChild(o);
  }
  data.families.forEach(function (f) { option(family, f, f); });
  data.backends.forEach(function (b) { option(backend, b, b); });
  data.modes.forEach(function (m, i) { option(mode, String(i), m); });
  // As svg::share_colour: a log scale of the missing share.
  function colour(share) {
    var miss = Math.max(0, Math.min(1, 1 - share)), r, g;
    var s = miss === 0 ? 1 : Math.max(0, Math.min(0.9, -Math.log10(miss) / 4));
    if (s < 0.5) { r = 220; g = 60 + 300 * s; } else { r = 220 - 360 * (s - 0.5); g = 210; }
    return 'rgb(' + Math.round(r) + ',' + Math.round(g) + ',80)';
  }
  function render() {
    var f = family.value, b = backend.value, m = mode.value, q = search.value.trim().toLowerCase();
    var backends = data.backends.filter(function (x) { return b === '' || x === b; });
    while (head.children.length > 2) head.removeChild(head.lastChild);
    backends.forEach(function (x) {
      var th = document.createElement('th'); th.textContent = x; head.appendChild(th);
    });
    var th = document.createElement('th'); th.textContent = 'history'; head.appendChild(th);
    body.textContent = '';
    var shown = 0;
    data.instructions.forEach(function (ins) {
      if (f !== '' && ins.family !== f) return;
      if (q !== '' && ins.name.toLowerCase().indexOf(q) < 0) return;
      var cells = backends.map(function (x) {
        var c = ins.cells[x];
        if (!c) return null;
        return m === '' ? c.all : (c.modes[m] || null);
      });
      if (cells.every(function (c) { return c === null; })) return;
      var tr = document.createElement('tr');
      tr.dataset.instruction = ins.name;
      var td = document.createElement('td');
      var a = document.createElement('a'); a.href = 'i/' + ins.file + '.html'; a.textContent = ins.name;
      td.appendChild(a); tr.appendChild(td);
      td = document.createElement('td'); td.textContent = ins.family; tr.appendChild(td);
      cells.forEach(function (c, k) {
        td = document.createElement('td'); td.className = 'cell';
        if (c) {
          var share = c[1] / c[0];
          td.textContent = (100 * share).toFixed(1) + '% \u00b7 ' + (c[2] === null ? '-' : c[2]) + ' ulp';
          td.style.background = colour(share);
          td.title = c[0] + ' rows, ' + c[1] + ' exact on ' + backends[k];
          td.dataset.backend = backends[k];
          td.dataset.share = share.toFixed(4);
        } else { td.textContent = '\u2013'; }
        tr.appendChild(td);
      });
      td = document.createElement('td');
      var img = document.createElement('img'); img.src = 'img/spark-' + ins.file + '.svg'; img.alt = 'history';
      td.appendChild(img); tr.appendChild(td);
      body.appendChild(tr); shown++;
    });
    document.getElementById('shown').textContent = shown + ' of ' + data.instructions.length + ' instructions';
  }
  [family, backend, mode].forEach(function (e) { e.addEventListener('change', render); });
  search.addEventListener('input', render);
  render();
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_patterns_match_as_the_registry_means() {
        assert!(glob("v_*_f32", "v_add_f32"));
        assert!(glob("v_cmp_*_f32", "v_cmp_lt_f32"));
        assert!(!glob("v_cmp_*_f32", "v_cmp_lt_f16"));
        assert!(glob("v_add_f32", "v_add_f32"));
        assert!(!glob("v_add_f32", "v_add_f32_e64"));
        assert!(glob("*", "anything"));
        assert!(
            !glob("v_*_f32", "v_f32"),
            "prefix and suffix may not overlap"
        );
        // `?` is one character for the recompiler's registry, as for the known-discrepancy
        // files: a re-implementation that only knew `*` would list no rule here.
        assert!(glob("v_?og_f32", "v_log_f32"));
        assert!(!glob("v_?og_f32", "v_og_f32"));
        assert!(glob("v_*_f?6", "v_sqrt_f16"));
    }

    #[test]
    fn text_is_escaped_and_json_cannot_close_its_script() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let block = json_block("d", &serde_json::json!({"s": "</script><b>"}));
        assert!(!block[..block.len() - 10].contains("</script>"), "{block}");
        assert_eq!(slug("vulkan:lavapipe"), "vulkan-lavapipe");
        assert_eq!(
            markdown("Keeps `v10`.\n\n- one\n- two"),
            "<p>Keeps <code>v10</code>.</p>\n<ul><li>one</li><li>two</li></ul>\n"
        );
    }
}
