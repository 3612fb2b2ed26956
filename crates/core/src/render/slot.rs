//! `explain NAME --slot TIME` as text: one line that answers for the run, then its evidence.

use super::explain::TextOptions;
use super::wrap::wrap;
use crate::report::slot::SlotAnswer;

/// The answer for one slot; `notes` (a skewed clock, reduced evidence) first, as `explain`
/// puts them. Strings from the input are expected terminal-safe already.
pub fn render(a: &SlotAnswer, notes: &[String], o: TextOptions) -> String {
    let st = o.style;
    let mut out = String::new();
    for n in notes {
        out.push_str(&st.dim(&wrap(&format!("note: {n}"), o.width, o.width, 6)));
        out.push('\n');
    }
    if !notes.is_empty() {
        out.push('\n');
    }
    let mark = if a.ok { st.green("✓") } else { st.red("✗") };
    let head = format!("{}: {}", a.name, a.answer);
    out.push_str(&format!(
        "{mark} {}\n",
        wrap(&head, o.width - 2, o.width, 2)
    ));
    let mut place = format!("  {}/{}", a.namespace, a.name);
    if let Some(j) = &a.job {
        place.push_str(&format!(" · Job {j}"));
    }
    out.push_str(&st.dim(&place));
    out.push('\n');
    for d in &a.details {
        out.push_str(&format!(
            "  {}",
            st.dim(&wrap(&format!("· {d}"), o.width - 2, o.width, 4))
        ));
        out.push('\n');
    }
    out
}
