//! The rows of the bench's tables and how they print: Markdown, the
//! figures in readable units.

use std::io::{self, Write};

/// One line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// What is measured.
    pub what: String,
    /// The unit of both figures.
    pub unit: Unit,
    /// The fast engine's figure.
    pub fast: f64,
    /// The reference engine's figure.
    pub reference: f64,
}

/// The unit of a row: a time per operation (lower is better), a rate
/// (higher is better) or a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Nanoseconds per operation.
    Nanos,
    /// Operations per second.
    PerSecond,
    /// Bytes.
    Bytes,
}

impl Row {
    /// How many times better the fast engine does (time and rate alike);
    /// for sizes, how many times smaller.
    pub fn speedup(&self) -> f64 {
        match self.unit {
            Unit::Nanos | Unit::Bytes => self.reference / self.fast,
            Unit::PerSecond => self.fast / self.reference,
        }
    }
}

/// Prints rows as the Markdown table of docs/performance.md; the last
/// column is the fast figure in steps of the limit probe (`limit_ns`), a
/// ratio that moves less with the machine's load than the times do.
pub fn print_table<W: Write + ?Sized>(out: &mut W, rows: &[Row], limit_ns: f64) -> io::Result<()> {
    writeln!(out, "| measure | fast | reference | fast vs reference | fast in limit steps |")?;
    writeln!(out, "| --- | ---: | ---: | ---: | ---: |")?;
    for row in rows {
        let ratio = match row.unit {
            Unit::Bytes => format!("{:.1}× smaller", row.speedup()),
            _ => format!("{:.0}×", row.speedup()),
        };
        let limit = match row.unit {
            Unit::Nanos => format!("{:.1}", row.fast / limit_ns),
            Unit::PerSecond => format!("{:.0}", 1e9 / row.fast / limit_ns),
            Unit::Bytes => "—".to_string(),
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            row.what,
            show(row.fast, row.unit),
            show(row.reference, row.unit),
            ratio,
            limit
        )?;
    }
    Ok(())
}

pub(crate) fn show(value: f64, unit: Unit) -> String {
    match unit {
        Unit::Nanos if value < 10.0 => format!("{value:.1} ns"),
        Unit::Nanos if value < 10_000.0 => format!("{value:.0} ns"),
        Unit::Nanos => format!("{:.1} µs", value / 1000.0),
        Unit::PerSecond => format!("{}/s", thousands(value)),
        Unit::Bytes => format!("{} B", thousands(value)),
    }
}

pub(crate) fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value);
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(show(7.26, Unit::Nanos), "7.3 ns");
        assert_eq!(show(512.4, Unit::Nanos), "512 ns");
        assert_eq!(show(25_300.0, Unit::Nanos), "25.3 µs");
        assert_eq!(show(1_234_567.0, Unit::PerSecond), "1,234,567/s");
        assert_eq!(show(960.0, Unit::Bytes), "960 B");
    }
}
