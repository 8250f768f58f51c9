//! The whole path as one self-contained HTML page: the step list beside
//! the grid, next/previous keys, each step's picture and words. It needs
//! no network and no other file, so it works when opened from disk.
//!
//! Every step is in the page from the start, each in an `<article>` that
//! is `hidden` but for the current one: moving to a step flips two
//! `hidden` attributes instead of rebuilding markup, so the script stays a
//! few lines and the page works the same from `file://` as from a server.
//! The URL hash (`#step-5`) names the current step, so a link can point at
//! one; no element has that id, which keeps the browser from scrolling to
//! it on its own.

/// One step of the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageStep {
    /// The step's line in the path (`Hidden single: r5c3=4 (box4)`).
    pub line: String,
    /// The step's explanation: the rule's words, one paragraph per line.
    pub words: String,
    /// The step's picture (an SVG document, inlined).
    pub svg: String,
}

/// The page: a title (the puzzle and its source) and the steps in order.
///
/// The title, the lines and the words are text and are escaped; each
/// step's SVG is trusted markup from [`super::svg`] and goes in as it is,
/// less a leading XML declaration or doctype, which mean nothing inside
/// HTML. All the SVGs share one document, so an `id` inside one of them
/// (a marker, a gradient) must not repeat in another.
pub fn page(title: &str, steps: &[PageStep]) -> String {
    let pictures: usize = steps.iter().map(|s| s.svg.len()).sum();
    let mut out = String::with_capacity(pictures + STYLE.len() + SCRIPT.len() + 4096);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<title>");
    push_escaped(&mut out, title);
    out.push_str("</title>\n<style>");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n<header><h1>");
    push_escaped(&mut out, title);
    out.push_str("</h1></header>\n");
    if steps.is_empty() {
        // No script at all: there is nothing to step through, and a script
        // that found no steps could only fail.
        out.push_str("<main class=\"empty\"><p>This path has no steps.</p></main>\n");
    } else {
        push_steps(&mut out, steps);
        out.push_str("<script>");
        out.push_str(SCRIPT);
        out.push_str("</script>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The list, the controls and one article per step. Step 1 is the one
/// shown before the script runs, so the page reads sensibly without it.
fn push_steps(out: &mut String, steps: &[PageStep]) {
    let total = steps.len().to_string();
    out.push_str("<main>\n<nav aria-label=\"Steps\">\n<ol id=\"steps\">\n");
    for (i, step) in steps.iter().enumerate() {
        let k = (i + 1).to_string();
        out.push_str("<li><a href=\"#step-");
        out.push_str(&k);
        out.push_str("\" data-step=\"");
        out.push_str(&k);
        out.push('"');
        if i == 0 {
            out.push_str(" aria-current=\"step\"");
        }
        out.push_str("><span class=\"n\">");
        out.push_str(&k);
        out.push_str("</span> ");
        push_escaped(out, &step.line);
        out.push_str("</a></li>\n");
    }
    out.push_str("</ol>\n</nav>\n<section id=\"view\">\n<div class=\"controls\">");
    out.push_str("<button type=\"button\" id=\"prev\" disabled>&larr; Previous</button>");
    out.push_str("<span id=\"counter\" aria-live=\"polite\">Step 1 of ");
    out.push_str(&total);
    out.push_str("</span><button type=\"button\" id=\"next\"");
    if steps.len() == 1 {
        out.push_str(" disabled");
    }
    out.push_str(">Next &rarr;</button>");
    out.push_str("<span class=\"keys\">Keys: &larr; &rarr; n p space Home End</span></div>\n");
    for (i, step) in steps.iter().enumerate() {
        out.push_str("<article class=\"step\" data-step=\"");
        out.push_str(&(i + 1).to_string());
        out.push('"');
        if i > 0 {
            out.push_str(" hidden");
        }
        out.push_str(">\n<figure>");
        out.push_str(inline_svg(&step.svg));
        out.push_str("</figure>\n<div class=\"text\">\n<h2>");
        push_escaped(out, &step.line);
        out.push_str("</h2>\n");
        for paragraph in step.words.lines().filter(|l| !l.trim().is_empty()) {
            out.push_str("<p>");
            push_escaped(out, paragraph.trim());
            out.push_str("</p>\n");
        }
        out.push_str("</div>\n</article>\n");
    }
    out.push_str("</section>\n</main>\n");
}

/// The SVG without what may precede its root element in a file: an XML
/// declaration is a bogus comment to the HTML parser, and a doctype in the
/// body is a parse error, so neither belongs in the page.
fn inline_svg(svg: &str) -> &str {
    let mut rest = svg.trim_start_matches('\u{feff}').trim_start();
    if rest.starts_with("<?xml")
        && let Some(end) = rest.find("?>")
    {
        rest = rest[end + 2..].trim_start();
    }
    if rest.len() >= 9 && rest[..9].eq_ignore_ascii_case("<!DOCTYPE") {
        // An internal subset (`[...]`) may hold `>` of its own.
        let close = match (rest.find('['), rest.find('>')) {
            (Some(open), Some(gt)) if open < gt => rest.find("]>").map(|i| i + 2),
            (_, gt) => gt.map(|i| i + 1),
        };
        if let Some(end) = close {
            rest = rest[end..].trim_start();
        }
    }
    rest.trim_end()
}

/// Appends `text` escaped for both element content and quoted attribute
/// values, so one function serves every place text goes.
fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
}

/// The page's style: a system font, light colours, the list in a column of
/// its own that scrolls apart from the picture, one column on a narrow
/// screen.
const STYLE: &str = r##"
:root { color-scheme: light; --ink: #1f2937; --muted: #6b7280; --line: #e5e7eb;
  --accent: #2563eb; --current: #dbeafe; --paper: #ffffff; --page: #f8fafc; }
* { box-sizing: border-box; }
body { margin: 0; padding: 1rem 1.5rem; background: var(--page); color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 1.25rem; font-weight: 600; margin: 0 0 1rem; }
main { display: grid; grid-template-columns: minmax(14rem, 22rem) minmax(0, 1fr); gap: 1.5rem;
  align-items: start; }
main.empty { display: block; color: var(--muted); }
nav { position: sticky; top: 1rem; max-height: calc(100vh - 2rem); overflow-y: auto;
  background: var(--paper); border: 1px solid var(--line); border-radius: 8px; }
ol { list-style: none; margin: 0; padding: 0.25rem 0; }
ol a { display: flex; gap: 0.25rem; padding: 0.3rem 0.75rem; color: inherit; text-decoration: none;
  border-left: 3px solid transparent; font-size: 0.9rem; }
ol a:hover { background: #f1f5f9; }
ol a[aria-current] { background: var(--current); border-left-color: var(--accent); font-weight: 600; }
ol .n { flex: none; min-width: 2.2em; color: var(--muted); font-variant-numeric: tabular-nums; }
.controls { display: flex; align-items: center; gap: 0.75rem; flex-wrap: wrap; margin-bottom: 1rem; }
button { font: inherit; padding: 0.35rem 0.9rem; border: 1px solid #cbd5e1; border-radius: 6px;
  background: var(--paper); color: var(--ink); cursor: pointer; }
button:hover:not(:disabled) { background: #f1f5f9; }
button:disabled { color: #9ca3af; cursor: default; }
#counter { font-variant-numeric: tabular-nums; min-width: 7rem; text-align: center; }
.keys { color: var(--muted); font-size: 0.8rem; margin-left: auto; }
.step { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
.step[hidden] { display: none; }
figure { margin: 0; flex: 0 1 auto; max-width: 100%; background: var(--paper);
  border: 1px solid var(--line); border-radius: 8px; padding: 0.5rem; }
figure svg { display: block; max-width: 100%; height: auto; }
.text { flex: 1 1 16rem; min-width: 0; }
.text h2 { font-size: 1.05rem; font-weight: 600; margin: 0 0 0.5rem; }
.text p { margin: 0 0 0.6rem; }
@media (max-width: 720px) {
  main { grid-template-columns: minmax(0, 1fr); }
  nav { position: static; max-height: 12rem; }
}
"##;

/// The page's behaviour: the hash names the step; keys, buttons and the
/// list move it. Steps are found in the markup, so nothing from Rust is
/// spliced into the script.
const SCRIPT: &str = r##"
"use strict";
(function () {
  var steps = document.querySelectorAll("article.step");
  var links = document.querySelectorAll("#steps a");
  var counter = document.getElementById("counter");
  var prev = document.getElementById("prev");
  var next = document.getElementById("next");
  var total = steps.length;
  var current = 1;

  function fromHash() {
    var m = /^#step-(\d+)$/.exec(location.hash);
    return m ? clamp(parseInt(m[1], 10)) : 1;
  }
  function clamp(k) {
    return Math.min(Math.max(k, 1), total);
  }
  function show(k) {
    steps[current - 1].hidden = true;
    links[current - 1].removeAttribute("aria-current");
    current = k;
    steps[k - 1].hidden = false;
    links[k - 1].setAttribute("aria-current", "step");
    links[k - 1].scrollIntoView({ block: "nearest" });
    counter.textContent = "Step " + k + " of " + total;
    prev.disabled = k === 1;
    next.disabled = k === total;
  }
  // Moving by key or button replaces the hash rather than adding history:
  // Back should leave the page, not replay every step.
  function go(k) {
    k = clamp(k);
    if (k === current) return;
    show(k);
    try {
      history.replaceState(null, "", "#step-" + k);
    } catch (e) {
      location.replace("#step-" + k);
    }
  }

  window.addEventListener("hashchange", function () { show(fromHash()); });
  prev.addEventListener("click", function () { go(current - 1); });
  next.addEventListener("click", function () { go(current + 1); });
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    // Space and Enter on a focused button or link already activate it.
    var onControl = /^(BUTTON|A)$/.test(e.target.tagName);
    var k;
    switch (e.key) {
      case "ArrowRight": case "ArrowDown": case "n": k = current + 1; break;
      case " ": if (onControl) return; k = current + 1; break;
      case "ArrowLeft": case "ArrowUp": case "p": k = current - 1; break;
      case "Home": k = 1; break;
      case "End": k = total; break;
      default: return;
    }
    e.preventDefault();
    go(k);
  });
  show(fromHash());
})();
"##;

#[cfg(test)]
mod tests {
    use super::*;

    const NS: &str = "http://www.w3.org/2000/svg";
    const XLINK: &str = "http://www.w3.org/1999/xlink";

    fn svg(label: &str) -> String {
        format!(
            "<svg xmlns=\"{NS}\" xmlns:xlink=\"{XLINK}\" width=\"100\" height=\"100\">\
             <rect width=\"100\" height=\"100\" fill=\"#fff\"/><text x=\"10\" y=\"50\">{label}</text></svg>"
        )
    }

    fn steps() -> Vec<PageStep> {
        vec![
            PageStep {
                line: "Hidden single: r5c3=4 (box4)".into(),
                words: "The only 4 in box 4.\nSo r5c3 is 4.".into(),
                svg: svg("picture-one"),
            },
            PageStep {
                line: "Chain: r1c1<>2 & r2c2=\"3\"".into(),
                words: "If <b>r1c1</b> is 2 & 'so on'.".into(),
                svg: format!(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}",
                    svg("picture-two")
                ),
            },
            PageStep {
                line: "Naked pair".into(),
                words: String::new(),
                svg: svg("picture-three"),
            },
        ]
    }

    #[test]
    fn lines_and_words_are_escaped() {
        let html = page("t", &steps());
        assert!(html.contains("Hidden single: r5c3=4 (box4)"));
        assert!(html.contains("Chain: r1c1&lt;&gt;2 &amp; r2c2=&quot;3&quot;"));
        assert!(!html.contains("r1c1<>2"));
        assert!(html.contains("<p>If &lt;b&gt;r1c1&lt;/b&gt; is 2 &amp; &#39;so on&#39;.</p>"));
        assert!(!html.contains("<b>r1c1"));
        // One paragraph per line of words, none for empty words.
        assert!(html.contains("<p>The only 4 in box 4.</p>\n<p>So r5c3 is 4.</p>"));
        assert_eq!(html.matches("<p>").count(), 3);
    }

    #[test]
    fn lines_are_numbered_in_the_list_and_each_step_has_a_heading() {
        let html = page("t", &steps());
        assert!(html.contains(
            "<a href=\"#step-3\" data-step=\"3\"><span class=\"n\">3</span> Naked pair</a>"
        ));
        assert!(html.contains("<h2>Naked pair</h2>"));
        // Each line twice: in the list and over its words.
        assert_eq!(html.matches("Hidden single: r5c3=4 (box4)").count(), 2);
    }

    #[test]
    fn every_svg_once_and_only_the_first_shown() {
        let html = page("t", &steps());
        for label in ["picture-one", "picture-two", "picture-three"] {
            assert_eq!(html.matches(&svg(label)).count(), 1, "{label}");
        }
        assert_eq!(html.matches("<article class=\"step\"").count(), 3);
        assert!(html.contains("<article class=\"step\" data-step=\"1\">"));
        assert!(html.contains("<article class=\"step\" data-step=\"2\" hidden>"));
        assert!(html.contains("<article class=\"step\" data-step=\"3\" hidden>"));
        assert!(html.contains(">Step 1 of 3</span>"));
    }

    #[test]
    fn xml_declaration_and_doctype_are_stripped() {
        let html = page("t", &steps());
        assert!(!html.contains("<?xml"));
        assert!(html.contains(&format!("<figure>{}</figure>", svg("picture-two"))));
        let doctype = format!(
            "\u{feff}<?xml version=\"1.0\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \
             \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n{}\n",
            svg("x")
        );
        assert_eq!(inline_svg(&doctype), svg("x"));
        let subset = format!("<!doctype svg [ <!ENTITY e \"<b>\"> ]>{}", svg("y"));
        assert_eq!(inline_svg(&subset), svg("y"));
    }

    #[test]
    fn no_network_reference_but_the_svg_namespaces() {
        let html = page("t", &steps());
        for scheme in ["http://", "https://"] {
            for (at, _) in html.match_indices(scheme) {
                let rest = &html[at..];
                assert!(
                    rest.starts_with(NS) || rest.starts_with(XLINK),
                    "a reference to the network: {}",
                    &rest[..rest.len().min(60)]
                );
            }
        }
        assert!(html.contains(NS));
        assert!(!html.contains("<link"));
        assert!(!html.contains("@import"));
        assert!(!html.contains("url("));
    }

    #[test]
    fn scripts_are_inline_only() {
        let html = page("t", &steps());
        assert_eq!(html.matches("<script").count(), 1);
        assert_eq!(html.matches("<script>").count(), 1);
        assert!(!html.contains("src="));
        let script = html
            .split("<script>")
            .nth(1)
            .and_then(|s| s.split("</script>").next())
            .expect("the script");
        assert!(script.contains("addEventListener(\"keydown\""));
    }

    #[test]
    fn title_is_escaped() {
        let html = page("Puzzle <1> & \"two\"", &steps());
        let escaped = "Puzzle &lt;1&gt; &amp; &quot;two&quot;";
        assert!(html.contains(&format!("<title>{escaped}</title>")));
        assert!(html.contains(&format!("<h1>{escaped}</h1>")));
        assert!(!html.contains("<1>"));
    }

    #[test]
    fn zero_steps_say_so_without_a_script() {
        let html = page("Empty", &[]);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("This path has no steps."));
        assert!(!html.contains("<script"));
        assert!(!html.contains("<article"));
        assert!(html.ends_with("</html>\n"));
    }

    #[test]
    fn one_step_has_nowhere_to_go() {
        let html = page("t", &steps()[..1]);
        assert!(html.contains("id=\"prev\" disabled"));
        assert!(html.contains("id=\"next\" disabled"));
        assert!(html.contains(">Step 1 of 1</span>"));
    }
}
