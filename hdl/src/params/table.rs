//! The parameter table: one row per parameter of a block (or of a run), naming it, saying what
//! it sets and what values it allows. The one table drives validation, the command-line flags,
//! the JSON config keys and the `grfgen blocks` catalogue, so a range is written once.

use std::fmt::{self, Display};

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::ParamError;

/// How a parameter's value is written, on the command line and in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A whole number (a JSON number without a fraction).
    Integer,
    /// A real number (any JSON number).
    Number,
    /// `true` or `false` (a JSON boolean).
    Boolean,
    /// A word such as a name, a path or `threads:4` (a JSON string).
    Text,
}

/// A type a parameter's value can have.
pub trait ParamValue: Clone + 'static {
    /// How the value is written.
    const KIND: Kind;
    /// Whether the flag takes several values (`--program a.asm b.asm`), passed to
    /// [`ParamValue::parse`] one a line.
    const REPEATED: bool = false;
    /// The value a text stands for, if any.
    fn parse(text: &str) -> Option<Self>;
    /// The value as text, in the form [`ParamValue::parse`] reads.
    fn show(&self) -> String;
}

macro_rules! integer_value {
    ($($t:ty),+) => {$(
        impl ParamValue for $t {
            const KIND: Kind = Kind::Integer;
            fn parse(text: &str) -> Option<Self> {
                // Only plain decimal digits: no sign, no spaces.
                if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                text.parse().ok()
            }
            fn show(&self) -> String {
                self.to_string()
            }
        }
    )+};
}

integer_value!(usize, u32, u64);

impl ParamValue for f64 {
    const KIND: Kind = Kind::Number;
    fn parse(text: &str) -> Option<Self> {
        text.parse().ok().filter(|v: &f64| v.is_finite())
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

impl ParamValue for bool {
    const KIND: Kind = Kind::Boolean;
    fn parse(text: &str) -> Option<Self> {
        match text.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        }
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

impl ParamValue for String {
    const KIND: Kind = Kind::Text;
    fn parse(text: &str) -> Option<Self> {
        Some(text.to_string())
    }
    fn show(&self) -> String {
        self.clone()
    }
}

/// Several texts (paths): given as one flag with several values, one a line in the text form;
/// none by default.
impl ParamValue for Vec<String> {
    const KIND: Kind = Kind::Text;
    const REPEATED: bool = true;
    fn parse(text: &str) -> Option<Self> {
        Some(text.lines().map(str::to_string).collect())
    }
    fn show(&self) -> String {
        self.join("\n")
    }
}

/// An optional value: absent by default, shown as `none`.
impl<T: ParamValue> ParamValue for Option<T> {
    const KIND: Kind = T::KIND;
    fn parse(text: &str) -> Option<Self> {
        T::parse(text).map(Some)
    }
    fn show(&self) -> String {
        self.as_ref().map_or_else(|| "none".to_string(), T::show)
    }
}

impl Allowed<Option<String>> {
    /// A built-in input of `names` named by `flag`, or none; `file_flag` names a file instead
    /// (`file_given`: it was given), and the two conflict, which the refusal says.
    pub fn name_or_file(names: &[&str], flag: &str, file_flag: &str, file_given: bool) -> Self {
        let words = match file_given {
            true => {
                format!("none beside {file_flag} FILE: {flag} and {file_flag} conflict, give one")
            }
            false => format!("{}; or {file_flag} FILE instead", names.join(", ")),
        };
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        Self::matching(words, move |v: &Option<String>| match v {
            Some(name) => !file_given && names.contains(name),
            // Not given: `sim` asks for one when it runs; `flow` runs its own.
            None => true,
        })
    }
}

/// The values a parameter allows, in words and as a test.
pub struct Allowed<T> {
    words: String,
    admits: Box<dyn Fn(&T) -> bool>,
}

impl<T: ParamValue> Allowed<T> {
    /// Values `low..=high`.
    pub fn range(low: T, high: T) -> Self
    where
        T: PartialOrd + Display,
    {
        let words = format!("{low}..={high}");
        Self {
            words,
            admits: Box::new(move |v| *v >= low && *v <= high),
        }
    }

    /// Exactly the listed values, written `1, 2, 4 or 8`.
    pub fn one_of(values: &[T]) -> Self
    where
        T: PartialEq + Display,
    {
        let words: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        let words = match words.split_last() {
            None => "nothing".to_string(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        };
        let values = values.to_vec();
        Self {
            words,
            admits: Box::new(move |v| values.contains(v)),
        }
    }

    /// Every value of the type, described by `words` (`true or false`, `a file path`).
    pub fn any(words: impl Into<String>) -> Self {
        Self {
            words: words.into(),
            admits: Box::new(|_| true),
        }
    }

    /// The values `admits` accepts, described by `words`.
    pub fn matching(words: impl Into<String>, admits: impl Fn(&T) -> bool + 'static) -> Self {
        Self {
            words: words.into(),
            admits: Box::new(admits),
        }
    }

    /// The same values, with the reason for them added to the words.
    pub fn because(mut self, reason: impl Display) -> Self {
        self.words = format!("{} ({reason})", self.words);
        self
    }

    /// The allowed values in words.
    pub fn words(&self) -> &str {
        &self.words
    }

    /// Whether `value` is allowed.
    pub fn admits(&self, value: &T) -> bool {
        (self.admits)(value)
    }
}

/// Access to one field of a parameter struct `P`, whatever its type.
trait Field<P> {
    fn kind(&self) -> Kind;
    fn repeated(&self) -> bool;
    fn show(&self, params: &P) -> String;
    /// Parses `text` into the field; false if it is not a value of the field's type.
    fn parse_into(&self, params: &mut P, text: &str) -> bool;
    fn allowed(&self, params: &P) -> String;
    fn admits(&self, params: &P) -> bool;
}

/// A field of type `T` reached through two accessors, with its allowed values.
struct Typed<P, T> {
    get: fn(&P) -> &T,
    get_mut: fn(&mut P) -> &mut T,
    allowed: fn(&P) -> Allowed<T>,
}

impl<P, T: ParamValue> Field<P> for Typed<P, T> {
    fn kind(&self) -> Kind {
        T::KIND
    }
    fn repeated(&self) -> bool {
        T::REPEATED
    }
    fn show(&self, params: &P) -> String {
        (self.get)(params).show()
    }
    fn parse_into(&self, params: &mut P, text: &str) -> bool {
        match T::parse(text) {
            Some(value) => {
                *(self.get_mut)(params) = value;
                true
            }
            None => false,
        }
    }
    fn allowed(&self, params: &P) -> String {
        (self.allowed)(params).words
    }
    fn admits(&self, params: &P) -> bool {
        (self.allowed)(params).admits((self.get)(params))
    }
}

/// A field of an inner struct `P` held in an outer struct `Q`.
struct Nested<P, Q> {
    inner: Box<dyn Field<P>>,
    get: fn(&Q) -> &P,
    get_mut: fn(&mut Q) -> &mut P,
}

impl<P, Q> Field<Q> for Nested<P, Q> {
    fn kind(&self) -> Kind {
        self.inner.kind()
    }
    fn repeated(&self) -> bool {
        self.inner.repeated()
    }
    fn show(&self, params: &Q) -> String {
        self.inner.show((self.get)(params))
    }
    fn parse_into(&self, params: &mut Q, text: &str) -> bool {
        self.inner.parse_into((self.get_mut)(params), text)
    }
    fn allowed(&self, params: &Q) -> String {
        self.inner.allowed((self.get)(params))
    }
    fn admits(&self, params: &Q) -> bool {
        self.inner.admits((self.get)(params))
    }
}

/// The [`Param`] of field `$field` of `Self`, named after the field, with its doc line, value
/// name and allowed values: `param!(lanes, "lanes per register", "N", |_| Allowed::range(1, 8))`.
#[macro_export]
macro_rules! param {
    ($field:ident, $doc:expr, $value_name:expr, $allowed:expr $(,)?) => {
        $crate::params::Param::new(
            stringify!($field),
            $doc,
            $value_name,
            |p: &Self| &p.$field,
            |p| &mut p.$field,
            $allowed,
        )
    };
}

/// One parameter: its name, what it sets, and its field in the struct `P`.
pub struct Param<P> {
    /// The name in snake_case: the JSON key; the flag is `--` and the name in kebab-case.
    pub name: &'static str,
    /// What it sets, with its unit, in one line.
    pub doc: &'static str,
    /// The placeholder of its value in help texts, e.g. `N` or `FILE`.
    pub value_name: &'static str,
    field: Box<dyn Field<P>>,
}

impl<P: 'static> Param<P> {
    /// The parameter `name` stored in the field `get`/`get_mut` of type `T`, allowing the
    /// values `allowed` gives for the rest of the parameters.
    pub fn new<T: ParamValue>(
        name: &'static str,
        doc: &'static str,
        value_name: &'static str,
        get: fn(&P) -> &T,
        get_mut: fn(&mut P) -> &mut T,
        allowed: fn(&P) -> Allowed<T>,
    ) -> Self {
        Self {
            name,
            doc,
            value_name,
            field: Box::new(Typed {
                get,
                get_mut,
                allowed,
            }),
        }
    }

    /// The same parameter of the struct `P` held inside `Q` at `get`/`get_mut`.
    pub fn nested<Q: 'static>(self, get: fn(&Q) -> &P, get_mut: fn(&mut Q) -> &mut P) -> Param<Q> {
        Param {
            name: self.name,
            doc: self.doc,
            value_name: self.value_name,
            field: Box::new(Nested {
                inner: self.field,
                get,
                get_mut,
            }),
        }
    }

    /// The command-line flag, e.g. `--read-ports`.
    pub fn flag(&self) -> String {
        format!("--{}", self.name.replace('_', "-"))
    }

    /// How the value is written.
    pub fn kind(&self) -> Kind {
        self.field.kind()
    }

    /// Whether the flag takes several values (see [`ParamValue::REPEATED`]).
    pub fn repeated(&self) -> bool {
        self.field.repeated()
    }

    /// The value in `params`, as text.
    pub fn value(&self, params: &P) -> String {
        self.field.show(params)
    }

    /// The allowed values in words, given the other parameters of `params`.
    pub fn allowed(&self, params: &P) -> String {
        self.field.allowed(params)
    }

    /// Sets the parameter in `params` from `text`; an error if `text` is no value of its type.
    /// The range is checked by [`Param::check`], once every parameter is set.
    pub fn set(&self, params: &mut P, text: &str) -> Result<(), ParamError> {
        if self.field.parse_into(params, text) {
            Ok(())
        } else {
            Err(ParamError::new(self.name, text, self.allowed(params)))
        }
    }

    /// Checks that the value in `params` is allowed.
    pub fn check(&self, params: &P) -> Result<(), ParamError> {
        if self.field.admits(params) {
            Ok(())
        } else {
            Err(ParamError::new(
                self.name,
                self.value(params),
                self.allowed(params),
            ))
        }
    }
}

impl<P> fmt::Debug for Param<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Param").field("name", &self.name).finish()
    }
}

/// A set of parameters described by a table: a block's parameters, or a run's options.
pub trait Params:
    Clone + Default + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// Every parameter, in the order they are checked and listed.
    fn table() -> Vec<Param<Self>>;

    /// Every parameter as a parameter of the options `Q` that hold these at `get`/`get_mut`.
    fn nested<Q: 'static>(get: fn(&Q) -> &Self, get_mut: fn(&mut Q) -> &mut Self) -> Vec<Param<Q>> {
        (Self::table().into_iter())
            .map(|p| p.nested(get, get_mut))
            .collect()
    }

    /// Gives the parameters whose default depends on others (the router's `pipeline` is 3
    /// when it is `registered`, 0 when not) that default, unless `given` says the user set
    /// them. Called once every given value is in, before [`Params::validate`].
    fn settle(&mut self, _given: &dyn Fn(&str) -> bool) {}

    /// Checks every parameter in table order; the first one out of range is reported.
    fn validate(&self) -> Result<(), ParamError> {
        Self::table().iter().try_for_each(|p| p.check(self))
    }

    /// The parameter called `name`, if there is one.
    fn param(name: &str) -> Option<Param<Self>> {
        Self::table().into_iter().find(|p| p.name == name)
    }
}

/// A run without options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct NoOptions {}

impl Params for NoOptions {
    fn table() -> Vec<Param<Self>> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
    struct Inner {
        count: usize,
    }

    #[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
    struct Outer {
        inner: Inner,
        rate: f64,
        name: Option<String>,
    }

    impl Params for Outer {
        fn table() -> Vec<Param<Self>> {
            vec![
                Param::new(
                    "count",
                    "a count",
                    "N",
                    |p: &Inner| &p.count,
                    |p| &mut p.count,
                    |_| Allowed::one_of(&[1, 2, 4]),
                )
                .nested(|q: &Outer| &q.inner, |q| &mut q.inner),
                Param::new(
                    "rate",
                    "a rate",
                    "R",
                    |p: &Outer| &p.rate,
                    |p| &mut p.rate,
                    |p| Allowed::range(0.0, p.inner.count as f64),
                ),
                Param::new(
                    "name",
                    "a name",
                    "NAME",
                    |p: &Outer| &p.name,
                    |p| &mut p.name,
                    |_| Allowed::any("any word"),
                ),
            ]
        }
    }

    #[test]
    fn values_are_parsed_checked_and_named_in_errors() {
        let mut p = Outer::default();
        let table = Outer::table();
        assert_eq!(table[0].flag(), "--count");
        assert_eq!(table[0].kind(), Kind::Integer);
        assert_eq!(
            table[0].check(&p).unwrap_err().to_string(),
            "invalid value 0 for --count: allowed 1, 2 or 4"
        );
        table[0].set(&mut p, "4").unwrap();
        assert_eq!(p.inner.count, 4);
        assert_eq!(
            table[0].set(&mut p, "-1").unwrap_err().to_string(),
            "invalid value -1 for --count: allowed 1, 2 or 4"
        );
        table[1].set(&mut p, "2.5").unwrap();
        assert!(p.validate().is_ok());
        table[1].set(&mut p, "4.5").unwrap();
        assert_eq!(p.validate().unwrap_err().param, "rate");
        assert!(table[1].set(&mut p, "inf").is_err());
        assert_eq!(table[2].value(&p), "none");
        table[2].set(&mut p, "x").unwrap();
        assert_eq!(p.name.as_deref(), Some("x"));
        assert!(Outer::param("rate").is_some() && Outer::param("speed").is_none());
    }

    #[test]
    fn integers_are_plain_digits() {
        assert_eq!(usize::parse("12"), Some(12));
        for bad in [
            "",
            "+1",
            "-1",
            " 1",
            "1.0",
            "0x10",
            "99999999999999999999999",
        ] {
            assert_eq!(usize::parse(bad), None, "{bad:?}");
        }
    }
}
