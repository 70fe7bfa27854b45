//! The parameters a tune varies: `NAME=START,MIN,MAX,C_END,R_END`, as
//! fishtest writes them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The form of a `--param`, for messages.
pub const PARAM_FORM: &str = "NAME=START,MIN,MAX,C_END,R_END";

/// The prefix of the environment variable that carries a parameter to a
/// bot process: `LIGHTCYCLES_PARAM_<NAME>`.
pub const ENV_PREFIX: &str = "LIGHTCYCLES_PARAM_";

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// Its name: a letter or `_`, then letters, digits and `_`.
    pub name: String,
    /// Its value before the first iteration.
    pub start: f64,
    /// The smallest value it may take.
    pub min: f64,
    /// The largest value it may take.
    pub max: f64,
    /// The size of the perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration (`a_end / c_end²`).
    pub r_end: f64,
    /// Whether the bot is given whole numbers (START, MIN and MAX were
    /// written without a decimal point): values are rounded to the nearest
    /// integer when handed to it, and kept unrounded in between.
    pub integer: bool,
}

impl Param {
    /// `value` as the bot is given it: rounded for an integer parameter,
    /// the shortest decimal that reads back as the same number otherwise.
    pub fn show(&self, value: f64) -> String {
        if self.integer {
            format!("{}", value.round() as i64)
        } else {
            format!("{value}")
        }
    }

    /// `value` kept within `[min, max]`.
    pub fn clamp(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }

    /// The environment variable that carries it to a bot process.
    pub fn env_name(&self) -> String {
        format!("{ENV_PREFIX}{}", self.name)
    }
}

impl fmt::Display for Param {
    /// The `--param` that gives it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}={},{},{},{},{}",
            self.name,
            self.show(self.start),
            self.show(self.min),
            self.show(self.max),
            self.c_end,
            self.r_end
        )
    }
}

/// Whether `name` may name a parameter (and an environment variable).
pub fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
}

impl FromStr for Param {
    type Err = String;

    fn from_str(text: &str) -> Result<Param, String> {
        let bad = |why: String| format!("--param {text:?}: {why} (expected {PARAM_FORM})");
        let Some((name, numbers)) = text.split_once('=') else {
            return Err(bad("no '=' after the name".into()));
        };
        let name = name.trim();
        if !is_valid_name(name) {
            return Err(bad(format!(
                "{name:?} is not a name: a letter or '_', then letters, digits and '_', at most 64"
            )));
        }
        let fields: Vec<&str> = numbers.split(',').map(str::trim).collect();
        if fields.len() != 5 {
            return Err(bad(format!("{} numbers, not 5", fields.len())));
        }
        let labels = ["START", "MIN", "MAX", "C_END", "R_END"];
        let mut values = [0.0; 5];
        for ((value, field), label) in values.iter_mut().zip(&fields).zip(labels) {
            *value = match field.parse::<f64>() {
                Ok(v) if v.is_finite() && v.abs() <= 1e15 => v,
                _ => return Err(bad(format!("{label} {field:?} is not a finite number (at most 1e15 in size)"))),
            };
        }
        let [start, min, max, c_end, r_end] = values;
        let integer = fields[..3].iter().all(|f| f.parse::<i64>().is_ok());
        if min >= max {
            return Err(bad(format!("MIN {min} is not below MAX {max}")));
        }
        if !(min..=max).contains(&start) {
            return Err(bad(format!("START {start} is not within MIN {min} and MAX {max}")));
        }
        if c_end <= 0.0 || c_end > max - min {
            return Err(bad(format!("C_END {c_end} is not above 0 and at most MAX - MIN ({})", max - min)));
        }
        if r_end <= 0.0 {
            return Err(bad(format!("R_END {r_end} is not above 0")));
        }
        Ok(Param { name: name.to_string(), start, min, max, c_end, r_end, integer })
    }
}

/// Parses every `--param`, refusing a name given twice.
pub fn parse_all(texts: &[String]) -> Result<Vec<Param>, String> {
    let params = texts.iter().map(|t| t.parse::<Param>()).collect::<Result<Vec<Param>, String>>()?;
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|q| q.name == p.name) {
            return Err(format!("--param {}: the name is given twice", p.name));
        }
    }
    if params.is_empty() {
        return Err(format!("no --param: give at least one, {PARAM_FORM}"));
    }
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_param_reads_as_fishtest_writes_it() {
        let p: Param = "cell=16,4,64,4,0.002".parse().unwrap();
        assert_eq!(
            p,
            Param { name: "cell".into(), start: 16.0, min: 4.0, max: 64.0, c_end: 4.0, r_end: 0.002, integer: true }
        );
        assert_eq!(p.to_string(), "cell=16,4,64,4,0.002");
        assert_eq!(p.show(16.49), "16");
        assert_eq!(p.show(16.5), "17");
        let f: Param = "X = 0.5, 0, 1.0, 0.05, 0.01".parse().unwrap();
        assert!(!f.integer, "a decimal point makes it a float parameter");
        assert_eq!(f.show(0.25), "0.25");
        assert_eq!(f.env_name(), "LIGHTCYCLES_PARAM_X");
        assert_eq!(f.clamp(1.5), 1.0);
    }

    #[test]
    fn bad_params_say_what_is_wrong() {
        for (text, says) in [
            ("cell", "no '='"),
            ("1x=1,0,2,1,1", "is not a name"),
            ("x=1,0,2,1", "4 numbers, not 5"),
            ("x=a,0,2,1,1", "START \"a\" is not a finite number"),
            ("x=1,0,inf,1,1", "MAX \"inf\""),
            ("x=1,2,2,1,1", "MIN 2 is not below MAX 2"),
            ("x=3,0,2,1,1", "START 3 is not within"),
            ("x=1,0,2,0,1", "C_END 0 is not above 0"),
            ("x=1,0,2,3,1", "at most MAX - MIN"),
            ("x=1,0,2,1,-1", "R_END -1 is not above 0"),
        ] {
            let e = text.parse::<Param>().unwrap_err();
            assert!(e.contains(says) && e.contains(PARAM_FORM), "{text}: {e}");
        }
        let twice = parse_all(&["x=1,0,2,1,1".into(), "x=1,0,2,1,1".into()]).unwrap_err();
        assert_eq!(twice, "--param x: the name is given twice");
        assert!(parse_all(&[]).unwrap_err().starts_with("no --param"));
    }

    proptest! {
        #[test]
        fn any_text_parses_or_is_refused_without_a_panic(text in ".{0,60}") {
            let _ = text.parse::<Param>();
        }

        #[test]
        fn any_numbers_parse_or_are_refused_and_a_param_reads_back(
            name in "[A-Za-z_][A-Za-z0-9_]{0,8}",
            n in proptest::collection::vec(prop_oneof![
                any::<i32>().prop_map(|v| v.to_string()),
                any::<f64>().prop_map(|v| v.to_string()),
                "[-0-9.e]{1,6}",
            ], 5),
        ) {
            let text = format!("{name}={}", n.join(","));
            if let Ok(p) = text.parse::<Param>() {
                prop_assert!(p.min < p.max && p.min <= p.start && p.start <= p.max && p.c_end > 0.0 && p.r_end > 0.0);
                if p.integer {
                    // Whole numbers print as they were written.
                    prop_assert_eq!(p.to_string().parse::<Param>().unwrap(), p);
                }
            }
        }
    }
}
