//! The typed decoder's numbers: a number token's spelling and range, and the integer, number and
//! number-or-string fields built on it (section 6 of the wire contract).

use super::{De, Result};
use crate::error::{clip, Category};
use crate::grammar::number_end;
use crate::number;
use crate::pointer::Path;
use crate::values::NumberOrString;

impl<'a> De<'a> {
    /// The number token at the cursor (its spelling checked) and its double.
    fn number_token(&mut self, path: &Path<'_>, expected: &str) -> Result<(usize, &'a str, f64)> {
        let at = self.value_start();
        let c = self.at();
        if !(c == b'-' || c.is_ascii_digit()) {
            return Err(self.wrong_type(path, at, expected));
        }
        let end = number_end(self.b, at)?;
        self.i = end;
        let spelling = self.text.get(at..end).unwrap_or("0");
        let value = number::parse(spelling);
        if !value.is_finite() {
            return Err(self.error(
                Category::InvalidNumber,
                path,
                at,
                format!("{} is beyond the IEEE 754 double range", clip(spelling)),
            ));
        }
        Ok((at, spelling, value))
    }

    /// An integer field within `min..=max`, judged by its parsed double (section 6).
    pub fn integer(&mut self, path: &Path<'_>, min: u64, max: u64) -> Result<u64> {
        let (at, spelling, value) = self.number_token(path, "an integer")?;
        if value.fract() != 0.0 {
            return Err(self.error(
                Category::WrongType,
                path,
                at,
                format!("expected an integer, got {}", clip(spelling)),
            ));
        }
        if number::has_fraction_or_exponent(spelling.as_bytes()) {
            return Err(self.error(
                Category::InvalidNumber,
                path,
                at,
                format!(
                    "integer written as {}: integers take no fraction or exponent",
                    clip(spelling)
                ),
            ));
        }
        if value < min as f64 || value > max as f64 {
            return Err(self.error(
                Category::InvalidValue,
                path,
                at,
                format!("{} is outside {min}..{max}", clip(spelling)),
            ));
        }
        Ok(value as u64)
    }

    /// A number field, at least `min` when given.
    pub fn number(&mut self, path: &Path<'_>, min: Option<f64>) -> Result<f64> {
        let (at, spelling, value) = self.number_token(path, "a number")?;
        if min.is_some_and(|m| value < m) {
            return Err(self.error(
                Category::InvalidValue,
                path,
                at,
                format!("{} is below the minimum", clip(spelling)),
            ));
        }
        Ok(value)
    }

    /// A number (at least `min`) or a string.
    pub fn number_or_string(&mut self, path: &Path<'_>, min: Option<f64>) -> Result<NumberOrString> {
        let at = self.value_start();
        match self.at() {
            b'"' => Ok(NumberOrString::String(self.string(path)?)),
            c if c == b'-' || c.is_ascii_digit() => Ok(NumberOrString::Number(self.number(path, min)?)),
            _ => Err(self.wrong_type(path, at, "a number or a string")),
        }
    }
}
