//! Block parameters and run options from their tables: the command-line flags, the JSON config
//! file, and the values a user set, in that order of precedence over the defaults.

use std::path::Path;

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches};
use grfgen_hdl::params::{Kind, Param, ParamError, Params};
use serde_json::Value;

use grfgen_engines::error::CliError;

/// How a parameter's flag takes values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// One value (`--banks 4`; a bare `--flat` means `--flat true`).
    One,
    /// A comma-separated list of values to sweep over (`--banks 1,2,4`).
    List,
}

/// The flag of parameter `p`.
fn arg<P: Params>(p: &Param<P>, defaults: &P, values: Values) -> Arg {
    // An option without a default value (a workload one of several flags names, a list of
    // uniforms) shows none.
    let default = match p.value(defaults).as_str() {
        "" | "none" => String::new(),
        value => format!(" [default {value}]"),
    };
    let help = format!("{}: {}{default}", capitalised(p.doc), p.allowed(defaults));
    let arg = Arg::new(p.name)
        .long(p.flag().trim_start_matches("--").to_string())
        .value_name(p.value_name)
        .help(help)
        .allow_hyphen_values(p.kind() != Kind::Boolean)
        // `--flat -1` is refused by the parameter's own check, which names it and its choices.
        .allow_negative_numbers(true)
        .action(ArgAction::Set);
    if p.repeated() {
        // Several values (`--program a.asm b.asm`, or the flag again), up to the next flag.
        return arg
            .allow_hyphen_values(false)
            .num_args(1..)
            .action(ArgAction::Append);
    }
    match (values, p.kind()) {
        // A bare yes/no flag means `true`, in a list as everywhere (`--allocate`).
        (Values::List, Kind::Boolean) => arg
            .value_delimiter(',')
            .num_args(0..=1)
            .default_missing_value("true")
            .action(ArgAction::Append),
        (Values::List, _) => arg
            .value_delimiter(',')
            .num_args(1)
            .action(ArgAction::Append),
        (Values::One, Kind::Boolean) => arg.num_args(0..=1).default_missing_value("true"),
        (Values::One, _) => arg,
    }
}

/// `text` with its first letter in upper case.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The flags of every parameter of `P`.
pub fn args<P: Params>(values: Values) -> Vec<Arg> {
    let defaults = P::default();
    P::table()
        .iter()
        .map(|p| arg(p, &defaults, values))
        .collect()
}

/// A flag `--<id>` (underscores as dashes) taking a comma-separated list.
pub fn list_arg(id: &'static str, value_name: &'static str, help: impl Into<String>) -> Arg {
    Arg::new(id)
        .long(id.replace('_', "-"))
        .value_name(value_name)
        .value_delimiter(',')
        .allow_negative_numbers(true)
        .help(help.into())
}

/// The `--config FILE` flag.
pub fn config_arg() -> Arg {
    Arg::new("config")
        .long("config")
        .value_name("FILE")
        .help("JSON file with any of the parameters (snake_case keys); flags override it")
}

/// Whether the user gave flag `id` on the command line.
pub fn given(m: &ArgMatches, id: &str) -> bool {
    m.try_get_raw(id).ok().flatten().is_some()
        && m.value_source(id) == Some(ValueSource::CommandLine)
}

/// The value of flag `id` as text, when the user gave it.
pub fn text<'a>(m: &'a ArgMatches, id: &str) -> Option<&'a str> {
    if !given(m, id) {
        return None;
    }
    m.get_one::<String>(id).map(String::as_str)
}

/// A design's parameters `P` from their defaults, the config file `--config` (when given) and
/// the flags set in `m`; validated.
pub fn resolve_with_config<P: Params>(m: &ArgMatches) -> Result<P, CliError> {
    resolve_with_defaults(m, &[])
}

/// As [`resolve_with_config`], with `defaults` (parameter name, value) in place of the
/// table's defaults for the parameters of `P` that neither a flag nor the file sets (the
/// block RAM a device's flow uses unless told otherwise), where the other parameters allow
/// them.
pub fn resolve_with_defaults<P: Params>(
    m: &ArgMatches,
    defaults: &[(&str, &str)],
) -> Result<P, CliError> {
    let (params, keys) = configured::<P>(m)?;
    let configured: Vec<String> = keys.iter().map(|(k, _)| k.clone()).collect();
    set_flags(params, m, &configured, defaults).map_err(|e| located(m, &keys, e))
}

/// The refusal of `e`. When the value came from the config file (one of its `keys`, each with
/// where it is, and no flag of `m` set it), it names the file, the line, the column and the key.
pub fn located(m: &ArgMatches, keys: &[(String, String)], e: ParamError) -> CliError {
    let path = m.get_one::<String>("config");
    match (path, keys.iter().find(|(k, _)| *k == e.param)) {
        (Some(path), Some((key, at))) if !given(m, key) => CliError::Input(format!(
            "{e} (from --config {}, {at}`{key}`)",
            grfgen_support::input::shown(path)
        )),
        _ => e.into(),
    }
}

/// A design's parameters `P` from their defaults and the config file `--config` when given,
/// before any flag: the base a sweep's lists vary; with the keys the file set, each with where
/// it is in the file.
pub fn configured<P: Params>(m: &ArgMatches) -> Result<(P, Vec<(String, String)>), CliError> {
    let mut params = P::default();
    let keys = match m.get_one::<String>("config") {
        Some(path) => apply_config(&mut params, Path::new(path))?,
        None => Vec::new(),
    };
    Ok((params, keys))
}

/// Run options `P` from their defaults and the flags set in `m`; validated.
pub fn resolve<P: Params>(m: &ArgMatches) -> Result<P, CliError> {
    Ok(set_flags(P::default(), m, &[], &[])?)
}

/// `params` with every flag of `P` set in `m` (over the `configured` keys a config file set)
/// and `defaults` for what neither set, settled and validated.
fn set_flags<P: Params>(
    mut params: P,
    m: &ArgMatches,
    configured: &[String],
    defaults: &[(&str, &str)],
) -> Result<P, ParamError> {
    let set = |name: &str| given(m, name) || configured.iter().any(|k| k == name);
    for p in P::table() {
        if let Some(value) = flag_text(m, &p) {
            p.set(&mut params, &value)?;
        } else if let Some((_, value)) = defaults.iter().find(|(n, _)| *n == p.name) {
            // A default the design does not allow with its other parameters is not taken.
            let mut trial = params.clone();
            if !set(p.name) && p.set(&mut trial, value).is_ok() && p.check(&trial).is_ok() {
                params = trial;
            }
        }
    }
    params.settle(&set);
    params.validate()?;
    Ok(params)
}

/// The text of parameter `p`'s flag when the user gave it: its values one a line when it
/// takes several.
fn flag_text<P: Params>(m: &ArgMatches, p: &Param<P>) -> Option<String> {
    if !p.repeated() {
        return text(m, p.name).map(str::to_string);
    }
    let values: Vec<&str> = m.get_many::<String>(p.name)?.map(String::as_str).collect();
    given(m, p.name).then(|| values.join("\n"))
}

/// Reads a JSON config file's keys into `params`: the keys set, each with where it is in the
/// file (`line L, column C: `).
fn apply_config<P: Params>(params: &mut P, path: &Path) -> Result<Vec<(String, String)>, CliError> {
    let table = P::table();
    let keys: Vec<&str> = table.iter().map(|p| p.name).collect();
    let bad = |why: String| {
        CliError::Input(format!(
            "invalid value {} for --config: {why}; allowed: a JSON object with keys {}",
            grfgen_support::input::shown(&path.to_string_lossy()),
            keys.join(", ")
        ))
    };
    let text = grfgen_support::input::read_text(&path.to_string_lossy(), "--config")
        .map_err(CliError::Input)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let json: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    let Value::Object(object) = json else {
        return Err(bad("not a JSON object".into()));
    };
    let mut set = Vec::new();
    for (key, value) in object {
        let at = key_position(text, &key);
        let bad = |why: String| bad(format!("{at}{why}"));
        // `read-ports` and `read_ports` are one name.
        let Some(p) = table.iter().find(|p| p.name == key.replace('-', "_")) else {
            let hint = match grfgen_hdl::params::flag_suggestion(&key, keys.iter().copied()) {
                Some(near) => format!(" (did you mean `{near}`?)"),
                None => String::new(),
            };
            return Err(bad(format!("unknown parameter `{key}`{hint}")));
        };
        let value = match (p.kind(), &value) {
            (Kind::Integer, Value::Number(n)) if n.is_u64() => n.to_string(),
            (Kind::Number, Value::Number(n)) => n.to_string(),
            (Kind::Boolean, Value::Bool(b)) => b.to_string(),
            (Kind::Text, Value::String(s)) => s.clone(),
            (kind, _) => {
                let kind = format!("{kind:?}").to_lowercase();
                return Err(bad(format!("`{key}` is {value}, not a JSON {kind}")));
            }
        };
        p.set(params, &value).map_err(|e| {
            let path = grfgen_support::input::shown(&path.to_string_lossy());
            CliError::Input(format!("{e} (from --config {path}, {at}`{key}`)"))
        })?;
        set.push((key.replace('-', "_"), at));
    }
    Ok(set)
}

/// Where the key `key` of a config file's top-level object is in `text`: `line L, column C: `
/// for its last occurrence as written plainly (the value that counts), or nothing when it is
/// written with escapes.
fn key_position(text: &str, key: &str) -> String {
    let quoted = serde_json::to_string(key).unwrap_or_default();
    let found = text
        .match_indices(&quoted)
        .map(|(at, _)| at)
        .filter(|&at| text[at + quoted.len()..].trim_start().starts_with(':'));
    match found.last() {
        Some(at) => {
            let before = &text[..at];
            let line = before.matches('\n').count() + 1;
            let start = before.rfind('\n').map_or(0, |n| n + 1);
            let column = before[start..].chars().count() + 1;
            format!("line {line}, column {column}: ")
        }
        None => String::new(),
    }
}

/// The value lists given for the parameters of `P`: `(name, values)` in table order.
pub fn lists<P: Params>(m: &ArgMatches) -> Vec<(&'static str, Vec<String>)> {
    P::table()
        .iter()
        .filter(|p| given(m, p.name))
        .map(|p| {
            let values = m
                .get_many::<String>(p.name)
                .map(|v| v.cloned().collect())
                .unwrap_or_default();
            (p.name, values)
        })
        .collect()
}

/// A flag of type `T` (`--seed`, `--clock-mhz`) when given; an error naming its allowed values
/// when it does not parse.
pub fn number<T: std::str::FromStr>(
    m: &ArgMatches,
    id: &'static str,
    allowed: &str,
) -> Result<Option<T>, CliError> {
    let Some(value) = text(m, id) else {
        return Ok(None);
    };
    value.parse().map(Some).map_err(|_| {
        CliError::Input(format!(
            "invalid value {} for --{}: allowed {allowed}",
            grfgen_support::text::quoted(value),
            id.replace('_', "-")
        ))
    })
}
