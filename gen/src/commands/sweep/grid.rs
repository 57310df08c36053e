//! The points of a sweep: every combination of the listed values, in a fixed order, each with
//! a seed derived from the sweep's seed and its index.

use clap::ArgMatches;
use grfgen_hdl::params::{ParamError, Params};

use crate::error::CliError;
use crate::params::lists;

/// The values listed for one name, in the order given.
pub type List = (String, Vec<String>);

/// Every combination of `lists` applied to `base`, the first list outermost, validated.
pub fn grid<P: Params>(base: &P, lists: &[List]) -> Result<Vec<P>, ParamError> {
    let mut points = vec![base.clone()];
    for (name, values) in lists {
        let param = P::param(name).expect("listed from the table");
        let mut next = Vec::with_capacity(points.len() * values.len());
        for point in &points {
            for value in values {
                let mut p = point.clone();
                param.set(&mut p, value)?;
                next.push(p);
            }
        }
        points = next;
    }
    for p in &mut points {
        p.settle(&|name| lists.iter().any(|(listed, _)| listed == name));
        p.validate()?;
    }
    Ok(points)
}

/// The lists of the parameters `P` and the options `O`: their own flags (`--banks 1,2`), then
/// each `--set NAME=V1,V2` in order. A name both ways, or one neither table has, is an error.
pub fn lists_of<P: Params, O: Params>(m: &ArgMatches) -> Result<(Vec<List>, Vec<List>), CliError> {
    let own = |v: Vec<(&'static str, Vec<String>)>| -> Vec<List> {
        v.into_iter().map(|(n, l)| (n.to_string(), l)).collect()
    };
    let (mut params, mut options) = (own(lists::<P>(m)), own(lists::<O>(m)));
    for set in m.get_many::<String>("set").into_iter().flatten() {
        let bad = |why: &str| CliError::Input(format!("invalid value {set} for --set: {why}"));
        let (flag, values) = set
            .split_once('=')
            .ok_or_else(|| bad("allowed NAME=V1,V2,... with NAME a parameter or option"))?;
        let name = flag.trim().trim_start_matches("--").replace('-', "_");
        let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
        let target = match (P::param(&name).is_some(), O::param(&name).is_some()) {
            (true, _) => &mut params,
            (false, true) => &mut options,
            (false, false) => {
                let names: Vec<String> = P::table()
                    .iter()
                    .map(|p| p.flag())
                    .chain(O::table().iter().map(|p| p.flag()))
                    .map(|f| f.trim_start_matches("--").to_string())
                    .collect();
                return Err(bad(&format!("allowed names {}", names.join(", "))));
            }
        };
        if target.iter().any(|(n, _)| *n == name) {
            return Err(bad("the name is listed twice"));
        }
        target.push((name, values));
    }
    Ok((params, options))
}

/// The points a shard `i` of `n` runs: those whose index is `i` modulo `n`.
pub fn in_shard(index: usize, shard: (usize, usize)) -> bool {
    index % shard.1 == shard.0
}
